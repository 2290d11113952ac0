export { DesktopSyncButton } from './DesktopSyncButton';
