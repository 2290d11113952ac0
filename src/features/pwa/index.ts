export { PwaNotifier } from './PwaNotifier';
