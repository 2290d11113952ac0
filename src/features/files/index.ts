export { PersonalFilesPage } from './PersonalFilesPage';
