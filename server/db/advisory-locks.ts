/**
 * Locks across the server processes of one PostgreSQL database (services/locks.ts says what for).
 *
 * Each process keeps ONE lock connection (not from the query pool) and takes a session-level advisory
 * lock on it per key held: `pg_try_advisory_lock(id)`, id = 64 bits of SHA-256 of the key. Session
 * locks belong to the connection, so when a process dies (kill -9, a lost machine) PostgreSQL ends its
 * session and every lock it held is free at once; no lease to expire, no sweeper. A lock costs no
 * connection while held (a chunk body may take minutes, and hundreds may be in flight), only two round
 * trips on the lock connection (take, give back).
 *
 * Advisory locks are re-entrant per session, and all of one process's tasks share the session, so a
 * key is first taken in memory (KeyedLock: one task of this process at a time), then in the database.
 * A try that fails never blocks the shared connection: the waiter says `want:<key>` on the channel
 * (LISTEN/NOTIFY), waits for the holder's `free:<key>` or WAIT_MS, and tries again. The holder hears
 * the want (LockOptions.onContended), and says free when it gives the key back. A notification lost
 * costs at most WAIT_MS; a holder that died is found by the next try.
 *
 * If the lock connection breaks, the locks it held are gone: every task holding one is told through
 * its LockHold.signal, and the next take opens a new connection.
 *
 * A process that stops without dying (frozen: SIGSTOP, a VM paused, a swap storm) keeps its connection
 * open, and its kernel keeps answering TCP keepalives, so PostgreSQL would keep its locks for as long as
 * it is frozen, and every upload it was touching would wait for it. So the lock connection is a lease:
 * PostgreSQL ends it once it has been idle for the lease (`idle_session_timeout`), and the process, while
 * it runs, never lets it idle that long (a `select 1` every third of the lease). A frozen process loses
 * its locks after the lease; thawed, it hears its connection was ended and its tasks are told (signal).
 * (What such a task may still do before it hears is fenced where it matters: the merge's commit.)
 *
 * The same connection holds LIVE_KEY shared for the process's life (join): a process starting while
 * others hold it skips the startup recovery of the shared data directory.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { KeyedLock } from '../services/keyed-lock';
import type { LockHold, LockOptions, Locks } from '../services/locks';

const CHANNEL = 'drive_locks';
/** Held shared by every live server process (exclusively by one recovering alone at startup): join(). */
const LIVE_KEY = 'server-processes-live';
/** Longest wait between two tries of a key another process holds (a lost notification costs this). */
const WAIT_MS = 200;
/** Heartbeats per lease: two may be late (an event loop busy for a while) before the lease ends. */
const BEATS_PER_LEASE = 3;

/** The advisory lock id of a key: 64 bits of its SHA-256, as a signed bigint in text. */
export function advisoryLockId(key: string): string {
  return createHash('sha256').update(key).digest().readBigInt64BE(0).toString();
}

interface Held {
  /** Another process asked for the key while we hold it: tell it when it is free. */
  wanted: boolean;
  onContended?: () => void;
  lost: AbortController;
  /** The lock connection it was taken on (a broken one already released it). */
  connection: pg.Client;
}

export interface AdvisoryLocksLog {
  warn(obj: object, msg: string): void;
}

export class AdvisoryLocks implements Locks {
  private readonly local = new KeyedLock();
  private readonly held = new Map<string, Held>();
  /** Tasks of this process waiting for a key another process holds: woken by its `free:`. */
  private readonly waiting = new Map<string, Set<() => void>>();
  private connection: Promise<pg.Client> | null = null;
  /** The lock connection once open (null while none is). */
  private current: pg.Client | null = null;
  private closed = false;
  /** This process counts as live (join): a new lock connection takes the live lock again. */
  private joined = false;
  /** Each open lock connection's heartbeat (the lease). */
  private readonly heartbeats = new Map<pg.Client, ReturnType<typeof setInterval>>();

  constructor(
    private readonly url: string,
    private readonly log: AdvisoryLocksLog,
    /** How long a process that stops answering keeps its locks (LOCK_LEASE_MS). */
    private readonly leaseMs: number,
  ) {}

  run<T>(key: string, task: (hold: LockHold) => Promise<T>, options: LockOptions = {}): Promise<T> {
    return this.local.run(
      key,
      async () => {
        const id = advisoryLockId(key);
        const connection = await this.take(key, id, options.signal);
        const held: Held = { wanted: false, lost: new AbortController(), connection, ...(options.onContended ? { onContended: options.onContended } : {}) };
        this.held.set(key, held);
        try {
          return await task({ signal: held.lost.signal, confirm: () => this.confirm(held) });
        } finally {
          this.held.delete(key);
          await this.giveBack(key, id, held);
        }
      },
      options.signal,
    );
  }

  async join<T>(whenAlone: () => Promise<T>): Promise<T | undefined> {
    const connection = await this.lockConnection();
    const id = advisoryLockId(LIVE_KEY);
    const { rows } = await connection.query<{ alone: boolean }>('select pg_try_advisory_lock($1::bigint) as alone', [id]);
    try {
      if (!rows[0]?.alone) return undefined;
      return await whenAlone();
    } finally {
      // Waits while a process recovering alone holds it exclusively; then holds it shared for life.
      await connection.query('select pg_advisory_lock_shared($1::bigint)', [id]);
      if (rows[0]?.alone) await connection.query('select pg_advisory_unlock($1::bigint)', [id]);
      this.joined = true;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const connection = await this.connection?.catch(() => null);
    this.connection = null;
    this.current = null;
    if (connection) this.stopHeartbeat(connection);
    await connection?.end().catch(() => undefined);
  }

  /** Rejects if `held` is lost: its connection answers (a connection PostgreSQL ended cannot). */
  private async confirm(held: Held): Promise<void> {
    held.lost.signal.throwIfAborted();
    try {
      await held.connection.query('select 1');
    } catch (err) {
      this.broken(held.connection);
      throw held.lost.signal.aborted ? held.lost.signal.reason : err;
    }
    held.lost.signal.throwIfAborted();
  }

  /** Takes the key in the database; answers the connection that holds it. */
  private async take(key: string, id: string, signal: AbortSignal | undefined): Promise<pg.Client> {
    for (;;) {
      signal?.throwIfAborted();
      const connection = await this.lockConnection();
      const { rows } = await connection.query<{ ok: boolean }>('select pg_try_advisory_lock($1::bigint) as ok', [id]);
      if (rows[0]?.ok) return connection;
      const freed = this.untilFreed(key, signal);
      await connection.query('select pg_notify($1, $2)', [CHANNEL, `want:${key}`]);
      await freed;
    }
  }

  /** Resolves on the key's `free:` notification, after WAIT_MS, or when `signal` aborts (the loop then throws). */
  private untilFreed(key: string, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve) => {
      let set = this.waiting.get(key);
      if (!set) this.waiting.set(key, (set = new Set()));
      const wake = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', wake);
        set.delete(wake);
        if (set.size === 0 && this.waiting.get(key) === set) this.waiting.delete(key);
        resolve();
      };
      const timer = setTimeout(wake, WAIT_MS);
      signal?.addEventListener('abort', wake, { once: true });
      set.add(wake);
    });
  }

  private async giveBack(key: string, id: string, held: Held): Promise<void> {
    // A broken connection took its locks with it.
    if (this.current !== held.connection) return;
    try {
      await held.connection.query('select pg_advisory_unlock($1::bigint)', [id]);
      if (held.wanted) await held.connection.query('select pg_notify($1, $2)', [CHANNEL, `free:${key}`]);
    } catch (err) {
      // The connection is failing: drop it, which frees in PostgreSQL whatever it still holds.
      this.log.warn({ err, key }, 'lock connection failed while giving a lock back; reconnecting');
      this.broken(held.connection);
    }
  }

  private lockConnection(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error('locks closed'));
    this.connection ??= this.connect().then(
      (client) => (this.current = client),
      (err: unknown) => {
        this.connection = null;
        throw err;
      },
    );
    return this.connection;
  }

  private async connect(): Promise<pg.Client> {
    // PostgreSQL ends the session once idle for the lease: the heartbeat keeps it busy while we run.
    const client = new pg.Client({ connectionString: this.url, application_name: 'drive-server-locks', options: `-c idle_session_timeout=${this.leaseMs}` });
    const heartbeat = setInterval(() => void client.query('select 1').catch(() => undefined), Math.max(1, Math.floor(this.leaseMs / BEATS_PER_LEASE)));
    heartbeat.unref();
    this.heartbeats.set(client, heartbeat);
    client.on('error', (err) => {
      this.log.warn({ err }, 'lock connection lost: the locks it held are released');
      this.broken(client);
    });
    client.on('end', () => this.broken(client));
    client.on('notification', (message) => {
      if (message.channel === CHANNEL && message.payload) this.heard(message.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      // The old connection's shared live lock went with it (a starting process might have found us gone meanwhile).
      if (this.joined) await client.query('select pg_advisory_lock_shared($1::bigint)', [advisoryLockId(LIVE_KEY)]);
    } catch (err) {
      this.stopHeartbeat(client);
      await client.end().catch(() => undefined);
      throw err;
    }
    return client;
  }

  private heard(payload: string): void {
    const colon = payload.indexOf(':');
    const kind = payload.slice(0, colon);
    const key = payload.slice(colon + 1);
    if (kind === 'want') {
      const held = this.held.get(key);
      if (!held) return;
      held.wanted = true;
      held.onContended?.();
    } else if (kind === 'free') {
      for (const wake of [...(this.waiting.get(key) ?? [])]) wake();
    }
  }

  private stopHeartbeat(client: pg.Client): void {
    clearInterval(this.heartbeats.get(client));
    this.heartbeats.delete(client);
  }

  /** `client` broke: whatever was taken on it is lost, and the next take connects again. */
  private broken(client: pg.Client): void {
    this.stopHeartbeat(client);
    if (this.current === client) {
      this.current = null;
      this.connection = null;
    }
    for (const held of this.held.values()) if (held.connection === client) held.lost.abort(new Error('lock connection lost'));
    client.end().catch(() => undefined);
  }
}
