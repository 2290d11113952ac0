import { ERRORS } from '../../common/api/errors';
import { AppError } from '../http/app-error';
import type { LoginFailureRepository } from '../repositories/login-failure-repository';
import type { AccountPolicy } from './account-policy';
import type { LoginFailuresTable } from '../db/schema';
import { LOCK_KEYS, type Locks } from './locks';

/** Account names are counted case-insensitively and whether or not the account exists (no enumeration). */
export function accountKey(name: string): string {
  return `acct:${name.trim().toLowerCase()}`;
}

export function addressKey(address: string): string {
  return `addr:${address}`;
}

/**
 * WebDAV sign-ins (device passwords, server/dav/dav-auth.ts) count their failures apart from the web
 * login's: a backup script still using a revoked device password must not slow or lock its owner's web
 * login (nor the web login of a whole office behind one address). Same waits, no lock: a device
 * password has 200 bits and cannot be guessed, the waits only keep a misbehaving client quiet.
 */
export function davAccountKey(name: string): string {
  return `dav:${accountKey(name)}`;
}

export function davAddressKey(address: string): string {
  return `dav:${addressKey(address)}`;
}

/**
 * Per-account-name and per-address failure counting: progressive waits after `loginSlowAfter`
 * failures, and an account-name lock after `loginLockAfter` (rules: LoginForm in common/api/endpoints/auth.ts).
 */
export class LoginThrottle {
  constructor(
    private readonly repo: LoginFailureRepository,
    private readonly policy: AccountPolicy,
    /** The server's locks (services/locks.ts): attempts are serialised in whichever process they land. */
    private readonly locks: Locks,
  ) {}

  /** The wait still owed by one counter, in ms (0 = may try now). */
  private waitFor(row: LoginFailuresTable, now: number): number {
    const p = this.policy;
    if (row.last_failure_at < now - p.loginFailureWindowMs) return 0;
    const isAddress = row.key.startsWith('addr:') || row.key.startsWith('dav:addr:');
    const slowAfter = isAddress ? p.loginAddressSlowAfter : p.loginSlowAfter;
    if (row.failures < slowAfter) return 0;
    const delay = Math.min(p.loginDelayBaseMs * 2 ** Math.min(row.failures - slowAfter, 30), p.loginDelayMaxMs);
    return Math.max(0, row.last_failure_at + delay - now);
  }

  /**
   * Runs one password check of an account name at a time, across every server process, so attempts
   * fired in parallel cannot all pass `check` before the first failure is counted.
   */
  serialize<T>(name: string, task: () => Promise<T>): Promise<T> {
    return this.locks.run(LOCK_KEYS.login(accountKey(name)), () => task());
  }

  /** Refuses before any password work: a name locked by failures, or an attempt that came too soon. */
  async check(name: string, address: string, now: number): Promise<void> {
    const rows = await this.repo.find([accountKey(name), addressKey(address)]);
    if (rows.some((r) => r.key === accountKey(name) && r.locked === 1)) throw new AppError(ERRORS.ACCOUNT_LOCKED);
    const wait = Math.max(0, ...rows.map((r) => this.waitFor(r, now)));
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      throw new AppError(ERRORS.TOO_MANY_ATTEMPTS, `${ERRORS.TOO_MANY_ATTEMPTS.message}（${seconds}秒后）`, {
        'Retry-After': String(seconds),
      });
    }
  }

  /**
   * Before a WebDAV sign-in: an account name locked by the web login's failures is refused (as a
   * login is), and a wait owed by WebDAV failures of the name or the address (davAccountKey). One
   * statement: it runs on every WebDAV request.
   */
  async checkDav(name: string, address: string, now: number): Promise<{ locked: true } | { locked: false; waitSeconds: number; nameFailures: boolean }> {
    const rows = await this.repo.find([accountKey(name), davAccountKey(name), davAddressKey(address)]);
    if (rows.some((r) => r.key === accountKey(name) && r.locked === 1)) return { locked: true };
    const wait = Math.max(0, ...rows.filter((r) => r.key.startsWith('dav:')).map((r) => this.waitFor(r, now)));
    return { locked: false, waitSeconds: Math.ceil(wait / 1000), nameFailures: rows.some((r) => r.key === davAccountKey(name)) };
  }

  /** A right device password forgets the name's WebDAV failures (as a login does the name's). */
  async clearDavAccount(name: string): Promise<void> {
    await this.repo.clear(davAccountKey(name));
  }

  /** Counts a failed WebDAV sign-in for the name and the address (never locks: davAccountKey). */
  async recordDavFailure(name: string, address: string, now: number): Promise<void> {
    const windowStart = now - this.policy.loginFailureWindowMs;
    await this.repo.recordFailure(davAccountKey(name), now, windowStart);
    await this.repo.recordFailure(davAddressKey(address), now, windowStart);
  }

  /** Counts a failed password for the name and the address; locks the name at the threshold. */
  async recordFailure(name: string, address: string, now: number): Promise<void> {
    const windowStart = now - this.policy.loginFailureWindowMs;
    const account = await this.repo.recordFailure(accountKey(name), now, windowStart);
    await this.repo.recordFailure(addressKey(address), now, windowStart);
    const lockAfter = this.policy.loginLockAfter;
    if (lockAfter > 0 && account.failures >= lockAfter && account.locked === 0) await this.repo.lock(accountKey(name));
  }

  /** A successful login forgets the name's failures (never the address's: see LoginForm). */
  async clearAccount(name: string): Promise<void> {
    await this.repo.clear(accountKey(name));
  }

  async isLocked(name: string): Promise<boolean> {
    const [row] = await this.repo.find([accountKey(name)]);
    return row?.locked === 1;
  }

  /** Which of these account names are locked by failures. */
  async lockedAmong(names: string[]): Promise<Set<string>> {
    const rows = await this.repo.find(names.map(accountKey));
    const locked = new Set(rows.filter((r) => r.locked === 1).map((r) => r.key));
    return new Set(names.filter((n) => locked.has(accountKey(n))));
  }

  deleteStale(now: number): Promise<number> {
    return this.repo.deleteStale(now - this.policy.loginFailureWindowMs);
  }
}
