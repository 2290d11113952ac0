import { ERRORS, GESTURE_LOCKOUT_MESSAGE } from '../../common/api/errors';
import type { GestureStatus } from '../../common/api/endpoints/gesture';
import type { TenantSwitches } from '../../common/api/tenant';
import { GESTURE_MAX_TRIES, patternProblem, patternText, type Pattern } from '../../common/gesture/pattern';
import { AppError } from '../http/app-error';
import type { GestureRepository } from '../repositories/gesture-repository';
import { actionLog } from './action-log/recorder';
import type { Caller } from './caller';
import { hashPassword, verifyPassword } from './password-hash';

export interface GestureDeps {
  repo: GestureRepository;
  /** The tenant's switches (the gesture switch and its idle time, 系统配置). */
  switchesOf: (tenantId: string) => Promise<TenantSwitches>;
}

/**
 * What is hashed: the dots in order, bound to the user, so that the same pattern of two users (or a
 * hash copied from one row to another) never matches. scrypt adds its own random salt per hash.
 */
const secretOf = (caller: Caller, pattern: Pattern) => `gesture:${caller.userId}:${patternText(pattern)}`;

/**
 * 手势密码 (issue 38): the caller's pattern as a salted scrypt hash, checked here only. Wrong tries
 * are counted on the session; the GESTURE_MAX_TRIES-th in a row ends it (common/api/endpoints/gesture.ts).
 */
export class GestureService {
  constructor(private readonly deps: GestureDeps) {}

  async status(caller: Caller): Promise<GestureStatus> {
    const [switches, hash] = await Promise.all([this.deps.switchesOf(caller.tenantId), this.deps.repo.hashOf(caller.tenantId, caller.userId)]);
    const set = hash !== undefined;
    const required = switches.gesture && set;
    return { enabled: switches.gesture, set, required, idleMinutes: switches.gestureIdle, locked: required && caller.gestureLocked === true };
  }

  /**
   * Whether the caller's session is refused its other calls (the session guard asks, for locked
   * sessions only): the lock holds while it applies — the admin turning the switch off, or the pattern
   * gone, lifts it.
   */
  async lockHolds(caller: Caller): Promise<boolean> {
    return caller.gestureLocked === true && (await this.status(caller)).locked;
  }

  /** The client's lock screen is up: the session is locked on the server too, until a right verify. */
  async lock(caller: Caller): Promise<true> {
    actionLog.record({ action: 'account.gestureLock' });
    const sessionId = caller.sessionId;
    if (!sessionId) throw new AppError(ERRORS.UNAUTHORIZED);
    const { enabled, set } = await this.status(caller);
    if (!enabled) throw new AppError(ERRORS.GESTURE_DISABLED);
    if (!set) throw new AppError(ERRORS.GESTURE_NOT_SET);
    await this.deps.repo.lock(sessionId);
    return true;
  }

  async set(caller: Caller, pattern: Pattern, now = Date.now()): Promise<GestureStatus> {
    const detail: Record<string, unknown> = { points: pattern.length };
    actionLog.record({ action: 'account.gestureSet', detail });
    if (!(await this.deps.switchesOf(caller.tenantId)).gesture) throw new AppError(ERRORS.GESTURE_DISABLED);
    if (patternProblem(pattern)) throw new AppError(ERRORS.GESTURE_INVALID);
    detail.replaced = (await this.deps.repo.hashOf(caller.tenantId, caller.userId)) !== undefined;
    await this.deps.repo.save(caller.tenantId, caller.userId, await hashPassword(secretOf(caller, pattern)), now);
    if (caller.sessionId) await this.deps.repo.resetTries(caller.sessionId);
    return this.status(caller);
  }

  async clear(caller: Caller): Promise<GestureStatus> {
    const detail: Record<string, unknown> = {};
    actionLog.record({ action: 'account.gestureClear', detail });
    detail.hadPattern = await this.deps.repo.remove(caller.tenantId, caller.userId);
    return this.status(caller);
  }

  /** The right pattern → true; wrong → GESTURE_WRONG with the tries left; the last wrong one ends the session. */
  async verify(caller: Caller, pattern: Pattern): Promise<true> {
    const detail: Record<string, unknown> = {};
    actionLog.record({ action: 'account.gestureUnlock', detail });
    const sessionId = caller.sessionId;
    if (!sessionId) throw new AppError(ERRORS.UNAUTHORIZED);
    if (!(await this.deps.switchesOf(caller.tenantId)).gesture) throw new AppError(ERRORS.GESTURE_DISABLED);
    const hash = await this.deps.repo.hashOf(caller.tenantId, caller.userId);
    if (hash === undefined) throw new AppError(ERRORS.GESTURE_NOT_SET);
    const tries = await this.deps.repo.countTry(sessionId);
    detail.try = tries;
    // A pattern no pad could draw is a wrong try like any other (and is never hashed).
    const right = tries <= GESTURE_MAX_TRIES && patternProblem(pattern) === null && (await verifyPassword(secretOf(caller, pattern), hash));
    if (right) {
      await this.deps.repo.resetTries(sessionId);
      return true;
    }
    if (tries >= GESTURE_MAX_TRIES) {
      await this.deps.repo.endSession(sessionId);
      detail.signedOut = true;
      throw new AppError(ERRORS.SESSION_TERMINATED, GESTURE_LOCKOUT_MESSAGE);
    }
    const remaining = GESTURE_MAX_TRIES - tries;
    throw new AppError(ERRORS.GESTURE_WRONG, `手势密码错误，还可尝试 ${remaining} 次`, {}, { remaining });
  }
}
