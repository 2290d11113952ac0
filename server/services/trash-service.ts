import { ERRORS } from '../../common/api/errors';
import type { PageRequest, RecyclePurgeRequest, RecycleRestoreRequest } from '../../common/api/endpoints/file-states';
import type { RemoveFilesRequest } from '../../common/api/endpoints/files';
import type {
  FileListResponse,
  RecyclePurgeResponse,
  RecycleRestoreResponse,
  RemoveFilesResponse,
  TrashOrigin,
} from '../../common/api/types';
import { FILE_CATEGORY, FILE_LIST_DEFAULT_PAGE_SIZE, FILE_LIST_MAX_PAGE_SIZE } from '../../common/api/types';
import { isUniqueViolation } from '../db/database';
import type { FilesTable } from '../db/schema';
import { AppError } from '../http/app-error';
import type { FileRepository, ListParent } from '../repositories/file-repository';
import { editorOf } from '../repositories/content-replacement';
import type { TreeRepository } from '../repositories/tree-repository';
import type { BlobStore } from '../storage/byte-store';
import type { ThumbnailStore } from '../storage/byte-store';
import type { Caller } from './caller';
import { actionLog, fileTarget } from './action-log/recorder';
import type { ActionTarget } from '../../common/api/action-codes';
import { overwriteTargets, planArrivals } from './conflict-plan';
import type { EntryDecorator } from './entry-decorator';
import { nameKeyOf, newEntryRow } from './file-service';
import { freeName } from './naming';
import type { AccessService, Place } from './space-access';
import { treeError } from './copy-move-service';
import { layoutOf } from './upload-commit';

/** The page names of the personal categories (the menu's), the first step of a 原位置. */
const CATEGORY_ROOTS: Readonly<Record<number, string>> = { [FILE_CATEGORY.personal]: '个人文件', [FILE_CATEGORY.exchange]: '交换区', [FILE_CATEGORY.synced]: '同步文件' };

/** Roots purged per transaction by the automatic purge (keeps each write short). */
const SWEEP_BATCH = 100;

export interface TrashServiceDeps {
  files: FileRepository;
  tree: TreeRepository;
  access: AccessService;
  decorator: EntryDecorator;
  blobs: BlobStore;
  thumbnails: ThumbnailStore;
  retentionMs: number;
  /** What the documents pipeline made of a blob (rendition, text) goes with it. */
  documents?: { forgetBlobs(blobIds: readonly string[]): Promise<void> };
}

/**
 * The recycle bin: delete moves an entry and its tree there (names become free at once), restore
 * brings it back to where it was (recreating the folders that are gone), purge deletes for good
 * and frees the quota and every blob nobody references any more. Entries older than the retention
 * are purged by the sweeper.
 */
export class TrashService {
  constructor(private readonly deps: TrashServiceDeps) {}

  /** `removeFiles`: one action (file.delete) over every entry named. */
  async remove(caller: Caller, req: RemoveFilesRequest, now = Date.now()): Promise<RemoveFilesResponse> {
    const entries = await this.deps.access.modifiable(caller, req.ids);
    actionLog.record({ action: 'file.delete', targets: entries.map((e) => fileTarget(e.row)) });
    return this.trashEntries(caller, entries, now);
  }

  /** Moves entries to the recycle bin; also the last step of a move that overwrote (not an action of its own). */
  async trashEntries(caller: Caller, entries: ReadonlyArray<{ row: FilesTable }>, now = Date.now()): Promise<RemoveFilesResponse> {
    for (const { row } of entries) {
      if (row.is_dir === 1 && (await this.deps.files.lockedByOtherInTree(caller.tenantId, row.id, caller.userId))) {
        throw new AppError(ERRORS.LOCKED_BY_OTHER);
      }
    }
    let removed = 0;
    for (const { row } of entries) {
      // An entry inside a folder deleted earlier in this batch went with it.
      const current = await this.deps.files.findInTenant(caller.tenantId, row.id);
      if (!current || current.deleted_at != null) continue;
      removed += await this.deps.tree.trash(caller.tenantId, row.id, caller.userId, await this.ancestorNames(caller, row), now);
    }
    return { removed };
  }

  /** Names of the folders between the base (category root or space root) and the entry. */
  private async ancestorNames(caller: Caller, row: FilesTable): Promise<string[]> {
    if (row.parent_id === null) return [];
    const chain = await this.deps.files.pathTo(caller.tenantId, row.parent_id);
    // In a space the first element is the space's root folder: the base itself.
    return (row.space_id ? chain.slice(1) : chain).map((r) => r.name);
  }

  async list(caller: Caller, req: PageRequest): Promise<FileListResponse> {
    const pageSize = Math.min(req.pageSize ?? FILE_LIST_DEFAULT_PAGE_SIZE, FILE_LIST_MAX_PAGE_SIZE);
    const after = req.cursor ? decodeTrashCursor(req.cursor) : null;
    const rows = await this.deps.tree.trashPage(caller.tenantId, caller.userId, after, pageSize + 1);
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    const nextCursor = rows.length > pageSize && last ? Buffer.from(JSON.stringify([last.deleted_at, last.id])).toString('base64url') : null;
    const items = await this.deps.decorator.decorate(caller, page);
    const origins = await this.originsOf(caller, page);
    return { items: items.map((item) => ({ ...item, origin: origins.get(item.id) })), nextCursor };
  }

  /**
   * 原位置 of deleted roots: the page (or space) and the folders recorded at deletion, and whether that
   * folder is gone now (deleted or purged: 还原 recreates it).
   */
  private async originsOf(caller: Caller, rows: readonly FilesTable[]): Promise<Map<string, TrashOrigin>> {
    const parentIds = [...new Set(rows.map((r) => r.parent_id).filter((id): id is string => id !== null))];
    const parents = new Map((parentIds.length ? await this.deps.files.findManyInTenant(caller.tenantId, parentIds) : []).map((p) => [p.id, p]));
    const spaceNames = new Map<string, string>();
    for (const spaceId of new Set(rows.map((r) => r.space_id).filter((id): id is string => id !== null))) {
      // A space the caller can no longer open keeps a generic name.
      spaceNames.set(spaceId, await this.deps.access.space(caller, spaceId).then((a) => a.space.name, () => '群组空间'));
    }
    const origins = new Map<string, TrashOrigin>();
    for (const row of rows) {
      const folders = row.trash_path ? (JSON.parse(row.trash_path) as string[]) : [];
      const base = row.space_id ? (spaceNames.get(row.space_id) ?? '群组空间') : (CATEGORY_ROOTS[row.category] ?? '同步文件');
      const parent = row.parent_id ? parents.get(row.parent_id) : undefined;
      const gone = row.parent_id ? !parent || parent.deleted_at != null : folders.length > 0;
      origins.set(row.id, { path: [base, ...folders].join('/'), gone });
    }
    return origins;
  }

  /** The caller's own deleted roots among `ids`; anything else → 404. */
  private async ownTrashRoots(caller: Caller, ids: readonly string[]): Promise<FilesTable[]> {
    const rows = await this.deps.files.findManyInTenant(caller.tenantId, [...new Set(ids)]);
    if (rows.length !== new Set(ids).size) throw new AppError(ERRORS.NOT_FOUND);
    for (const row of rows) {
      if (row.trash_root_id !== row.id || row.deleted_by !== caller.userId) throw new AppError(ERRORS.NOT_FOUND);
    }
    return rows;
  }

  async restore(caller: Caller, req: RecycleRestoreRequest, now = Date.now()): Promise<RecycleRestoreResponse> {
    const roots = await this.ownTrashRoots(caller, req.ids);
    const detail: Record<string, unknown> = {};
    actionLog.record({ action: 'file.restore', targets: roots.map(fileTarget), detail });
    // Group by where each goes; a space the caller lost access to answers 404.
    const targets = new Map<string, { parent: ListParent | null; rows: FilesTable[]; row0: FilesTable }>();
    for (const row of roots) {
      if (row.space_id) await this.deps.access.space(caller, row.space_id, 'write');
      const parent = await this.existingTarget(caller, row);
      const key = parent ? (parent.kind === 'folder' ? parent.parentId : `root:${parent.category}`) : `new:${row.id}`;
      const t = targets.get(key) ?? targets.set(key, { parent, rows: [], row0: row }).get(key)!;
      t.rows.push(row);
    }
    // Plan every group first: any undecided clash refuses the whole restore before a change.
    const planned = [];
    for (const t of targets.values()) {
      planned.push({ t, plans: t.parent ? await planArrivals(this.deps.files, t.parent, t.rows, req.decisions, { overwriteFolderAsRename: true }) : null });
    }
    await this.deps.access.modifiable(caller, planned.flatMap((p) => (p.plans ? overwriteTargets(p.plans) : [])));
    const restored: string[] = [];
    const skipped: string[] = [];
    try {
      for (const { t, plans } of planned) {
        if (!plans) {
          // The original folder is gone: recreate the path, then put it there under its own name.
          const place = await this.recreatePath(caller, t.row0, now);
          for (const row of t.rows) {
            await this.deps.tree.restore(row.id, place.parentId, row.name, row.name_key, now);
            restored.push(row.id);
          }
          continue;
        }
        for (const plan of plans) {
          if (plan.kind === 'skip') skipped.push(plan.row.id);
          else if (plan.kind === 'overwrite') {
            await this.deps.tree.newVersion(editorOf(caller), plan.existing.id, { blobId: plan.row.blob_id!, size: plan.row.size }, now);
            await this.purgeRoots([plan.row.id]);
            restored.push(plan.existing.id);
          } else {
            const parentId = t.parent!.kind === 'folder' ? t.parent!.parentId : null;
            const name = plan.kind === 'place' ? plan.name : plan.row.name;
            await this.deps.tree.restore(plan.row.id, parentId, name, nameKeyOf(name), now);
            restored.push(plan.row.id);
          }
        }
      }
    } catch (err) {
      throw treeError(err);
    }
    detail.skipped = skipped;
    const rows = await this.deps.files.findManyInTenant(caller.tenantId, restored);
    return { items: await this.deps.decorator.decorate(caller, rows), skipped };
  }

  /** Where a deleted root goes back when its folder still exists (live); null when it must be recreated. */
  private async existingTarget(caller: Caller, row: FilesTable): Promise<ListParent | null> {
    if (row.parent_id === null) {
      // A purge of its folder cut the link (the names in trash_path remain): recreate the path.
      const lostFolders = row.trash_path ? (JSON.parse(row.trash_path) as string[]).length > 0 : false;
      if (row.space_id || lostFolders) return null;
      return { kind: 'root', scope: { tenantId: caller.tenantId, ownerId: row.owner_id }, category: row.category };
    }
    const parent = await this.deps.files.findInTenant(caller.tenantId, row.parent_id);
    return parent && parent.deleted_at == null ? { kind: 'folder', parentId: parent.id } : null;
  }

  /**
   * Walks the original path from the base (the category root, or the space's root folder), reusing
   * live folders of the same name and creating the missing ones (a file in the way gets a folder
   * 'name (n)' beside it).
   */
  private async recreatePath(caller: Caller, row: FilesTable, now: number): Promise<Place> {
    let place: Place = row.space_id
      ? await this.deps.access.place(caller, null, row.category, row.space_id)
      : await this.deps.access.place(caller, null, row.category);
    const names = row.trash_path ? (JSON.parse(row.trash_path) as string[]) : [];
    for (const name of names) {
      const [found] = await this.deps.files.liveNamesAt(place.parent, [name.toLowerCase()]);
      if (found && found.is_dir === 1) {
        place = await this.deps.access.place(caller, found.id, place.category);
        continue;
      }
      const taken = found ? new Set([found.name_key, ...(await this.deps.files.namesLikeAt(place.parent, [`${name.toLowerCase()} (%)`]))]) : new Set<string>();
      const folder = newEntryRow(caller, place, freeName(name, taken), now, { isDir: true });
      try {
        await this.deps.files.insert(folder);
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(ERRORS.NAME_CONFLICT);
        throw err;
      }
      place = await this.deps.access.place(caller, folder.id, place.category);
    }
    return place;
  }

  async purge(caller: Caller, req: RecyclePurgeRequest): Promise<RecyclePurgeResponse> {
    if (req.all) {
      // The entries are known batch by batch: the one entry of this action grows with them.
      const targets: ActionTarget[] = [];
      const detail: Record<string, unknown> = { all: true };
      actionLog.record({ action: 'file.purge', targets, detail });
      let purged = 0;
      for (;;) {
        const roots = await this.deps.tree.trashRoots(caller.tenantId, caller.userId, null, SWEEP_BATCH);
        detail.entries = purged;
        if (roots.length === 0) return { purged };
        targets.push(...roots.map(fileTarget));
        purged += await this.purgeRoots(roots.map((r) => r.id));
      }
    }
    const roots = await this.ownTrashRoots(caller, req.ids ?? []);
    actionLog.record({ action: 'file.purge', targets: roots.map(fileTarget) });
    return { purged: await this.purgeRoots(roots.map((r) => r.id)) };
  }

  /** Purges, then removes the bytes of the blobs nobody references any more. */
  private async purgeRoots(ids: readonly string[]): Promise<number> {
    return (await this.purgeClaimed(ids)).rows;
  }

  private async purgeClaimed(ids: readonly string[]): Promise<{ rows: number; roots: string[] }> {
    const { rows, freed, roots } = await this.deps.tree.purge(ids);
    for (const blob of freed) {
      await this.deps.blobs.remove(blob.storage_key, layoutOf(blob));
      await this.deps.thumbnails.remove(blob.id);
    }
    await this.deps.documents?.forgetBlobs(freed.map((b) => b.id));
    return { rows, roots };
  }

  /**
   * Automatic purge: every deleted root older than the retention (called by the sweeper, which
   * records each batch in the action log through `onPurged`).
   */
  async sweepExpired(now = Date.now(), onPurged?: (roots: Array<Pick<FilesTable, 'id' | 'tenant_id' | 'name' | 'is_dir'>>) => Promise<void>): Promise<number> {
    let purged = 0;
    for (;;) {
      const roots = await this.deps.tree.trashRoots(null, null, now - this.deps.retentionMs, SWEEP_BATCH);
      if (roots.length === 0) return purged;
      const done = await this.purgeClaimed(roots.map((r) => r.id));
      purged += done.rows;
      // On record only what this pass purged (another process's sweeper may have taken some).
      const mine = new Set(done.roots);
      const recorded = roots.filter((r) => mine.has(r.id));
      if (recorded.length > 0) await onPurged?.(recorded);
    }
  }
}

function decodeTrashCursor(cursor: string): { deletedAt: number; id: string } {
  try {
    const d = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(d) && typeof d[0] === 'number' && typeof d[1] === 'string') return { deletedAt: d[0], id: d[1] };
  } catch {
    // fall through
  }
  throw new AppError(ERRORS.VALIDATION, '分页游标无效');
}
