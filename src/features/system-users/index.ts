export { UserListPage } from './UserListPage';
export { UserFormPage } from './UserFormPage';
export { BatchAddPage } from './BatchAddPage';
