import { ERRORS } from '../../../common/api/errors';
import { LINK_ADDRESS_FACTOR, LINK_LOCK_AFTER, LINK_LOCK_MS, LINK_SLOW_AFTER } from '../../../common/api/sharing';
import type { LinkFailuresTable } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { LinkRepository } from '../../repositories/link-repository';
import { LOCK_KEYS, type Locks } from '../locks';

/** A count of wrong codes starts again after this long without one. */
export const LINK_FAILURE_WINDOW_MS = 15 * 60 * 1000;
const DELAY_BASE_MS = 1000;
const DELAY_MAX_MS = 30_000;

export interface LinkThrottlePolicy {
  slowAfter: number;
  addressSlowAfter: number;
  lockAfter: number;
  lockMs: number;
  windowMs: number;
  delayBaseMs: number;
  delayMaxMs: number;
}

export const DEFAULT_LINK_THROTTLE: LinkThrottlePolicy = {
  slowAfter: LINK_SLOW_AFTER,
  addressSlowAfter: LINK_SLOW_AFTER * LINK_ADDRESS_FACTOR,
  lockAfter: LINK_LOCK_AFTER,
  lockMs: LINK_LOCK_MS,
  windowMs: LINK_FAILURE_WINDOW_MS,
  delayBaseMs: DELAY_BASE_MS,
  delayMaxMs: DELAY_MAX_MS,
};

const tokenKey = (tokenHash: string) => `tok:${tokenHash}`;
const addressKey = (address: string) => `addr:${address}`;

/**
 * Wrong extraction codes, counted per token (by its hash: tokens nobody issued are counted the same
 * way, so they answer alike) and per client address, as the login throttle counts passwords
 * (services/login-throttle.ts): after `slowAfter` failures every attempt waits a delay that doubles,
 * after `lockAfter` failures of one token it is locked for `lockMs` (even the right code waits).
 */
export class LinkThrottle {
  constructor(
    private readonly repo: LinkRepository,
    /** The server's locks (services/locks.ts): the codes of one token are judged one at a time, in any process. */
    private readonly locks: Locks,
    private readonly policy: LinkThrottlePolicy = DEFAULT_LINK_THROTTLE,
  ) {}

  /**
   * Runs one code check of a token at a time (check, compare, count), so wrong codes fired in parallel,
   * at one process or several, cannot all pass `check` before the first failure is counted.
   */
  serialize<T>(tokenHash: string, task: () => Promise<T>): Promise<T> {
    return this.locks.run(LOCK_KEYS.linkCode(tokenHash), () => task());
  }

  private waitFor(row: LinkFailuresTable, now: number): number {
    const p = this.policy;
    if (row.locked_until !== null && Number(row.locked_until) > now) return Number(row.locked_until) - now;
    if (row.last_failure_at < now - p.windowMs) return 0;
    const slowAfter = row.key.startsWith('addr:') ? p.addressSlowAfter : p.slowAfter;
    if (row.failures < slowAfter) return 0;
    const delay = Math.min(p.delayBaseMs * 2 ** Math.min(row.failures - slowAfter, 30), p.delayMaxMs);
    return Math.max(0, Number(row.last_failure_at) + delay - now);
  }

  /** Refuses before the code is looked at when this token or address must wait. */
  async check(tokenHash: string, address: string, now: number): Promise<void> {
    const rows = await this.repo.failures([tokenKey(tokenHash), addressKey(address)]);
    const wait = Math.max(0, ...rows.map((r) => this.waitFor(r, now)));
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      throw new AppError(ERRORS.LINK_TOO_MANY_ATTEMPTS, `${ERRORS.LINK_TOO_MANY_ATTEMPTS.message}（${seconds}秒后）`, { 'Retry-After': String(seconds) });
    }
  }

  async recordFailure(tokenHash: string, address: string, now: number): Promise<void> {
    const windowStart = now - this.policy.windowMs;
    const token = await this.repo.recordFailure(tokenKey(tokenHash), now, windowStart);
    await this.repo.recordFailure(addressKey(address), now, windowStart);
    if (token.failures >= this.policy.lockAfter) await this.repo.lock(tokenKey(tokenHash), now + this.policy.lockMs);
  }

  /** The right code forgets the token's failures (never the address's: an attacker's own link must not reset it). */
  async clear(tokenHash: string): Promise<void> {
    await this.repo.clearFailures(tokenKey(tokenHash));
  }

  deleteStale(now: number): Promise<number> {
    return this.repo.deleteStaleFailures(now - this.policy.windowMs, now);
  }
}
