export { DeskPage } from './DeskPage';
export { ReportPage } from './ReportPage';
