/**
 * One task at a time per key, for every server process that shares the database: the composition
 * root (server/compose/locks.ts) picks the kind. SQLite is one process: ProcessLocks, in memory.
 * PostgreSQL may have N processes: db/advisory-locks.ts, a PostgreSQL advisory lock per key held by the
 * process's lock connection, so a process that dies releases its locks with its connection.
 *
 * Keys name what they protect, with a prefix per kind (LOCK_KEYS), so kinds never meet.
 */
import { KeyedLock } from './keyed-lock';

/** What a task holding a lock is told. */
export interface LockHold {
  /**
   * Aborted when the lock is lost before the task ends (PostgreSQL: the lock connection broke, so
   * another process may take the key now). Work still to do under the lock should stop.
   */
  readonly signal: AbortSignal;
  /**
   * Rejects if the lock is lost, asking the lock's holder (PostgreSQL: one round trip on the lock
   * connection). The signal tells only what this process has heard: a process thawed after a freeze
   * runs on before it hears that its lease ended. Asked before a step another process must not see
   * done twice (a merge's commit).
   */
  confirm(): Promise<void>;
}

export interface LockOptions {
  /** Stops waiting for the lock: the run rejects with the signal's reason and the task never runs. */
  signal?: AbortSignal;
  /**
   * While the task holds the key, a task of ANOTHER process waits for it: called when that is known
   * and again every fraction of a second while it waits (the chunk writers cut a quiet holder then).
   * Waiters in this process are the caller's own to see (ProcessLocks never calls it).
   */
  onContended?: () => void;
}

export interface Locks {
  run<T>(key: string, task: (hold: LockHold) => Promise<T>, options?: LockOptions): Promise<T>;
  /**
   * Counts this process among those serving the database from now on, after running `whenAlone` if no
   * other server process is live: startup recovery of the shared data directory, which would undo what
   * live processes are in the middle of (their partial chunks, merges, temp files). Processes starting
   * meanwhile wait until it is done. Answers what `whenAlone` answered, or undefined when it did not run.
   */
  join<T>(whenAlone: () => Promise<T>): Promise<T | undefined>;
  /** Ends the lock connection, if any (app close). */
  close(): Promise<void>;
}

/** The keys of every lock the server takes, by what they protect. */
export const LOCK_KEYS = {
  /** The rename + record of a chunk, the merge and the removal of one upload. */
  upload: (uploadId: string) => `upload:${uploadId}`,
  /** The writer of one chunk's partial file (services/chunk-writers.ts). */
  chunk: (uploadId: string, index: number) => `chunk:${uploadId}/${index}`,
  /** The password checks of one account name (services/login-throttle.ts). */
  login: (accountKey: string) => `login:${accountKey}`,
  /** The code checks of one share-link token (sharing/link-throttle.ts). */
  linkCode: (tokenHash: string) => `link:${tokenHash}`,
  /** The SMS rate decisions of one phone, then of one client address (sms-code-service.ts). */
  smsPhone: (phone: string) => `sms-phone:${phone}`,
  smsAddress: (address: string) => `sms-addr:${address}`,
  /** WebDAV LOCK decisions of one tenant (server/dav/locks/dav-locks.ts). */
  davLock: (tenantId: string) => `dav-lock:${tenantId}`,
} as const;

const NEVER_ABORTED = new AbortController().signal;

/** One process (SQLite): keys kept apart in memory; a lock is never lost. */
export class ProcessLocks implements Locks {
  private readonly keyed = new KeyedLock();

  run<T>(key: string, task: (hold: LockHold) => Promise<T>, options: LockOptions = {}): Promise<T> {
    return this.keyed.run(key, () => task({ signal: NEVER_ABORTED, confirm: async () => {} }), options.signal);
  }

  /** SQLite: one process, always alone. */
  join<T>(whenAlone: () => Promise<T>): Promise<T | undefined> {
    return whenAlone();
  }

  async close(): Promise<void> {}
}
