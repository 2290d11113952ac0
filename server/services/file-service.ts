import { ERRORS } from '../../common/api/errors';
import type { DirListRequest, FileListRequest, MkdirRequest, RenameRequest } from '../../common/api/endpoints/files';
import { nameSortKey } from '../../common/files/name-sort-key';
import type {
  DirListResponse,
  FileCatalogResponse,
  FileEntry,
  FileListResponse,
  FileSortField,
} from '../../common/api/types';
import { FILE_LIST_DEFAULT_PAGE_SIZE, FILE_LIST_MAX_PAGE_SIZE } from '../../common/api/types';
import { fileKindOf } from '../../common/files/kind';
import { checkFileName, normalizeFileName } from '../../common/validation/names';
import { isUniqueViolation } from '../db/database';
import type { FilesTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import type { FileRepository, ListParent, ListPosition, OwnerScope, SortColumn } from '../repositories/file-repository';
import type { EntryDecorator } from './entry-decorator';
import type { AccessService, Place } from './space-access';
import type { BlockedTypes } from './blocked-types';
import type { Caller } from './caller';
import { actionLog, fileTarget } from './action-log/recorder';

const SORT_COLUMNS: Record<FileSortField, SortColumn> = { name: 'sort_key', size: 'size', updatedAt: 'updated_at' };

/**
 * Per-page facts that need a look-up beyond the row (each is one batched query per page, never one
 * per row): see EntryDecorator in services/entry-decorator.ts.
 */
export interface EntryFacts {
  favorites?: ReadonlySet<string>;
  versionCounts?: ReadonlyMap<string, number>;
  nickNames?: ReadonlyMap<string, string>;
  sensitiveKeywords?: readonly string[];
  /** Recycle-bin retention (ms), for expiresAt of deleted entries. */
  retentionMs?: number;
  now?: number;
}

export function toFileEntry(row: FilesTable, facts: EntryFacts = {}): FileEntry {
  const isDir = row.is_dir === 1;
  const deletedAt = row.deleted_at ?? null;
  const expiresAt = deletedAt !== null && facts.retentionMs !== undefined ? deletedAt + facts.retentionMs : null;
  const lowerName = row.name.toLowerCase();
  const spaceId = row.space_id ?? null;
  return {
    id: row.id,
    parentId: row.parent_id,
    name: row.name,
    isDir,
    size: isDir ? 0 : row.size,
    kind: isDir && spaceId !== null && row.parent_id === null ? 'groupFolder' : fileKindOf(row.name, isDir),
    category: row.category,
    spaceId,
    ownerId: row.owner_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    encrypted: row.encrypted === 1,
    deleted: deletedAt !== null,
    deletedAt,
    expiresAt,
    expired: expiresAt !== null && (facts.now ?? Date.now()) >= expiresAt,
    sensitive: (facts.sensitiveKeywords ?? []).some((k) => k !== '' && lowerName.includes(k.toLowerCase())),
    locked: Boolean(row.locked_by),
    lockedBy: row.locked_by ? { id: row.locked_by, nickName: facts.nickNames?.get(row.locked_by) ?? '' } : null,
    favorite: facts.favorites?.has(row.id) ?? false,
    versionCount: facts.versionCounts?.get(row.id) ?? 0,
  };
}

export const scopeOf = (caller: Caller): OwnerScope => ({ tenantId: caller.tenantId, ownerId: caller.userId });

/** Names are compared case-insensitively and in NFC (also in the unique index). */
export const nameKeyOf = (name: string): string => name.normalize('NFC').toLowerCase();

/** Checks a name with the shared rule and returns its stored form (NFC, trimmed). */
export function validName(raw: string): string {
  const problem = checkFileName(raw);
  if (problem) throw new AppError({ ...problem, status: 400 });
  return normalizeFileName(raw);
}

/**
 * The cursor is opaque to clients: base64url JSON of the last row's sort position, plus the sort it
 * belongs to so a cursor cannot be replayed against another ordering.
 */
interface CursorData extends ListPosition {
  s: string;
}

function encodeCursor(data: CursorData): string {
  return Buffer.from(JSON.stringify(data)).toString('base64url');
}

function decodeCursor(cursor: string, sortKey: string): ListPosition {
  try {
    const d = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorData>;
    if (
      d.s === sortKey &&
      (d.isDir === 0 || d.isDir === 1) &&
      (typeof d.value === 'string' || typeof d.value === 'number') &&
      typeof d.id === 'string'
    ) {
      return { isDir: d.isDir, value: d.value, id: d.id };
    }
  } catch {
    // fall through: any undecodable cursor is a bad request
  }
  throw new AppError(ERRORS.VALIDATION, '分页游标无效');
}

export class FileService {
  constructor(
    private readonly files: FileRepository,
    private readonly access: AccessService,
    private readonly decorator: EntryDecorator,
    private readonly types: BlockedTypes,
  ) {}

  /** A live folder the caller may read (any space), else 404 (others' ids look unknown). */
  async requireFolder(caller: Caller, id: string, category?: number): Promise<FilesTable> {
    const { row, access } = await this.access.entry(caller, id);
    if (row.is_dir !== 1 || (!access && category !== undefined && row.category !== category)) throw new AppError(ERRORS.NOT_FOUND);
    return row;
  }

  /**
   * Where a new entry may go: null (root of the category) or a folder the caller may write to.
   * `versionOf`: the upload may be a new version of that file, which a share may allow in a folder the
   * caller cannot write to (sharing.ts: permission edit).
   */
  async requireParent(caller: Caller, parentId: string | null, category: number, versionOf?: string): Promise<Place> {
    return this.access.place(caller, parentId, category, undefined, { versionOf });
  }

  /**
   * 上传新版本 by id (VersionOf, common/api/schemas.ts): the live file, wherever it sits, that the caller
   * may give new content — the one modify decision (role in a space; through a share only 编辑, a
   * preview or download grant is FORBIDDEN; someone else's lock refuses). Unknown or another tenant's: 404.
   */
  async versionTarget(caller: Caller, fileId: string): Promise<FilesTable> {
    const [entry] = await this.access.modifiable(caller, [fileId], { shareEdit: 'version' });
    if (entry!.row.is_dir === 1) throw new AppError(ERRORS.VALIDATION, '文件夹不能上传新版本');
    return entry!.row;
  }

  /**
   * What the pre-upload checks say of a new version's file (versionTarget's rule, answered instead of
   * thrown): the row (404 when the caller cannot see it), whether the caller may give it new content,
   * and whether someone else's lock stands in the way.
   */
  async versionState(caller: Caller, fileId: string): Promise<{ row: FilesTable; replaceable: boolean; locked: boolean }> {
    const entry = await this.access.entry(caller, fileId);
    const locked = Boolean(entry.row.locked_by && entry.row.locked_by !== caller.userId);
    let replaceable = entry.row.is_dir !== 1;
    try {
      // The lock is answered on its own: here only role and grant.
      this.access.assertMayModify(caller, { ...entry, row: { ...entry.row, locked_by: null } }, 'version');
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      replaceable = false;
    }
    return { row: entry.row, replaceable, locked };
  }

  async list(caller: Caller, req: FileListRequest): Promise<FileListResponse> {
    const place = await this.listPlace(caller, req.parentId, req.category, req.spaceId);
    const sortField = req.sortField ?? 'name';
    const descending = req.sortOrder === 'desc';
    const sortKey = `${sortField}:${descending ? 'desc' : 'asc'}`;
    const pageSize = Math.min(req.pageSize ?? FILE_LIST_DEFAULT_PAGE_SIZE, FILE_LIST_MAX_PAGE_SIZE);
    const column = SORT_COLUMNS[sortField];
    // One extra row tells whether another page exists without a COUNT query.
    const rows = await this.files.list({
      parent: place,
      column,
      descending,
      after: req.cursor ? decodeCursor(req.cursor, sortKey) : null,
      limit: pageSize + 1,
      // The caller's favorites come with the rows: one statement fewer per page.
      favoritesOf: caller.userId,
    });
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    const nextCursor =
      rows.length > pageSize && last ? encodeCursor({ s: sortKey, isDir: last.is_dir, value: last[column], id: last.id }) : null;
    const favorites = new Set(page.filter((r) => r.favorite).map((r) => r.id));
    return { items: await this.decorator.decorate(caller, page, { favorites }), nextCursor };
  }

  /** The listing source for a folder (readable) or a root: a space's root folder, or a personal category root. */
  private async listPlace(caller: Caller, parentId: string | null, category: number, spaceId?: string | null): Promise<ListParent> {
    if (parentId === null && spaceId) {
      const { space } = await this.access.space(caller, spaceId);
      return { kind: 'folder', parentId: space.root_id };
    }
    if (parentId === null) return { kind: 'root', scope: scopeOf(caller), category };
    const row = await this.requireFolder(caller, parentId, spaceId ? undefined : category);
    if (spaceId && row.space_id == null) throw new AppError(ERRORS.NOT_FOUND);
    return { kind: 'folder', parentId: row.id };
  }

  /** Folder-picker tree: one level of live folders (name order), each saying whether it has sub-folders. */
  async dirList(caller: Caller, req: DirListRequest): Promise<DirListResponse> {
    const parent = await this.listPlace(caller, req.parentId, req.category, req.spaceId);
    const rows = await this.files.list({ parent, column: 'sort_key', descending: false, after: null, limit: DIR_LIST_LIMIT, dirsOnly: true });
    const withChildren = await this.files.withSubfolders(rows.map((r) => r.id));
    return { items: rows.map((r) => ({ id: r.id, name: r.name, hasChildren: withChildren.has(r.id) })) };
  }

  /** Entries by id; ids the caller may not see are left out (as if unknown). */
  async multiList(caller: Caller, ids: readonly string[]): Promise<FileEntry[]> {
    const visible = await this.access.visible(caller, await this.files.findManyInTenant(caller.tenantId, ids));
    const order = new Map(ids.map((id, i) => [id, i]));
    visible.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    return this.decorator.decorate(caller, visible);
  }

  /** Breadcrumb: from the top (a personal category root or the space's root folder) to the folder. */
  async catalog(caller: Caller, id: string | null): Promise<FileCatalogResponse> {
    if (id === null) return { path: [] };
    const { row, share } = await this.access.entry(caller, id);
    if (row.is_dir !== 1) throw new AppError(ERRORS.NOT_FOUND);
    const chain = await this.files.pathTo(caller.tenantId, id);
    // Through a share the path starts at the shared folder: nothing of the owner's tree above it shows.
    const from = share ? chain.findIndex((r) => r.id === share.rootId) : 0;
    return { path: chain.slice(Math.max(0, from)).map((r) => ({ id: r.id, name: r.name })) };
  }

  async mkdir(caller: Caller, req: MkdirRequest, now = Date.now()): Promise<FileEntry> {
    const name = validName(req.name);
    const place = await this.access.place(caller, req.parentId, req.category, req.spaceId);
    const row = newEntryRow(caller, place, name, now, { isDir: true });
    actionLog.record({ action: 'file.mkdir', targets: [fileTarget(row)], detail: placeDetail(place) });
    try {
      await this.files.insert(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError(ERRORS.NAME_CONFLICT);
      throw err;
    }
    return this.decorator.one(caller, row);
  }

  async rename(caller: Caller, req: RenameRequest, now = Date.now()): Promise<FileEntry> {
    const name = validName(req.name);
    const [target] = await this.access.modifiable(caller, [req.id], { shareEdit: 'rename' });
    const row = target!.row;
    actionLog.record({ action: 'file.rename', targets: [fileTarget(row)], detail: { from: row.name, to: name } });
    if (row.name === name) return this.decorator.one(caller, row);
    // x.txt renamed x.exe is an .exe: the tenant's blocked types hold on rename as on upload.
    if (row.is_dir === 0) await this.types.assertAllowedType(caller.tenantId, name);
    try {
      await this.files.rename(caller.tenantId, row.id, name, nameKeyOf(name), now);
    } catch (err) {
      // The unique index refuses the update: the row keeps its old name.
      if (isUniqueViolation(err)) throw new AppError(ERRORS.NAME_CONFLICT);
      throw err;
    }
    return this.decorator.one(caller, { ...row, name, name_key: nameKeyOf(name), updated_at: now });
  }
}

/** Where a new entry went, for the action log: its folder (null = a category root), category and space. */
export function placeDetail(place: Place): Record<string, unknown> {
  return { parentId: place.parentId, parentName: place.folder?.name ?? null, category: place.category, spaceId: place.spaceId };
}

/** Folder-picker levels are short in practice; this bounds a pathological one. */
const DIR_LIST_LIMIT = 2000;

/** A new live row at a place, owned by the caller (category and space come from the place). */
export function newEntryRow(caller: Caller, place: Place, name: string, now: number, opts: { isDir: boolean; size?: number; blobId?: string | null }): FilesTable {
  return {
    id: newId(),
    tenant_id: caller.tenantId,
    owner_id: caller.userId,
    parent_id: place.parentId,
    category: place.category,
    name,
    name_key: nameKeyOf(name),
    sort_key: nameSortKey(name),
    is_dir: opts.isDir ? 1 : 0,
    size: opts.size ?? 0,
    blob_id: opts.blobId ?? null,
    created_at: now,
    updated_at: now,
    space_id: place.spaceId,
  };
}
