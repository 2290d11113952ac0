/**
 * What a reader does to their notices: mark read (also offline: applied to the cached lists and
 * counts at once, kept in the outbox and replayed — the server ignores ids it has no unread row
 * for, so a replay is harmless), mark all read, delete (online only). Every change is also told to
 * the other tabs at once (the stream's channel); the server's answer then sets the exact counts.
 */
import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { NOTICES } from '../../../common/api/endpoints/notices';
import type { FileMessageChange, SystemUnreadCount } from '../../../common/api/notices';
import { api } from '../api';
import { ApiCallError } from '../api-client';
import { queryClient } from '../data/query-client';
import { enqueueOutbox, registerOutboxExecutor } from '../outbox/outbox';
import { editFileLists, editSystemLists, NOTICE_KEYS, setCounts } from './notice-data';

export const NOTICE_OUTBOX_KINDS = { fileRead: 'notice.fileRead', systemRead: 'notice.systemRead' } as const;

/** A change made in this tab, for the other tabs (relayed by the notice stream's channel). */
export type LocalNoticeChange = { kind: 'fileRead'; ids: string[] } | { kind: 'systemRead'; ids: string[] } | { kind: 'fileDeleted'; ids: string[] };

let tellOtherTabs: (change: LocalNoticeChange) => void = () => undefined;

/** NoticeStreamer connects this to the stream's broadcast. */
export function setLocalBroadcast(fn: (change: LocalNoticeChange) => void): void {
  tellOtherTabs = fn;
}

/** Marks cached file messages read; returns how many of them were unread. */
function readInCache(client: QueryClient, ids: readonly string[]): number {
  const wanted = new Set(ids);
  const wasUnread = new Set<string>();
  editFileLists(client, (page) => ({
    ...page,
    items: page.items.map((m) => {
      if (!wanted.has(m.id) || m.read) return m;
      wasUnread.add(m.id);
      return { ...m, read: true };
    }),
  }));
  return wasUnread.size;
}

function systemReadInCache(client: QueryClient, ids: readonly string[]): number {
  const wanted = new Set(ids);
  const wasUnread = new Set<string>();
  editSystemLists(client, (page) => ({
    ...page,
    items: page.items.map((n) => {
      if (!wanted.has(n.id) || n.read) return n;
      wasUnread.add(n.id);
      return { ...n, read: true };
    }),
  }));
  return wasUnread.size;
}

function dropFromCache(client: QueryClient, ids: readonly string[]): void {
  const gone = new Set(ids);
  editFileLists(client, (page) => ({ ...page, items: page.items.filter((m) => !gone.has(m.id)) }));
}

/** Another tab made a change: show it here too (the server's counts follow on the stream). */
export function applyLocalChange(change: LocalNoticeChange, client: QueryClient = queryClient): void {
  if (change.kind === 'fileRead') {
    const n = readInCache(client, change.ids);
    if (n > 0) setCounts(client, (c) => ({ ...c, file: Math.max(0, c.file - n) }));
  } else if (change.kind === 'systemRead') {
    const n = systemReadInCache(client, change.ids);
    if (n > 0) setCounts(client, (c) => ({ ...c, system: Math.max(0, c.system - n) }));
  } else {
    dropFromCache(client, change.ids);
  }
}

/** No answer at all (offline, server unreachable): the change waits in the outbox. */
const noAnswer = (e: unknown): boolean => !(e instanceof ApiCallError);

export async function markFileMessagesRead(ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const change: LocalNoticeChange = { kind: 'fileRead', ids: [...ids] };
  applyLocalChange(change);
  tellOtherTabs(change);
  const queue = () => enqueueOutbox(NOTICE_OUTBOX_KINDS.fileRead, { ids: [...ids] }, ids.length === 1 ? '标记 1 条文件消息已读' : `标记 ${ids.length} 条文件消息已读`);
  if (!onlineManager.isOnline()) return queue();
  try {
    const answer = await api.call(NOTICES.fileMsgMarkRead, { ids: [...ids] });
    setCounts(queryClient, (c) => ({ ...c, file: answer.unread }));
  } catch (e) {
    if (noAnswer(e)) return queue();
    throw e;
  }
}

/** Every unread file message: online on the server; offline, the ones this device has cached. */
export async function markAllFileMessagesRead(): Promise<void> {
  if (!onlineManager.isOnline()) {
    const unread = new Set<string>();
    for (const q of queryClient.getQueryCache().findAll({ queryKey: NOTICE_KEYS.files })) {
      const data = q.state.data as { pages?: Array<{ items: Array<{ id: string; read: boolean }> }> } | undefined;
      for (const page of data?.pages ?? []) for (const m of page.items) if (!m.read) unread.add(m.id);
    }
    return markFileMessagesRead([...unread]);
  }
  const answer = await api.call(NOTICES.fileMsgMarkAllRead, {});
  editFileLists(queryClient, (page) => ({ ...page, items: page.items.map((m) => (m.read ? m : { ...m, read: true })) }));
  setCounts(queryClient, (c) => ({ ...c, file: answer.unread }));
}

export async function deleteFileMessages(ids: readonly string[]): Promise<void> {
  const answer = await api.call(NOTICES.fileMsgDelete, { ids: [...ids] });
  const change: LocalNoticeChange = { kind: 'fileDeleted', ids: [...ids] };
  applyLocalChange(change);
  tellOtherTabs(change);
  setCounts(queryClient, (c) => ({ ...c, file: answer.unread }));
}

function systemCounts(answer: SystemUnreadCount): void {
  setCounts(queryClient, (c) => ({ ...c, system: answer.count, systemParts: { tenantNotices: answer.tenantNotices, platformNotices: answer.platformNotices } }));
}

export async function markSystemNoticesRead(ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const change: LocalNoticeChange = { kind: 'systemRead', ids: [...ids] };
  applyLocalChange(change);
  tellOtherTabs(change);
  const queue = () => enqueueOutbox(NOTICE_OUTBOX_KINDS.systemRead, { ids: [...ids] }, ids.length === 1 ? '标记 1 条系统消息已读' : `标记 ${ids.length} 条系统消息已读`);
  if (!onlineManager.isOnline()) return queue();
  try {
    systemCounts(await api.call(NOTICES.sysMsgMarkRead, { ids: [...ids] }));
  } catch (e) {
    if (noAnswer(e)) return queue();
    throw e;
  }
}

export async function markAllSystemNoticesRead(): Promise<void> {
  systemCounts(await api.call(NOTICES.sysMsgMarkAllRead));
  editSystemLists(queryClient, (page) => ({ ...page, items: page.items.map((n) => (n.read ? n : { ...n, read: true })) }));
}

/** The outbox rows of read marks: sent quietly; the server never refuses ids it does not know. */
export function registerNoticeOutboxExecutors(): void {
  const refusal = (e: unknown) => (e instanceof ApiCallError && e.failure.kind === 'badRequest' ? { state: 'failed' as const, reason: e.message || '服务器拒绝了此操作' } : null);
  registerOutboxExecutor<{ ids: string[] }, FileMessageChange>(NOTICE_OUTBOX_KINDS.fileRead, {
    send: (p, _opId, signal) => api.call(NOTICES.fileMsgMarkRead, { ids: p.ids }, { signal, onError: () => undefined }),
    refusal,
    sent: (_p, answer) => setCounts(queryClient, (c) => ({ ...c, file: answer.unread })),
  });
  registerOutboxExecutor<{ ids: string[] }, SystemUnreadCount>(NOTICE_OUTBOX_KINDS.systemRead, {
    send: (p, _opId, signal) => api.call(NOTICES.sysMsgMarkRead, { ids: p.ids }, { signal, onError: () => undefined }),
    refusal,
    sent: (_p, answer) => systemCounts(answer),
  });
}
