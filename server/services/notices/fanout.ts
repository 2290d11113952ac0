import type { SystemNoticeEvent } from '../../../common/api/notices';
import type { FileMessagesTable, SystemNoticesTable, SystemNoticeTargetsTable } from '../../db/schema';
import type { FileMessageRepository } from '../../repositories/file-message-repository';
import type { SystemNoticeRepository } from '../../repositories/system-notice-repository';
import type { BusPayload, EventBus } from '../cluster/ports';
import type { NoticeDelivery } from './delivery';
import type { NoticeHub } from './notice-hub';

/** What the notice services tell connected readers (file-message-service, system-notice-service). */
export interface NoticeSender {
  fileMessages(rows: readonly FileMessagesTable[]): void;
  fileChanged(userId: string, tenantId: string): void;
  systemRead(userId: string, tenantId: string): void;
  systemChanged(notice: NoticeAudience, targets: readonly SystemNoticeTargetsTable[], change: SystemNoticeEvent['change']): Promise<void>;
}

/** The fields of a notice its event and its audience rule need. */
export type NoticeAudience = Pick<SystemNoticesTable, 'id' | 'tenant_id' | 'title' | 'important' | 'audience_all'>;

export const NOTICE_TOPICS = {
  files: 'notice.files',
  fileChanged: 'notice.fileChanged',
  systemRead: 'notice.systemRead',
  system: 'notice.system',
  scheduled: 'notice.scheduled',
} as const;

/** (message id, recipient id) pairs per event: ~50 bytes each, well inside a notification. */
const MESSAGES_PER_EVENT = 100;
/** Audience rows a notice's event carries at most; a larger audience is read from the database. */
const TARGETS_PER_EVENT = 200;
/** Messages one catch-up reads at most (a longer gap: lists and counts are refreshed all the same). */
const CATCH_UP_LIMIT = 2000;
/** How long a delivered message is remembered, so a catch-up does not send it twice. */
const REMEMBER_MS = 10 * 60 * 1000;

/**
 * The notice events across server processes (issue 36): a reader's stream may be open on any process,
 * so what happened is published on the event bus as ids, and every process delivers it to its own
 * connected readers (NoticeDelivery), reading the rows it needs by id. A process whose listener had a
 * gap catches up: the messages written meanwhile for its connected readers (those it has not sent
 * yet), then a refresh of every connected reader's lists and counts.
 */
export class NoticeFanout implements NoticeSender {
  /** `${id}@${created_at}` → when delivered (a re-batched message is new again). */
  private readonly delivered = new Map<string, number>();

  constructor(
    private readonly deps: {
      bus: EventBus;
      hub: NoticeHub;
      local: NoticeDelivery;
      files: FileMessageRepository;
      notices: SystemNoticeRepository;
      onError: (err: unknown) => void;
      /** A notice was scheduled in some process: every process's scheduler looks again. */
      onScheduled: () => void;
    },
  ) {}

  /** Subscribes this process; the returned function unsubscribes. */
  listen(): () => void {
    const { bus } = this.deps;
    const offs = [
      bus.subscribe(NOTICE_TOPICS.files, (p) => this.onFiles(p)),
      bus.subscribe(NOTICE_TOPICS.fileChanged, (p) => this.deps.local.fileChanged(String(p.u), String(p.t))),
      bus.subscribe(NOTICE_TOPICS.systemRead, (p) => this.deps.local.systemRead(String(p.u), String(p.t))),
      bus.subscribe(NOTICE_TOPICS.system, (p) => this.onSystem(p)),
      bus.subscribe(NOTICE_TOPICS.scheduled, () => this.deps.onScheduled()),
      bus.onGap((since) => this.catchUp(since)),
    ];
    return () => offs.forEach((off) => off());
  }

  private send(topic: string, payload: BusPayload): void {
    this.deps.bus.publish(topic, payload).catch(this.deps.onError);
  }

  fileMessages(rows: readonly FileMessagesTable[]): void {
    for (let i = 0; i < rows.length; i += MESSAGES_PER_EVENT) {
      this.send(NOTICE_TOPICS.files, { m: rows.slice(i, i + MESSAGES_PER_EVENT).map((r) => [r.id, r.user_id]) });
    }
  }

  fileChanged(userId: string, tenantId: string): void {
    this.send(NOTICE_TOPICS.fileChanged, { u: userId, t: tenantId });
  }

  systemRead(userId: string, tenantId: string): void {
    this.send(NOTICE_TOPICS.systemRead, { u: userId, t: tenantId });
  }

  async systemChanged(notice: NoticeAudience, targets: readonly SystemNoticeTargetsTable[], change: SystemNoticeEvent['change']): Promise<void> {
    const payload: BusPayload = { id: notice.id, t: notice.tenant_id, c: change, all: notice.audience_all, imp: notice.important };
    // The audience as it was when the change happened (a deleted notice's rows are gone by the time others read).
    if (notice.audience_all !== 1 && targets.length <= TARGETS_PER_EVENT) payload.to = targets.map((t) => `${t.kind === 'user' ? 'u' : 'd'}:${t.target_id}`);
    this.send(NOTICE_TOPICS.system, payload);
  }

  /** A notice was scheduled: every process's scheduler wakes for it. */
  scheduled(): void {
    this.send(NOTICE_TOPICS.scheduled, {});
  }

  private async onFiles(p: BusPayload): Promise<void> {
    const pairs = Array.isArray(p.m) ? (p.m as unknown[]).filter((x): x is [string, string] => Array.isArray(x) && x.length === 2) : [];
    const ids = pairs.filter(([, userId]) => this.deps.hub.isConnected(userId)).map(([id]) => id);
    if (ids.length === 0) return;
    this.deliver(await this.deps.files.byIds(ids));
  }

  private deliver(rows: readonly FileMessagesTable[]): void {
    const now = Date.now();
    for (const r of rows) {
      const key = `${r.id}@${r.created_at}`;
      this.delivered.delete(key); // to the end: the map stays in delivery order
      this.delivered.set(key, now);
    }
    this.forget(now);
    this.deps.local.fileMessages(rows);
  }

  private forget(now: number): void {
    for (const [key, at] of this.delivered) {
      if (now - at < REMEMBER_MS) break; // insertion order: the rest are younger
      this.delivered.delete(key);
    }
  }

  private async onSystem(p: BusPayload): Promise<void> {
    const id = String(p.id);
    const tenantId = String(p.t);
    const row = await this.deps.notices.find(tenantId, id);
    const notice: NoticeAudience = { id, tenant_id: tenantId, title: row?.title ?? '', important: Number(p.imp) === 1 ? 1 : 0, audience_all: Number(p.all) === 1 ? 1 : 0 };
    let targets: SystemNoticeTargetsTable[];
    if (Array.isArray(p.to)) {
      targets = (p.to as unknown[]).map(String).map((t) => ({ notice_id: id, kind: t.startsWith('u:') ? 'user' : 'dept', target_id: t.slice(2) }));
    } else if (notice.audience_all === 1) {
      targets = [];
    } else if (row) {
      targets = await this.deps.notices.targets([id]);
    } else {
      // Deleted, with an audience too large for the event: its readers among this tenant's are not known
      // any more. Every connected reader of the tenant refreshes (the event names nothing but the id).
      notice.audience_all = 1;
      targets = [];
    }
    await this.deps.local.systemChanged(notice, targets, p.c as SystemNoticeEvent['change']);
  }

  /** After a gap: the messages written meanwhile (not yet sent), then every connected reader refreshes. */
  async catchUp(since: number): Promise<void> {
    const readers = this.deps.hub.connectedIn(null);
    if (readers.length === 0) return;
    const rows = await this.deps.files.writtenSince(
      readers.map((r) => r.userId),
      since,
      CATCH_UP_LIMIT,
    );
    this.deliver(rows.filter((r) => !this.delivered.has(`${r.id}@${r.created_at}`)));
    for (const { userId } of readers) {
      this.deps.hub.send(userId, 'fileChanged', {});
      this.deps.hub.send(userId, 'system', { id: '', title: '', important: false, change: 'updated' } satisfies SystemNoticeEvent);
    }
    await this.deps.local.pushCounts(readers);
    this.deps.onScheduled();
  }
}
