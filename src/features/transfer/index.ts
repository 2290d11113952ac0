export { TransferPanel, UPLOADER_TIP } from './TransferPanel';
