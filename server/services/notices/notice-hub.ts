import { ERRORS } from '../../../common/api/errors';
import type { NoticeStreamEnded, UnreadCounts } from '../../../common/api/notices';

/** One open notice stream (GET /api/v2/notice/stream) of one session. */
export interface StreamConnection {
  userId: string;
  tenantId: string;
  /** The session's hashed id: the hub checks it is still valid and ends the stream when it is not. */
  sessionId: string;
  /** Writes one event; false when the connection is gone. */
  send(event: string, data: unknown): boolean;
  /** A comment line (keeps proxies from closing an idle stream). */
  ping(): void;
  close(): void;
}

export type SessionState = 'valid' | 'ended' | 'none';

export interface NoticeHubOptions {
  /** How often sessions behind open streams are checked (ms). */
  sessionCheckMs: number;
  pingMs: number;
  /** Most open streams per user (one per origin is normal; several browsers or devices add up). */
  perUser: number;
  /** States of many sessions at once (one query); missing ids count as 'none'. */
  sessionStates(sessionIds: readonly string[]): Promise<Map<string, SessionState>>;
  onError(err: unknown): void;
}

/**
 * The open notice streams of this server process, by user. Events are pushed to the users that are
 * connected; nobody else costs anything (a user who connects later gets the current counts on
 * connect). Only this process's streams: what happens in any process reaches every process's hub
 * through the event bus (fanout.ts).
 */
export class NoticeHub {
  private readonly byUser = new Map<string, Set<StreamConnection>>();
  private timers: ReturnType<typeof setInterval>[] = [];

  constructor(private readonly options: NoticeHubOptions) {}

  start(): void {
    if (this.timers.length > 0) return;
    const check = setInterval(() => void this.checkSessions().catch(this.options.onError), this.options.sessionCheckMs);
    const ping = setInterval(() => this.each((c) => c.ping()), this.options.pingMs);
    check.unref?.();
    ping.unref?.();
    this.timers = [check, ping];
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.each((c) => c.close());
    this.byUser.clear();
  }

  hasRoomFor(userId: string): boolean {
    return (this.byUser.get(userId)?.size ?? 0) < this.options.perUser;
  }

  /** Registers a connection; the returned function removes it (call it when the request closes). */
  add(conn: StreamConnection): () => void {
    let set = this.byUser.get(conn.userId);
    if (!set) this.byUser.set(conn.userId, (set = new Set()));
    set.add(conn);
    return () => this.remove(conn);
  }

  private remove(conn: StreamConnection): void {
    const set = this.byUser.get(conn.userId);
    if (!set) return;
    set.delete(conn);
    if (set.size === 0) this.byUser.delete(conn.userId);
  }

  isConnected(userId: string): boolean {
    return this.byUser.has(userId);
  }

  /** Connected users among these (the only ones worth computing anything for). */
  connected(userIds: Iterable<string>): string[] {
    const out = new Set<string>();
    for (const id of userIds) if (this.byUser.has(id)) out.add(id);
    return [...out];
  }

  /** Connected users of a tenant (every tenant for the platform's '' ), with their tenant. */
  connectedIn(tenantId: string | null): Array<{ userId: string; tenantId: string }> {
    const out: Array<{ userId: string; tenantId: string }> = [];
    for (const [userId, set] of this.byUser) {
      const first = set.values().next().value as StreamConnection | undefined;
      if (first && (tenantId === null || first.tenantId === tenantId)) out.push({ userId, tenantId: first.tenantId });
    }
    return out;
  }

  get size(): number {
    let n = 0;
    for (const set of this.byUser.values()) n += set.size;
    return n;
  }

  send(userId: string, event: string, data: unknown): void {
    for (const conn of this.byUser.get(userId) ?? []) {
      if (!conn.send(event, data)) this.remove(conn);
    }
  }

  sendCounts(userId: string, counts: UnreadCounts): void {
    this.send(userId, 'counts', counts);
  }

  private each(fn: (c: StreamConnection) => void): void {
    for (const set of [...this.byUser.values()]) for (const c of [...set]) fn(c);
  }

  /** Ends the streams whose session is over: they say why (spec §8: 400sec-core-301 stops notices). */
  async checkSessions(): Promise<void> {
    const conns: StreamConnection[] = [];
    this.each((c) => conns.push(c));
    if (conns.length === 0) return;
    const states = await this.options.sessionStates([...new Set(conns.map((c) => c.sessionId))]);
    for (const c of conns) {
      const state = states.get(c.sessionId) ?? 'none';
      if (state === 'valid') continue;
      const why = state === 'ended' ? ERRORS.SESSION_TERMINATED : ERRORS.UNAUTHORIZED;
      const ended: NoticeStreamEnded = { errorCode: why.code, errorMessage: why.message };
      c.send('ended', ended);
      c.close();
      this.remove(c);
    }
  }
}
