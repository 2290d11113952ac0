export { FileSecurityPage } from './FileSecurityPage';
