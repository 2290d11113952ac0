export { UserInfoPage } from './UserInfoPage';
export { AccountSafePage } from './AccountSafePage';
