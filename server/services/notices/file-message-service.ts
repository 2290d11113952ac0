import { ERRORS } from '../../../common/api/errors';
import {
  FILE_MESSAGE_CATEGORIES,
  FILE_MESSAGE_DEFAULT_PAGE_SIZE,
  FILE_MESSAGE_RETENTION_DAYS,
  FILE_MESSAGE_MAX_PAGE_SIZE,
  QUOTA_WARN_PERCENT,
  isFileMessageType,
  type FileMessage,
  type FileMessageChange,
  type FileMessageDetail,
  type FileMessagePage,
  type FileMessageTarget,
  type FileMessageType,
} from '../../../common/api/notices';
import type { FileMessageListForm } from '../../../common/api/endpoints/notices';
import type { FileMessagesTable } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { newId } from '../../ids';
import type { FileMessageRepository, MessageFilter, MessageKey, NewFileMessage } from '../../repositories/file-message-repository';
import type { NoticeFileRepository } from '../../repositories/notice-file-repository';
import type { Caller } from '../caller';
import type { NoticeSender } from './fanout';
import type { FileReach, ReachedFile } from './file-reach';
import type { FileMessageInput, LinkDownloadInput, NoticeEvents } from './ports';

/** A search scans at most this many rows for one page (rows whose hidden file matched are skipped). */
const SEARCH_SCAN_MAX = 2000;
const HOUR_MS = 3_600_000;

function encodeCursor(key: MessageKey): string {
  return Buffer.from(`${key.at}.${key.id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string | undefined): MessageKey | null {
  if (!cursor) return null;
  const bad = () => new AppError(ERRORS.VALIDATION, '分页标记不正确');
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw bad();
  const m = /^(\d{1,16})\.([A-Za-z0-9_-]{1,64})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw bad();
  return { at: Number(m[1]), id: m[2]! };
}

function timeField(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new AppError(ERRORS.VALIDATION, `${name} 时间不正确`);
  return n;
}

/** The form of list/search as a repository filter (every form field is a string). */
export function filterOf(form: FileMessageListForm): MessageFilter {
  const filter: MessageFilter = {};
  if (form.read === '0') filter.read = false;
  else if (form.read === '1') filter.read = true;
  else if (form.read !== undefined && form.read !== '') throw new AppError(ERRORS.VALIDATION, 'read 只能是 0 或 1');
  if (form.category) {
    const category = FILE_MESSAGE_CATEGORIES[form.category as keyof typeof FILE_MESSAGE_CATEGORIES];
    if (!category) throw new AppError(ERRORS.VALIDATION, '消息分类不正确');
    filter.types = category.types;
  }
  if (form.types) {
    const types = form.types.split(',').map((t) => t.trim()).filter(Boolean);
    if (types.some((t) => !isFileMessageType(t))) throw new AppError(ERRORS.VALIDATION, '消息类型不正确');
    filter.types = filter.types ? filter.types.filter((t) => types.includes(t)) : types;
  }
  filter.from = timeField(form.from, '开始');
  filter.to = timeField(form.to, '结束');
  if (form.keyword !== undefined && form.keyword.trim() !== '') filter.keyword = form.keyword.trim().normalize('NFC');
  return filter;
}

function pageSizeOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return FILE_MESSAGE_DEFAULT_PAGE_SIZE;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new AppError(ERRORS.VALIDATION, '每页条数不正确');
  return Math.min(n, FILE_MESSAGE_MAX_PAGE_SIZE);
}

function parseDetail(raw: string | null): FileMessageDetail {
  if (!raw) return {};
  try {
    return JSON.parse(raw) as FileMessageDetail;
  } catch {
    return {};
  }
}

/** The folder a held upload was for, when its message names one (messages written before it did name none). */
const heldFolderOf = (row: FileMessagesTable): string | null => (row.type === 'upload.sensitive' ? (parseDetail(row.detail).folderId ?? null) : null);

/** A held upload's folder as its reader may reach it now; null when it is gone or out of reach. */
function heldUploadTarget(row: FileMessagesTable, folder: ReachedFile | undefined): FileMessageTarget | null {
  const detail = parseDetail(row.detail);
  if (detail.category === undefined) return null;
  if (!detail.folderId) return { kind: 'heldUpload', dir: null, category: detail.category, spaceId: null, spaceKind: null };
  const place = folder?.target;
  if (!place || place.kind !== 'file' || !folder.isDir) return null;
  return { kind: 'heldUpload', dir: folder.id, category: place.category, spaceId: place.spaceId, spaceKind: place.spaceKind };
}

function targetOf(row: FileMessagesTable, reached: ReachedFile | undefined): FileMessageTarget | null {
  const type = row.type as FileMessageType;
  if (type === 'upload.sensitive') return heldUploadTarget(row, reached);
  if (type.startsWith('apply.') && row.ref_id) return { kind: 'application', applicationId: row.ref_id, page: type === 'apply.pending' ? 'dealApply' : 'myApply' };
  // The link's owner follows its downloads in 我的分享 (the file itself is theirs to find anyway).
  if (type === 'link.downloaded' && row.ref_id) return { kind: 'link', linkId: row.ref_id };
  if (type === 'group.added' && row.ref_id) return { kind: 'group', spaceId: row.ref_id };
  if (type === 'quota.high') return { kind: 'page', url: '/main/user/userInfo' };
  return reached?.target ?? null;
}

/** Whose entries an application names: its applicant and approvers see them by name in its drawer. */
const namesApplication = (type: FileMessageType): boolean => type.startsWith('apply.');

/**
 * 文件消息: written for the events people care about (through the NoticeEvents port: the action-log
 * adapter for file changes, the sharing work for shares, applications and links), read in keyset
 * pages, marked read, deleted. Names are shown only while the reader may still reach the entry.
 */
/** Messages removed per transaction by the retention pass. */
const PRUNE_BATCH = 2000;

export interface FileMessageServiceDeps {
  repo: FileMessageRepository;
  people: NoticeFileRepository;
  reach: FileReach;
  delivery: NoticeSender;
  onError: (err: unknown) => void;
}

export class FileMessageService implements NoticeEvents {
  constructor(private readonly deps: FileMessageServiceDeps) {}

  // ---- writing (the port) ------------------------------------------------------------------------

  async notify(input: FileMessageInput): Promise<number> {
    try {
      const now = input.at ?? Date.now();
      const live = await this.deps.people.liveUsers(input.tenantId, input.recipients);
      const actorId = input.actor?.id ?? null;
      const actorName = input.actor ? (input.actor.name ?? (live.get(input.actor.id)?.name || (await this.deps.people.userName(input.actor.id)))) : '';
      const rows: NewFileMessage[] = [];
      for (const userId of new Set(input.recipients)) {
        // Never the one who did it, never another tenant's account, never a deleted one.
        if (userId === actorId || !live.has(userId)) continue;
        rows.push({
          id: newId(),
          tenant_id: input.tenantId,
          user_id: userId,
          type: input.type,
          actor_id: actorId,
          actor_name: actorName,
          file_id: input.file?.id ?? null,
          file_name: input.file?.name ?? '',
          is_dir: input.file?.isDir ? 1 : 0,
          item_count: input.itemCount ?? 1,
          ref_id: input.refId ?? null,
          detail: input.detail && Object.keys(input.detail).length > 0 ? JSON.stringify(input.detail) : null,
          created_at: now,
          ...(input.batch ? { batch: input.batch } : {}),
        });
      }
      const written = await this.deps.repo.insertMany(rows);
      this.deps.delivery.fileMessages(written);
      return written.length;
    } catch (err) {
      // The event has happened; failing to tell people about it must not undo or fail it.
      this.deps.onError(err);
      return 0;
    }
  }

  /** One message per link per hour for its owner, counting the downloads of that hour. */
  async linkDownloaded(input: LinkDownloadInput): Promise<number> {
    const at = input.at ?? Date.now();
    return this.notify({
      tenantId: input.tenantId,
      type: 'link.downloaded',
      recipients: [input.ownerId],
      actor: input.visitor ?? null,
      file: input.file,
      refId: input.linkId,
      detail: { downloads: 1, firstAt: at },
      at,
      batch: {
        key: `link:${input.linkId}:${Math.floor(at / HOUR_MS)}`,
        mode: 'merge',
        merge: (old) => {
          const d = parseDetail(old.detail);
          return {
            detail: JSON.stringify({ ...d, downloads: (d.downloads ?? 1) + 1, firstAt: d.firstAt ?? at }),
            item_count: old.item_count,
            actor_id: input.visitor?.id ?? null,
            actor_name: input.visitor?.name ?? '',
          };
        },
      },
    });
  }

  /**
   * A change to entries (new version, lock, move, delete): every watcher other than the actor gets
   * one message naming the first entry they watch and how many. `formerWatchers` also hear of it
   * (the members of the group a move took the entries out of).
   */
  async entriesChanged(tenantId: string, type: FileMessageType, actorId: string, fileIds: readonly string[], detail: FileMessageDetail = {}, formerWatchers: readonly string[] = []): Promise<number> {
    if (fileIds.length === 0) return 0;
    const watchers = await this.deps.reach.watchers(tenantId, fileIds);
    const entries = new Map((await this.deps.people.entries(tenantId, fileIds)).map((r) => [r.id, r]));
    const perUser = new Map<string, string[]>();
    for (const id of fileIds) {
      if (!entries.has(id)) continue;
      for (const userId of new Set([...(watchers.get(id) ?? []), ...formerWatchers])) perUser.set(userId, [...(perUser.get(userId) ?? []), id]);
    }
    // Recipients with the same entries share one input (usually everyone: one group, one file).
    const byFiles = new Map<string, string[]>();
    for (const [userId, ids] of perUser) byFiles.set(ids.join(','), [...(byFiles.get(ids.join(',')) ?? []), userId]);
    let written = 0;
    for (const [key, recipients] of byFiles) {
      const ids = key.split(',');
      const first = entries.get(ids[0]!)!;
      written += await this.notify({ tenantId, type, recipients, actor: { id: actorId }, file: { id: first.id, name: first.name, isDir: first.is_dir === 1 }, itemCount: ids.length, detail });
    }
    return written;
  }

  /** After a write of the user's: the quota warning once it passes QUOTA_WARN_PERCENT, re-armed below it. */
  async checkQuota(userId: string): Promise<void> {
    try {
      const usage = await this.deps.people.usage(userId);
      if (!usage || usage.quota <= 0) return;
      const percent = Math.floor((usage.used * 100) / usage.quota);
      const warned = await this.deps.repo.quotaWarned(userId);
      if (percent >= QUOTA_WARN_PERCENT && !warned) {
        await this.deps.repo.setQuotaWarned(userId, true);
        await this.notify({ tenantId: usage.tenantId, type: 'quota.high', recipients: [userId], detail: { percent: Math.min(percent, 100), used: usage.used, quota: usage.quota } });
      } else if (percent < QUOTA_WARN_PERCENT && warned) {
        await this.deps.repo.setQuotaWarned(userId, false);
      }
    } catch (err) {
      this.deps.onError(err);
    }
  }

  /** Uploads held because their names hold sensitive keywords: one message per held upload. */
  async sensitiveHeld(tenantId: string, userId: string, held: ReadonlyArray<{ key: string; name: string; keyword: string; parentId: string | null; category: number }>): Promise<void> {
    for (const h of held) {
      await this.notify({
        tenantId,
        type: 'upload.sensitive',
        recipients: [userId],
        file: { id: null, name: h.name, isDir: false },
        // The folder it was for: opening the message goes there, with the transfer list open.
        detail: { ...(h.keyword ? { reason: h.keyword } : {}), folderId: h.parentId, category: h.category },
        batch: { key: `sensitive:${h.key}`, mode: 'once' },
      });
    }
  }

  // ---- reading -----------------------------------------------------------------------------------

  async list(caller: Caller, form: FileMessageListForm): Promise<FileMessagePage> {
    return this.page(caller, filterOf(form), decodeCursor(form.cursor), pageSizeOf(form.pageSize));
  }

  async search(caller: Caller, form: FileMessageListForm): Promise<FileMessagePage> {
    const filter = filterOf(form);
    if (!filter.keyword) throw new AppError(ERRORS.VALIDATION, '请输入搜索关键字');
    if (filter.keyword.length > 100) throw new AppError(ERRORS.VALIDATION, '搜索关键字过长');
    return this.page(caller, filter, decodeCursor(form.cursor), pageSizeOf(form.pageSize));
  }

  private async page(caller: Caller, filter: MessageFilter, after: MessageKey | null, limit: number): Promise<FileMessagePage> {
    const kept: Array<{ row: FileMessagesTable; reached: ReachedFile | undefined }> = [];
    let cursor = after;
    let scanned = 0;
    let more = false;
    for (;;) {
      const rows = await this.deps.repo.page(caller.userId, filter, cursor, limit + 1 - kept.length);
      const batch = rows.slice(0, limit - kept.length);
      more = rows.length > batch.length;
      const reach = await this.deps.reach.resolve(caller, batch.map((r) => r.file_id ?? heldFolderOf(r)).filter((id): id is string => id !== null));
      for (const row of batch) {
        const reachedId = row.file_id ?? heldFolderOf(row);
        const reached = reachedId ? reach.get(reachedId) : undefined;
        // A keyword must not find a message through the name of an entry the reader cannot see.
        if (filter.keyword && row.file_id && !reached && !namesApplication(row.type as FileMessageType) && !row.actor_name.toLowerCase().includes(filter.keyword.toLowerCase())) continue;
        kept.push({ row, reached });
      }
      scanned += batch.length;
      const last = batch[batch.length - 1];
      if (last) cursor = { at: Number(last.created_at), id: last.id };
      if (!more || kept.length >= limit || !filter.keyword || scanned >= SEARCH_SCAN_MAX) break;
    }
    return {
      items: kept.map(({ row, reached }) => this.toMessage(row, reached)),
      nextCursor: more && cursor ? encodeCursor(cursor) : null,
      unread: await this.deps.repo.unreadCount(caller.userId),
    };
  }

  private toMessage(row: FileMessagesTable, reached: ReachedFile | undefined): FileMessage {
    const type = row.type as FileMessageType;
    let file: FileMessage['file'] = null;
    if (row.file_id) {
      file = reached
        ? { id: row.file_id, name: reached.name, isDir: reached.isDir, available: true }
        : namesApplication(type)
          ? { id: row.file_id, name: row.file_name, isDir: row.is_dir === 1, available: true }
          : { id: row.file_id, name: null, isDir: row.is_dir === 1, available: false };
    } else if (row.file_name) {
      // An upload that never became an entry (held as sensitive): the reader's own name for it.
      file = { id: null, name: row.file_name, isDir: row.is_dir === 1, available: true };
    }
    return {
      id: row.id,
      type,
      actor: row.actor_id ? { id: row.actor_id, nickName: row.actor_name } : null,
      file,
      itemCount: Number(row.item_count),
      detail: parseDetail(row.detail),
      target: targetOf(row, reached),
      createdAt: Number(row.created_at),
      read: row.read_at !== null,
    };
  }

  /**
   * Removes the messages past FILE_MESSAGE_RETENTION_DAYS (the sweeper's pass), a batch per
   * transaction so writers never wait long; the unread counters follow in each batch.
   */
  async pruneOld(now = Date.now()): Promise<number> {
    const cutoff = now - FILE_MESSAGE_RETENTION_DAYS * 24 * 3600 * 1000;
    let total = 0;
    for (;;) {
      const n = await this.deps.repo.pruneBefore(cutoff, PRUNE_BATCH);
      total += n;
      if (n < PRUNE_BATCH) return total;
    }
  }

  async unreadCount(caller: Caller): Promise<number> {
    return this.deps.repo.unreadCount(caller.userId);
  }

  async markRead(caller: Caller, ids: readonly string[], now = Date.now()): Promise<FileMessageChange> {
    const changed = await this.deps.repo.markRead(caller.userId, [...new Set(ids)], now);
    return this.changed(caller, changed);
  }

  async markAllRead(caller: Caller, now = Date.now()): Promise<FileMessageChange> {
    return this.changed(caller, await this.deps.repo.markAllRead(caller.userId, now));
  }

  async delete(caller: Caller, ids: readonly string[]): Promise<FileMessageChange> {
    return this.changed(caller, await this.deps.repo.delete(caller.userId, [...new Set(ids)]));
  }

  private async changed(caller: Caller, changed: number): Promise<FileMessageChange> {
    if (changed > 0) this.deps.delivery.fileChanged(caller.userId, caller.tenantId);
    return { changed, unread: await this.deps.repo.unreadCount(caller.userId) };
  }
}
