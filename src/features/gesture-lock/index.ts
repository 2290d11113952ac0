export { GestureLockGate } from './GestureLockGate';
