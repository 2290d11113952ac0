export { DepartmentPage } from './DepartmentPage';
