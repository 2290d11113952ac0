export { LoginPage } from './LoginPage';
export { InitialPswChangePage } from './InitialPswChangePage';
export { PasswordChangePage } from './PasswordChangePage';
