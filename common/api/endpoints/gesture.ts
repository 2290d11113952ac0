import { Type, type Static } from 'typebox';
import { data, endpoint } from '../endpoint';
import { API } from '../paths';

/**
 * 手势密码 (issue 38): the caller's own 3×3 pattern (rules in common/gesture/pattern.ts), offered when
 * the tenant's gesture switch (`/api/v2/sysSetting/gesture/switch`) is on. The server keeps only a
 * salted scrypt hash of it (never the pattern) and checks it; the client keeps neither.
 *
 * Wrong tries are counted per session on the server: the GESTURE_MAX_TRIES-th wrong pattern in a row
 * ends that session (its next call answers 400sec-core-301) and is itself answered 400sec-core-301
 * with GESTURE_LOCKOUT_MESSAGE, so the client's §8 '登出' box shows it. A right pattern resets the
 * count. Every set, clear, lock and unlock (right, wrong, the signing out) is on the action log.
 *
 * The lock is the server's too (`lock`): a locked session is refused everything but the lock screen's
 * calls by the session guard (server/http/session-guard.ts), GESTURE_LOCKED.
 */

/** The dots in the order they were joined, 0..8 row by row; the server checks it as a pad would draw it. */
export const PatternSchema = Type.Array(Type.Integer({ minimum: 0, maximum: 8 }), { minItems: 1, maxItems: 9 });

export const GestureSetBody = Type.Object({ pattern: PatternSchema }, { additionalProperties: false });
export type GestureSetRequest = Static<typeof GestureSetBody>;

export const GestureVerifyBody = Type.Object({ pattern: PatternSchema }, { additionalProperties: false });
export type GestureVerifyRequest = Static<typeof GestureVerifyBody>;

/** What the client needs to decide whether to lock. */
export interface GestureStatus {
  /** The tenant's switch: off = no pattern is asked or can be set. */
  enabled: boolean;
  /** The caller has a pattern. */
  set: boolean;
  /** enabled && set: the clients ask for the pattern at start and after idling. */
  required: boolean;
  /** Minutes idle or hidden before the lock is asked (the tenant's, 系统配置). */
  idleMinutes: number;
  /** required, and this session is locked (`lock`): its other calls answer GESTURE_LOCKED until `verify`. */
  locked: boolean;
}

/** A wrong pattern (GESTURE_WRONG) carries this beside errorCode/errorMessage. */
export interface GestureWrongDetails {
  remaining: number;
}

export const GESTURE = {
  /** Whether the lock applies to the caller, and after how long. */
  status: endpoint({ method: 'GET', path: API.gestureStatus, access: 'member', action: null, whileGestureLocked: true, response: data<GestureStatus>() }),
  /** Sets or replaces the caller's pattern (switch on; GESTURE_INVALID for a bad one) → the new status. */
  set: endpoint({ method: 'POST', path: API.gestureSet, access: 'member', action: 'account.gestureSet', body: GestureSetBody, response: data<GestureStatus>() }),
  /** Removes the caller's pattern (allowed with the switch off too) → the new status. */
  clear: endpoint({ method: 'POST', path: API.gestureClear, access: 'member', action: 'account.gestureClear', response: data<GestureStatus>() }),
  /** Unlock: the right pattern → true; wrong → GESTURE_WRONG {remaining}; the last try → 400sec-core-301, signed out. */
  verify: endpoint({ method: 'POST', path: API.gestureVerify, access: 'member', action: 'account.gestureUnlock', whileGestureLocked: true, body: GestureVerifyBody, response: data<true>() }),
  /**
   * The client put its lock screen up (at start, after idle or hidden): the server marks the session
   * locked, and until a right `verify` every call of it but the lock screen's own (status, verify, lock,
   * the user's details, logout) answers GESTURE_LOCKED — another tab or a script holding the cookie is
   * refused too. Only while the lock applies (switch on, pattern set: else GESTURE_DISABLED /
   * GESTURE_NOT_SET); the admin turning the switch off lifts it.
   */
  lock: endpoint({ method: 'POST', path: API.gestureLock, access: 'member', action: 'account.gestureLock', whileGestureLocked: true, response: data<true>() }),
};
