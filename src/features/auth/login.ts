/**
 * The login page on its own: imported as a chunk of its own by the app, so showing /login does not
 * load the password-change screens (and their form) that index.ts also exports.
 */
export { LoginPage } from './LoginPage';
