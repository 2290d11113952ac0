export { TransferBadgeButton, TransferPanel, UPLOADER_TIP } from './TransferPanel';
