import { ERRORS } from '../../common/api/errors';
import type {
  FileCatalogResponse,
  FileEntry,
  FileListRequest,
  FileListResponse,
  FileSortField,
  MkdirRequest,
  RenameRequest,
} from '../../common/api/types';
import { FILE_LIST_DEFAULT_PAGE_SIZE, FILE_LIST_MAX_PAGE_SIZE } from '../../common/api/types';
import { fileKindOf } from '../../common/files/kind';
import { checkFileName } from '../../common/validation/names';
import { isUniqueViolation } from '../db/database';
import type { FilesTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import type { FileRepository, ListPosition, OwnerScope, SortColumn } from '../repositories/file-repository';
import type { Caller } from './caller';

const SORT_COLUMNS: Record<FileSortField, SortColumn> = { name: 'name_key', size: 'size', updatedAt: 'updated_at' };

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

/** Names are compared case-insensitively (also in the unique index). */
export const nameKeyOf = (name: string): string => name.toLowerCase();

/** Checks a name with the shared rule and returns it trimmed (what is stored). */
export function validName(raw: string): string {
  const problem = checkFileName(raw);
  if (problem) throw new AppError({ ...problem, status: 400 });
  return raw.trim();
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
  constructor(private readonly files: FileRepository) {}

  /** The caller's folder with this id in this category, else 404 (others' ids look unknown). */
  async requireFolder(caller: Caller, id: string, category?: number): Promise<FilesTable> {
    const row = await this.files.findOwned(scopeOf(caller), id);
    if (!row || row.is_dir !== 1 || (category !== undefined && row.category !== category)) {
      throw new AppError(ERRORS.NOT_FOUND);
    }
    return row;
  }

  /** Where a new entry may go: null (root) or the caller's folder in the same category. */
  async requireParent(caller: Caller, parentId: string | null, category: number): Promise<void> {
    if (parentId === null) return;
    const row = await this.files.findOwned(scopeOf(caller), parentId);
    if (!row || row.category !== category) throw new AppError(ERRORS.NOT_FOUND);
    if (row.is_dir !== 1) throw new AppError(ERRORS.PARENT_NOT_FOLDER);
  }

  async list(caller: Caller, req: FileListRequest): Promise<FileListResponse> {
    if (req.parentId !== null) await this.requireFolder(caller, req.parentId, req.category);
    const sortField = req.sortField ?? 'name';
    const descending = req.sortOrder === 'desc';
    const sortKey = `${sortField}:${descending ? 'desc' : 'asc'}`;
    const pageSize = Math.min(req.pageSize ?? FILE_LIST_DEFAULT_PAGE_SIZE, FILE_LIST_MAX_PAGE_SIZE);
    const column = SORT_COLUMNS[sortField];
    // One extra row tells whether another page exists without a COUNT query.
    const rows = await this.files.list(scopeOf(caller), {
      parentId: req.parentId,
      category: req.category,
      column,
      descending,
      after: req.cursor ? decodeCursor(req.cursor, sortKey) : null,
      limit: pageSize + 1,
    });
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    const nextCursor =
      rows.length > pageSize && last ? encodeCursor({ s: sortKey, isDir: last.is_dir, value: last[column], id: last.id }) : null;
    return { items: page.map((r) => toFileEntry(r)), nextCursor };
  }

  async catalog(caller: Caller, id: string | null): Promise<FileCatalogResponse> {
    if (id === null) return { path: [] };
    await this.requireFolder(caller, id);
    return { path: await this.files.pathTo(scopeOf(caller), id) };
  }

  async mkdir(caller: Caller, req: MkdirRequest, now = Date.now()): Promise<FileEntry> {
    const name = validName(req.name);
    await this.requireParent(caller, req.parentId, req.category);
    const row: FilesTable = {
      id: newId(),
      tenant_id: caller.tenantId,
      owner_id: caller.userId,
      parent_id: req.parentId,
      category: req.category,
      name,
      name_key: nameKeyOf(name),
      is_dir: 1,
      size: 0,
      blob_id: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.files.insert(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError(ERRORS.NAME_CONFLICT);
      throw err;
    }
    return toFileEntry(row);
  }

  async rename(caller: Caller, req: RenameRequest, now = Date.now()): Promise<FileEntry> {
    const name = validName(req.name);
    const scope = scopeOf(caller);
    const row = await this.files.findOwned(scope, req.id);
    if (!row) throw new AppError(ERRORS.NOT_FOUND);
    if (row.name === name) return toFileEntry(row);
    try {
      await this.files.rename(scope, row.id, name, nameKeyOf(name), now);
    } catch (err) {
      // The unique index refuses the update: the row keeps its old name.
      if (isUniqueViolation(err)) throw new AppError(ERRORS.NAME_CONFLICT);
      throw err;
    }
    return toFileEntry({ ...row, name, name_key: nameKeyOf(name), updated_at: now });
  }
}
