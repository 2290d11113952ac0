/**
 * Engine dependencies that make fault and crash tests quick: short backoff (the real schedule
 * divided by 20, at most 250 ms) and a short stall timeout.
 */
import type { Sleep } from '../../workers/engine/backoff';
import { abortableSleep } from '../../workers/engine/backoff';
import type { NodeEngineDeps } from '../replay/engine-harness';

export const FAST_STALL_TIMEOUT_MS = 1_500;

export const fastSleep: Sleep = (ms, signal) => abortableSleep(Math.min(250, Math.ceil(ms / 20)), signal);

export function fastEngineDeps(extra: NodeEngineDeps = {}): NodeEngineDeps {
  return {
    sleep: fastSleep,
    stallTimeoutMs: FAST_STALL_TIMEOUT_MS,
    ...extra,
  };
}
