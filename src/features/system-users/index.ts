export { UserListPage } from './UserListPage';
