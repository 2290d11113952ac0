export { SystemConfigPage } from './SystemConfigPage';
