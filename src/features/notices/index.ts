export { FileNoticePage } from './FileNoticePage';
export { SystemNoticePage } from './SystemNoticePage';
export { NoticeManagePage } from './NoticeManagePage';
