/**
 * When the 手势密码 is asked (issue 38), decided without React so it can be tested alone.
 *
 * - The installed app (display-mode standalone, fullscreen or minimal-ui, iOS home-screen apps) and
 *   the desktop shell ask at start — not right after a login on the same page, which has just proved
 *   who it is — and whenever they were idle or hidden for the tenant's time; closing the app locks it.
 * - A plain browser tab does not lock on its own (the issue names the installed app and the desktop
 *   shell). But it shares the installed app's session (the same cookies), so while that app is locked
 *   every tab of the same browser profile shows the same lock; otherwise opening the address in a tab
 *   would walk around it. They share it through the 'locked since' flag below.
 *
 * The only thing kept on this device is that flag: which account is locked and since when. Never the
 * pattern nor anything derived from it; the server checks the pattern.
 */
import type { AppStorage } from '../../lib/storage';

export const LOCK_FLAG_KEY = 'gestureLockedSince';

export interface LockFlag {
  /** The account (tenant and user id) the flag belongs to: another account signing in ignores it. */
  account: string;
  since: number;
}

const isFlag = (v: unknown): v is LockFlag =>
  typeof v === 'object' && v !== null && typeof (v as LockFlag).account === 'string' && typeof (v as LockFlag).since === 'number';

export function lockedSince(storage: AppStorage, account: string): number | null {
  const flag = storage.get<unknown>(LOCK_FLAG_KEY);
  return isFlag(flag) && flag.account === account ? flag.since : null;
}

export function markLocked(storage: AppStorage, account: string, now: number): void {
  // An earlier lock keeps its time (the flag says since when, not the last time it was asked).
  if (lockedSince(storage, account) === null) storage.set(LOCK_FLAG_KEY, { account, since: now } satisfies LockFlag);
}

export function clearLocked(storage: AppStorage): void {
  storage.remove(LOCK_FLAG_KEY);
}

/** Whether the app, idle since `lastActive` (or hidden since then), is due to lock at `now`. */
export function idleExpired(lastActive: number, now: number, idleMinutes: number): boolean {
  return now - lastActive >= idleMinutes * 60_000;
}

/** How the lock starts when the app opens. */
export type StartState = 'locked' | 'checking' | 'open';

/**
 * `flagged`: the flag says this account is locked; `required`: the server's (possibly cached) answer
 * whether the lock applies, undefined while unknown.
 */
export function startState(opts: { installed: boolean; signedInHere: boolean; flagged: boolean; required: boolean | undefined }): StartState {
  if (opts.required === false) return 'open';
  if (opts.flagged) return opts.required === undefined ? 'checking' : 'locked';
  if (!opts.installed || opts.signedInHere) return 'open';
  return opts.required === undefined ? 'checking' : 'locked';
}
