export { InitialPswChangePage } from './InitialPswChangePage';
export { PasswordChangePage } from './PasswordChangePage';
