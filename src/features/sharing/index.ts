export { MySharePage } from './MySharePage';
export { DealApplyPage, MyApplyPage } from './ApplicationPages';
