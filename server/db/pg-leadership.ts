/**
 * Leadership of the periodic jobs among server processes on one PostgreSQL (services/cluster/ports.ts):
 * the leader holds a session-level advisory lock on a connection of its own. PostgreSQL releases it
 * when that session ends, so
 * - a process that exits (also kill -9: the kernel closes its socket) frees it at once;
 * - a frozen or unreachable process frees it after `idle_session_timeout` (LEADER_SESSION_IDLE_MS);
 * and a waiting process tries for it every LEADER_RETRY_MS, so another takes over within that time
 * after the session ends. The leader checks its connection every LEADER_CHECK_MS and stops its work
 * when the check fails (it may no longer hold the lock).
 */
import pg from 'pg';
import { LeadRunner, pause } from '../services/cluster/lead-runner';
import type { LeaderWork, Leadership } from '../services/cluster/ports';

/** The advisory lock's key pair: (ours, 'periodic jobs'). Two-int keys never meet single-bigint ones. */
export const LEADER_LOCK: readonly [number, number] = [0x64726976, 1];
export const LEADER_RETRY_MS = 2000;
export const LEADER_CHECK_MS = 5000;
export const LEADER_SESSION_IDLE_MS = 15_000;
/** Longest a lock query may take before the connection counts as lost. */
const QUERY_TIMEOUT_MS = 5000;

export interface LeadershipLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface PgLeadershipOptions {
  retryMs?: number;
  checkMs?: number;
}

export class PgLeadership implements Leadership {
  private readonly runner: LeadRunner;
  private done: Promise<void> = Promise.resolve();
  private readonly retryMs: number;
  private readonly checkMs: number;

  constructor(
    private readonly url: string,
    private readonly log: LeadershipLog,
    options: PgLeadershipOptions = {},
  ) {
    this.runner = new LeadRunner((err, message) => log.error({ err }, message));
    this.retryMs = options.retryMs ?? LEADER_RETRY_MS;
    this.checkMs = options.checkMs ?? LEADER_CHECK_MS;
  }

  whileLeader(work: LeaderWork): void {
    this.runner.add(work);
  }

  get leading(): boolean {
    return this.runner.running;
  }

  start(signal: AbortSignal): void {
    this.done = this.compete(signal);
  }

  stopped(): Promise<void> {
    return this.done;
  }

  private async compete(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const client = new pg.Client({
        connectionString: this.url,
        application_name: `drive-leader:${process.pid}`,
        keepAlive: true,
        query_timeout: QUERY_TIMEOUT_MS,
        // A session that goes quiet (its process frozen, its machine gone) is ended by the server: the lock with it.
        options: `-c idle_session_timeout=${LEADER_SESSION_IDLE_MS}`,
      });
      // A lost connection also fails the next query, which is where it is handled.
      client.on('error', () => undefined);
      try {
        await client.connect();
        await this.holdOrWait(client, signal);
      } catch (err) {
        if (!signal.aborted) this.log.warn({ err }, 'leadership connection lost');
      } finally {
        // The work stops before the lock goes (the session's end releases it): never two leaders by our doing.
        if (this.runner.running) {
          await this.runner.end();
          this.log.info({ pid: process.pid }, 'no longer leading the periodic jobs');
        }
        await client.end().catch(() => undefined);
      }
      await pause(this.retryMs, signal);
    }
  }

  /** Tries for the lock until it holds it, then checks the connection while it leads; throws when the connection fails. */
  private async holdOrWait(client: pg.Client, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const got = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [...LEADER_LOCK]);
      if (got.rows[0]?.ok) break;
      await pause(this.retryMs, signal);
    }
    if (signal.aborted) return;
    this.log.info({ pid: process.pid }, 'leading the periodic jobs');
    this.runner.begin();
    while (!signal.aborted) {
      await pause(this.checkMs, signal);
      if (!signal.aborted) await client.query('select 1');
    }
  }
}
