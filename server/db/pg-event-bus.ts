/**
 * Events for every server process on one PostgreSQL (services/cluster/ports.ts) over LISTEN/NOTIFY:
 * each process keeps one connection that listens on EVENT_CHANNEL; `publish` is a `pg_notify` on any
 * pooled connection, which PostgreSQL hands to every listening session (this process's too) once it
 * commits. A notification carries `{t: topic, p: payload}` as JSON, ids only, well below NOTIFY's
 * 8000 bytes.
 *
 * PostgreSQL keeps no notification for a session that is not listening: when the listening connection
 * is lost, this process reconnects (after `reconnectMs`), listens again, and only then tells the
 * subscribers of the gap (`onGap(since)`, since = when it last knew its connection was fine, less
 * GAP_MARGIN_MS for clocks of other machines), so they catch up from the database: whatever was
 * published after that moment is either read then or arrives as a notification.
 */
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { pause } from '../services/cluster/lead-runner';
import type { BusHandler, BusPayload, EventBus } from '../services/cluster/ports';

export const EVENT_CHANNEL = 'drive_events';
/** Most bytes a notification may carry (PostgreSQL's limit is 8000 by default). */
export const MAX_EVENT_BYTES = 7500;
const CHECK_MS = 5000;
const QUERY_TIMEOUT_MS = 5000;
const GAP_MARGIN_MS = 2000;

export interface EventBusLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface PgEventBusOptions {
  /** Wait before reconnecting a lost listening connection (ms). */
  reconnectMs?: number;
  checkMs?: number;
}

/** Sends one notification (the server's pool: `select pg_notify($1, $2)`). */
export type Notify = (channel: string, text: string) => Promise<void>;

export class PgEventBus implements EventBus {
  private readonly handlers = new Map<string, Set<BusHandler>>();
  private readonly gapHandlers = new Set<(since: number) => void | Promise<void>>();
  private readonly reconnectMs: number;
  private readonly checkMs: number;
  private listening: Promise<void> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly notify: Notify,
    private readonly log: EventBusLog,
    options: PgEventBusOptions = {},
  ) {
    this.reconnectMs = options.reconnectMs ?? 250;
    this.checkMs = options.checkMs ?? CHECK_MS;
  }

  async publish(topic: string, payload: BusPayload): Promise<void> {
    const text = JSON.stringify({ t: topic, p: payload });
    if (Buffer.byteLength(text) > MAX_EVENT_BYTES) throw new Error(`event '${topic}' of ${Buffer.byteLength(text)} bytes is over ${MAX_EVENT_BYTES}: send fewer ids per event`);
    await this.notify(EVENT_CHANNEL, text);
  }

  subscribe(topic: string, handler: BusHandler): () => void {
    let set = this.handlers.get(topic);
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  onGap(handler: (since: number) => void | Promise<void>): () => void {
    this.gapHandlers.add(handler);
    return () => this.gapHandlers.delete(handler);
  }

  /** Resolves once the first connection listens (throws if it cannot: the server does not start half-connected). */
  async start(signal: AbortSignal): Promise<void> {
    const first = await this.connect();
    this.listening = this.keepListening(first, signal);
  }

  /** Resolves when the listening loop has ended (after the start signal aborted). */
  stopped(): Promise<void> {
    return this.listening;
  }

  private async connect(): Promise<{ client: pg.Client; lost: Promise<unknown> }> {
    const client = new pg.Client({ connectionString: this.url, application_name: `drive-listener:${process.pid}`, keepAlive: true, query_timeout: QUERY_TIMEOUT_MS });
    const lost = new Promise((resolve) => {
      client.on('error', resolve);
      client.on('end', () => resolve(new Error('listening connection ended')));
    });
    client.on('notification', (msg) => this.dispatch(msg.payload));
    try {
      await client.connect();
      await client.query(`listen ${EVENT_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    return { client, lost };
  }

  private async keepListening(first: { client: pg.Client; lost: Promise<unknown> }, signal: AbortSignal): Promise<void> {
    let conn: { client: pg.Client; lost: Promise<unknown> } | null = first;
    let fineAt = Date.now();
    while (!signal.aborted) {
      if (!conn) {
        await pause(this.reconnectMs, signal);
        if (signal.aborted) break;
        try {
          conn = await this.connect();
        } catch (err) {
          this.log.warn({ err }, 'event listener: reconnect failed');
          continue;
        }
        this.log.info({ since: fineAt }, 'event listener reconnected: catching up');
        await this.gap(fineAt - GAP_MARGIN_MS);
      }
      const { client, lost } = conn;
      try {
        fineAt = await this.watch(client, lost, signal, (at) => (fineAt = at));
      } catch (err) {
        if (!signal.aborted) this.log.warn({ err }, 'event listener: connection lost');
        await client.end().catch(() => undefined);
        conn = null;
      }
    }
    await conn?.client.end().catch(() => undefined);
  }

  /** Checks the connection every checkMs until the signal aborts; throws when it is lost. */
  private async watch(client: pg.Client, lost: Promise<unknown>, signal: AbortSignal, fine: (at: number) => void): Promise<number> {
    const failed = lost.then((err) => Promise.reject(err instanceof Error ? err : new Error(String(err))));
    let at = Date.now();
    while (!signal.aborted) {
      await Promise.race([pause(this.checkMs, signal), failed]);
      if (signal.aborted) break;
      const asked = Date.now();
      await Promise.race([client.query('select 1'), failed]);
      at = asked;
      fine(at);
    }
    failed.catch(() => undefined);
    return at;
  }

  private async gap(since: number): Promise<void> {
    for (const handler of this.gapHandlers) {
      try {
        await handler(since);
      } catch (err) {
        this.log.error({ err }, 'event catch-up failed');
      }
    }
  }

  private dispatch(text: string | undefined): void {
    let event: { t?: unknown; p?: unknown };
    try {
      event = JSON.parse(text ?? '') as { t?: unknown; p?: unknown };
    } catch {
      return;
    }
    if (typeof event.t !== 'string' || typeof event.p !== 'object' || event.p === null) return;
    for (const handler of this.handlers.get(event.t) ?? []) {
      try {
        void Promise.resolve(handler(event.p as BusPayload)).catch((err: unknown) => this.log.error({ err, topic: event.t }, 'event handler failed'));
      } catch (err) {
        this.log.error({ err, topic: event.t }, 'event handler failed');
      }
    }
  }
}

/** `pg_notify` on a pooled connection of the server's database. */
export function notifyThrough(db: Kysely<unknown>): Notify {
  return async (channel, text) => {
    await sql`select pg_notify(${channel}, ${text})`.execute(db);
  };
}
