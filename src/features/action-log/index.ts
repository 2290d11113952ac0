export { ActionLogPage } from './ActionLogPage';
