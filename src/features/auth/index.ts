export { LoginPage } from './LoginPage';
export { InitialPswChangePage } from './InitialPswChangePage';
