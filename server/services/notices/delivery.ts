import type { FileMessageEvent, FileMessageType, SystemNoticeEvent, SystemUnreadCount, UnreadCounts } from '../../../common/api/notices';
import type { FileMessagesTable, SystemNoticesTable, SystemNoticeTargetsTable } from '../../db/schema';
import type { FileMessageRepository } from '../../repositories/file-message-repository';
import { PLATFORM_NOTICE_TENANT, type ReaderScope, type SystemNoticeRepository } from '../../repositories/system-notice-repository';
import type { NoticeAudience } from './fanout';
import type { NoticeHub } from './notice-hub';

/** Both unread counts of a reader (see UnreadCounts in common/api/notices.ts for what they are). */
export class UnreadCounter {
  constructor(
    private readonly files: FileMessageRepository,
    private readonly notices: SystemNoticeRepository,
  ) {}

  async scope(tenantId: string, userId: string): Promise<ReaderScope> {
    return { tenantId, userId, departmentIds: await this.notices.departmentChain(tenantId, userId) };
  }

  async system(scope: ReaderScope, now = Date.now()): Promise<SystemUnreadCount> {
    const parts = await this.notices.unreadCounts(scope, now);
    return { count: parts.tenantNotices + parts.platformNotices, ...parts };
  }

  async file(userId: string): Promise<number> {
    return this.files.unreadCount(userId);
  }

  async all(tenantId: string, userId: string, now = Date.now()): Promise<UnreadCounts> {
    const [file, system] = await Promise.all([this.file(userId), this.scope(tenantId, userId).then((s) => this.system(s, now))]);
    return { file, system: system.count, systemParts: { tenantNotices: system.tenantNotices, platformNotices: system.platformNotices } };
  }
}

/** Whether a notice's audience takes in a reader (the same rule as the repository's SQL). */
export function audienceTakesIn(notice: Pick<SystemNoticesTable, 'tenant_id' | 'audience_all'>, targets: readonly SystemNoticeTargetsTable[], scope: ReaderScope): boolean {
  if (notice.tenant_id !== PLATFORM_NOTICE_TENANT && notice.tenant_id !== scope.tenantId) return false;
  if (notice.audience_all === 1) return true;
  const depts = new Set(scope.departmentIds);
  return targets.some((t) => (t.kind === 'user' ? t.target_id === scope.userId : depts.has(t.target_id)));
}

/** Users handled per turn of the event loop when many are connected (a notice to a whole tenant). */
const SLICE = 200;
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The current names of the entries a user may see now, by id (the message list's rule: file-reach.ts);
 * entries they may not see are left out.
 */
export type VisibleNames = (tenantId: string, userIds: readonly string[], fileIds: readonly string[]) => Promise<Map<string, Map<string, string>>>;

/**
 * Pushes what changed to the connected users (NoticeHub) with their new counts. Users who are not
 * connected cost nothing: they read their counts when they connect or poll.
 */
export class NoticeDelivery {
  constructor(
    private readonly hub: NoticeHub,
    private readonly counter: UnreadCounter,
    private readonly onError: (err: unknown) => void,
    private readonly visibleNames: VisibleNames = async () => new Map(),
  ) {}

  /**
   * New (or re-batched) file messages: each recipient hears of its own, then gets its counts. The event
   * names the entry to a recipient who may see it now, exactly as the message list would (issue 35:
   * share.received reached its recipient with no name); to anyone else it names only the kind.
   */
  fileMessages(rows: readonly FileMessagesTable[]): void {
    const connected = new Set(this.hub.connected(rows.map((r) => r.user_id)));
    if (connected.size === 0) return;
    void this.sendFileEvents(rows.filter((r) => connected.has(r.user_id)));
  }

  private async sendFileEvents(rows: readonly FileMessagesTable[]): Promise<void> {
    const names = await this.namesFor(rows);
    const tenants = new Map<string, string>();
    for (const r of rows) {
      tenants.set(r.user_id, r.tenant_id);
      // As the list: an entry by its current name if the reader may see it; an upload that never became
      // an entry (held as sensitive) by the reader's own name for it.
      // An application's entries by the name it gave them (its approvers may not reach them otherwise).
      const visible = r.file_id ? (names.get(r.tenant_id)?.get(r.user_id)?.get(r.file_id) ?? null) : null;
      const fileName = r.file_id ? (visible ?? (r.type.startsWith('apply.') ? r.file_name || null : null)) : r.file_name || null;
      const event: FileMessageEvent = { id: r.id, type: r.type as FileMessageType, actorName: r.actor_name || null, fileName, itemCount: r.item_count };
      this.hub.send(r.user_id, 'file', event);
    }
    await this.pushCounts([...tenants].map(([userId, tenantId]) => ({ userId, tenantId })));
  }

  /** tenant → user → file id → name; a lookup that fails sends the events without names (logged). */
  private async namesFor(rows: readonly FileMessagesTable[]): Promise<Map<string, Map<string, Map<string, string>>>> {
    const out = new Map<string, Map<string, Map<string, string>>>();
    const byTenant = new Map<string, { users: Set<string>; files: Set<string> }>();
    for (const r of rows) {
      if (!r.file_id) continue;
      const t = byTenant.get(r.tenant_id) ?? { users: new Set<string>(), files: new Set<string>() };
      t.users.add(r.user_id);
      t.files.add(r.file_id);
      byTenant.set(r.tenant_id, t);
    }
    try {
      for (const [tenantId, t] of byTenant) out.set(tenantId, await this.visibleNames(tenantId, [...t.users], [...t.files]));
    } catch (err) {
      this.onError(err);
    }
    return out;
  }

  /** The user's messages were read or deleted (maybe in another tab or device): lists and badges follow. */
  fileChanged(userId: string, tenantId: string): void {
    if (!this.hub.isConnected(userId)) return;
    this.hub.send(userId, 'fileChanged', {});
    void this.pushCounts([{ userId, tenantId }]);
  }

  /** The user's system notices changed for them alone (read, popped up). */
  systemRead(userId: string, tenantId: string): void {
    if (!this.hub.isConnected(userId)) return;
    this.hub.send(userId, 'system', { id: '', title: '', important: false, change: 'updated' } satisfies SystemNoticeEvent);
    void this.pushCounts([{ userId, tenantId }]);
  }

  /** A notice came out, changed or was withdrawn: every connected reader it is addressed to hears of it. */
  async systemChanged(notice: NoticeAudience, targets: readonly SystemNoticeTargetsTable[], change: SystemNoticeEvent['change']): Promise<void> {
    try {
      const candidates = this.hub.connectedIn(notice.tenant_id === PLATFORM_NOTICE_TENANT ? null : notice.tenant_id);
      const event: SystemNoticeEvent = { id: notice.id, title: notice.title, important: notice.important === 1, change };
      for (let i = 0; i < candidates.length; i += SLICE) {
        for (const { userId, tenantId } of candidates.slice(i, i + SLICE)) {
          const scope = notice.audience_all === 1 ? { tenantId, userId, departmentIds: [] } : await this.counter.scope(tenantId, userId);
          if (!audienceTakesIn(notice, targets, scope)) continue;
          this.hub.send(userId, 'system', event);
          this.hub.sendCounts(userId, await this.counter.all(tenantId, userId));
        }
        await yieldTurn();
      }
    } catch (err) {
      this.onError(err);
    }
  }

  async pushCounts(users: ReadonlyArray<{ userId: string; tenantId: string }>): Promise<void> {
    try {
      for (let i = 0; i < users.length; i += SLICE) {
        for (const { userId, tenantId } of users.slice(i, i + SLICE)) {
          if (this.hub.isConnected(userId)) this.hub.sendCounts(userId, await this.counter.all(tenantId, userId));
        }
        if (i + SLICE < users.length) await yieldTurn();
      }
    } catch (err) {
      this.onError(err);
    }
  }
}
