import { ERRORS } from '../../common/api/errors';
import type { PageRequest } from '../../common/api/endpoints/file-states';
import type { FileListResponse, IdsResponse, VersionListResponse } from '../../common/api/types';
import { FILE_LIST_DEFAULT_PAGE_SIZE, FILE_LIST_MAX_PAGE_SIZE } from '../../common/api/types';
import { AppError } from '../http/app-error';
import type { FileRepository } from '../repositories/file-repository';
import { editorOf } from '../repositories/content-replacement';
import type { TreeRepository } from '../repositories/tree-repository';
import type { Caller } from './caller';
import { actionLog, fileTarget } from './action-log/recorder';
import type { ActionTarget } from '../../common/api/action-codes';
import type { Downloadable, DownloadService } from './download-service';
import type { EntryDecorator } from './entry-decorator';
import type { AccessService } from './space-access';
import { treeError } from './copy-move-service';
import type { ByteGate } from './sharing/byte-gate';

export interface FileStateServiceDeps {
  files: FileRepository;
  tree: TreeRepository;
  access: AccessService;
  decorator: EntryDecorator;
  downloads: DownloadService;
  gate: ByteGate;
}

/** Favorites, locks and versions of entries the caller may see. */
export class FileStateService {
  constructor(private readonly deps: FileStateServiceDeps) {}

  private async reload(caller: Caller, ids: readonly string[]): Promise<IdsResponse> {
    const rows = await this.deps.files.findManyInTenant(caller.tenantId, ids);
    return { items: await this.deps.decorator.decorate(caller, rows) };
  }

  async addFavorites(caller: Caller, ids: readonly string[], now = Date.now()): Promise<IdsResponse> {
    const entries = await this.deps.access.entries(caller, ids);
    actionLog.record({ action: 'file.favorite', targets: entries.map((e) => fileTarget(e.row)) });
    await this.deps.tree.addFavorites(caller.userId, ids, now);
    return this.reload(caller, ids);
  }

  /** Removing needs no access to the entry any more (it may have left a group): only the caller's own rows change. */
  async removeFavorites(caller: Caller, ids: readonly string[]): Promise<IdsResponse> {
    const targets = { action: 'file.unfavorite' as const, targets: [] as ActionTarget[] };
    actionLog.record(targets);
    await this.deps.tree.removeFavorites(caller.userId, ids);
    const readable = await this.deps.access.visible(caller, await this.deps.files.findManyInTenant(caller.tenantId, ids));
    targets.targets = readable.map(fileTarget);
    return { items: await this.deps.decorator.decorate(caller, readable) };
  }

  /** 我的收藏: live favorites the caller can still see, newest first. */
  async listFavorites(caller: Caller, req: PageRequest): Promise<FileListResponse> {
    const pageSize = Math.min(req.pageSize ?? FILE_LIST_DEFAULT_PAGE_SIZE, FILE_LIST_MAX_PAGE_SIZE);
    let after: { at: number; id: string } | null = null;
    if (req.cursor) {
      try {
        const d = JSON.parse(Buffer.from(req.cursor, 'base64url').toString('utf8')) as [number, string];
        if (typeof d[0] !== 'number' || typeof d[1] !== 'string') throw new Error('bad');
        after = { at: d[0], id: d[1] };
      } catch {
        throw new AppError(ERRORS.VALIDATION, '分页游标无效');
      }
    }
    const rows = await this.deps.tree.favoritePage(caller.tenantId, caller.userId, after, pageSize + 1);
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    // A favorite in a group the caller left is hidden (not an error).
    const readable = await this.deps.access.visible(caller, page.map(({ favorited_at: _at, ...row }) => row));
    const nextCursor = rows.length > pageSize && last ? Buffer.from(JSON.stringify([last.favorited_at, last.id])).toString('base64url') : null;
    return { items: await this.deps.decorator.decorate(caller, readable), nextCursor };
  }

  /** Locks entries the caller may modify; an entry locked by someone else refuses the batch. */
  async lock(caller: Caller, ids: readonly string[]): Promise<IdsResponse> {
    const entries = await this.deps.access.modifiable(caller, ids);
    actionLog.record({ action: 'file.lock', targets: entries.map((e) => fileTarget(e.row)) });
    await this.deps.files.setLock(caller.tenantId, ids, caller.userId);
    return this.reload(caller, ids);
  }

  /** Only the locker or an administrator may unlock. */
  async unlock(caller: Caller, ids: readonly string[]): Promise<IdsResponse> {
    const entries = await this.deps.access.entries(caller, ids);
    actionLog.record({ action: 'file.unlock', targets: entries.map((e) => fileTarget(e.row)) });
    for (const { row } of entries) {
      if (row.locked_by && row.locked_by !== caller.userId && caller.role !== 'admin') throw new AppError(ERRORS.UNLOCK_NOT_ALLOWED);
    }
    await this.deps.files.setLock(caller.tenantId, ids, null);
    return this.reload(caller, ids);
  }

  async versions(caller: Caller, id: string): Promise<VersionListResponse> {
    const { row } = await this.deps.access.entry(caller, id);
    if (row.is_dir === 1) throw new AppError(ERRORS.IS_FOLDER);
    const old = await this.deps.tree.versions(row.id);
    const names = await this.deps.files.nickNames([...new Set([row.owner_id, ...old.map((v) => v.created_by)])]);
    const ref = (userId: string) => ({ id: userId, nickName: names.get(userId) ?? '' });
    const head = {
      id: row.id,
      versionNo: (old[0]?.version_no ?? 0) + 1,
      size: Number(row.size),
      createdAt: row.updated_at,
      createdBy: ref(old[0]?.created_by ?? row.owner_id),
      current: true,
    };
    return {
      versions: [head, ...old.map((v) => ({ id: v.id, versionNo: v.version_no, size: Number(v.size), createdAt: v.created_at, createdBy: ref(v.created_by), current: false }))],
    };
  }

  /** The old version's content becomes the current one; the current one is kept as a version. */
  async restoreVersion(caller: Caller, id: string, versionId: string, now = Date.now()): Promise<IdsResponse> {
    const [entry] = await this.deps.access.modifiable(caller, [id], { shareEdit: 'version' });
    const detail: Record<string, unknown> = {};
    actionLog.record({ action: 'file.versionRestore', targets: [fileTarget(entry!.row), { type: 'version', id: versionId, name: entry!.row.name }], detail });
    const version = await this.deps.tree.findVersion(caller.tenantId, versionId);
    if (!version || version.file_id !== entry!.row.id) throw new AppError(ERRORS.NOT_FOUND);
    detail.versionNo = version.version_no;
    try {
      await this.deps.tree.newVersion(editorOf(caller), entry!.row.id, { blobId: version.blob_id, size: Number(version.size) }, now);
    } catch (err) {
      throw treeError(err);
    }
    return this.reload(caller, [id]);
  }

  /** An old version's content, for a download with Range. */
  async versionContent(caller: Caller, versionId: string): Promise<Downloadable> {
    const version = await this.deps.tree.findVersion(caller.tenantId, versionId);
    if (!version) throw new AppError(ERRORS.NOT_FOUND);
    const entry = await this.deps.access.entry(caller, version.file_id);
    const { row } = entry;
    actionLog.record({
      action: 'file.versionDownload',
      targets: [fileTarget(row), { type: 'version', id: version.id, name: row.name }],
      detail: { versionNo: version.version_no, size: Number(version.size) },
    });
    // An old version is content like the current one: not through a preview-only share, and an
    // exchange-area file's old content has not crossed (it is checked as this file's content).
    this.deps.gate.assertGrants([entry], 'download');
    await this.deps.gate.assertExchange(caller, [{ ...row, blob_id: version.blob_id }], 'download');
    return this.deps.downloads.ofBlob(caller.tenantId, row.name, version.blob_id);
  }
}
