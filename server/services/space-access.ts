import { byteVerdict } from '../../common/api/byte-access';
import { ERRORS } from '../../common/api/errors';
import { nameSortKey } from '../../common/files/name-sort-key';
import { PUBLIC_SPACE_ID, SPACE_CATEGORY, type SpaceRole } from '../../common/api/types';
import { spaceAllows, spaceMayModify, type SpaceAction } from '../../common/files/space-roles';
import { isUniqueViolation } from '../db/database';
import type { FilesTable, SpacesTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import type { FileRepository, ListParent } from '../repositories/file-repository';
import type { Grant, ShareGrantRepository } from '../repositories/share-grants';
import type { SpaceRepository } from '../repositories/space-repository';
import type { Caller } from './caller';

/** A space the caller may see, with their role (null in the public space). */
export interface SpaceAccess {
  space: SpacesTable;
  role: SpaceRole | null;
}

/**
 * An entry the caller may see; `access` is null for the caller's own personal files and for entries
 * reached through a share, which carry `share` (the grant: permission, root, sharer; sharing.ts).
 */
export interface EntryAccess {
  row: FilesTable;
  access: SpaceAccess | null;
  share?: Grant;
}

/** What a change through a share may be (sharing.ts: edit = rename inside, new content). */
export type ShareEdit = 'rename' | 'version';

/** Where new entries go: a folder (any space) or the root of one of the caller's categories. */
export interface Place {
  parent: ListParent;
  parentId: string | null;
  category: number;
  spaceId: string | null;
  /** The target folder row (null at a personal root). */
  folder: FilesTable | null;
  /** In a space: the caller's role there (null in the public space); undefined in personal files. */
  spaceRole?: SpaceRole | null;
}

export const PUBLIC_SPACE_NAME = '公共空间';

/**
 * Every id a request names goes through here: it must belong to the caller's tenant AND be in a
 * space the caller may use (their own personal files, the public space, a group they belong to;
 * admins: every space of their tenant but never others' personal files). Anything else answers 404,
 * exactly like an id that does not exist.
 */
export class AccessService {
  constructor(
    private readonly files: FileRepository,
    private readonly spaces: SpaceRepository,
    /** Shares: entries others shared with the caller (absent = no sharing, e.g. in unit setups). */
    private readonly shares?: ShareGrantRepository,
  ) {}

  /** The space behind an id (PUBLIC_SPACE_ID = the tenant's public space, created on first use). */
  async space(caller: Caller, spaceId: string, action: SpaceAction = 'read'): Promise<SpaceAccess> {
    const space = spaceId === PUBLIC_SPACE_ID ? await this.publicSpace(caller) : await this.spaces.find(caller.tenantId, spaceId);
    if (!space) throw new AppError(ERRORS.NOT_FOUND);
    const role = space.kind === 'public' ? null : await this.spaces.roleOf(space.id, caller.userId);
    const isAdmin = caller.role === 'admin';
    if (space.kind === 'group' && role === null && !isAdmin) throw new AppError(ERRORS.NOT_FOUND);
    if (!spaceAllows(role, action, isAdmin)) throw new AppError(ERRORS.FORBIDDEN);
    return { space, role };
  }

  async publicSpace(caller: Caller, now = Date.now()): Promise<SpacesTable> {
    const existing = await this.spaces.findPublic(caller.tenantId);
    if (existing) return existing;
    const spaceId = newId();
    const root = spaceRoot(caller, spaceId, PUBLIC_SPACE_NAME, now);
    try {
      await this.spaces.create(
        { id: spaceId, tenant_id: caller.tenantId, kind: 'public', name: PUBLIC_SPACE_NAME, name_key: 'public', root_id: root.id, created_by: caller.userId, created_at: now },
        root,
        null,
      );
    } catch (err) {
      // Another request created it first: use that one.
      if (!isUniqueViolation(err)) throw err;
    }
    const created = await this.spaces.findPublic(caller.tenantId);
    if (!created) throw new AppError(ERRORS.INTERNAL);
    return created;
  }

  /** An entry the caller may read. Deleted entries only with `allowDeleted` (recycle bin). */
  async entry(caller: Caller, id: string, opts: { allowDeleted?: boolean } = {}): Promise<EntryAccess> {
    const row = await this.files.findInTenant(caller.tenantId, id);
    if (!row) throw new AppError(ERRORS.NOT_FOUND);
    if (row.deleted_at != null && !opts.allowDeleted) throw new AppError(ERRORS.NOT_FOUND);
    try {
      return { row, access: await this.accessTo(caller, row) };
    } catch (err) {
      const share = row.deleted_at == null ? await this.grantOrRethrow(caller, [row], err) : undefined;
      if (!share?.has(row.id)) throw err;
      return { row, access: null, share: share.get(row.id)! };
    }
  }

  /** The grants shares give the caller on rows the usual rules refused; rethrows what is not a 404. */
  private async grantOrRethrow(caller: Caller, rows: readonly FilesTable[], err: unknown): Promise<Map<string, Grant>> {
    if (!(err instanceof AppError) || err.code !== ERRORS.NOT_FOUND.code || !this.shares) throw err;
    return this.shares.grants(caller.tenantId, caller.userId, rows.map((r) => r.id));
  }

  /** Many entries the caller may read, one query (plus one grant look-up for shared ones); any unknown/inaccessible id → 404. */
  async entries(caller: Caller, ids: readonly string[], opts: { allowDeleted?: boolean } = {}): Promise<EntryAccess[]> {
    const unique = [...new Set(ids)];
    const rows = await this.files.findManyInTenant(caller.tenantId, unique);
    if (rows.length !== unique.length) throw new AppError(ERRORS.NOT_FOUND);
    const bySpace = new Map<string, SpaceAccess | null>();
    const out: EntryAccess[] = [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const refused: FilesTable[] = [];
    let firstRefusal: unknown = null;
    for (const id of unique) {
      const row = byId.get(id)!;
      if (row.deleted_at != null && !opts.allowDeleted) throw new AppError(ERRORS.NOT_FOUND);
      try {
        const key = row.space_id ?? '';
        if (row.space_id && !bySpace.has(key)) bySpace.set(key, await this.space(caller, row.space_id));
        out.push({ row, access: row.space_id ? bySpace.get(key)! : await this.accessTo(caller, row) });
      } catch (err) {
        if (row.deleted_at != null) throw err;
        firstRefusal ??= err;
        refused.push(row);
      }
    }
    if (refused.length === 0) return out;
    const grants = await this.grantOrRethrow(caller, refused, firstRefusal);
    for (const row of refused) {
      const share = grants.get(row.id);
      if (!share) throw firstRefusal;
      out.push({ row, access: null, share });
    }
    const order = new Map(unique.map((id, i) => [id, i]));
    return out.sort((a, b) => order.get(a.row.id)! - order.get(b.row.id)!);
  }

  /**
   * The rows the caller may read, in order; others are left out (as if unknown). One role look-up
   * per distinct space, not per row.
   */
  async visible(caller: Caller, rows: readonly FilesTable[]): Promise<FilesTable[]> {
    const spaceOk = new Map<string, boolean>();
    const out: FilesTable[] = [];
    const others: FilesTable[] = [];
    for (const row of rows) {
      if (row.deleted_at != null || row.tenant_id !== caller.tenantId) continue;
      if (!row.space_id) {
        if (row.owner_id === caller.userId) out.push(row);
        else others.push(row);
        continue;
      }
      if (!spaceOk.has(row.space_id)) {
        try {
          await this.space(caller, row.space_id);
          spaceOk.set(row.space_id, true);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          spaceOk.set(row.space_id, false);
        }
      }
      if (spaceOk.get(row.space_id)) out.push(row);
      else others.push(row);
    }
    if (others.length === 0 || !this.shares) return out;
    // Entries others share with the caller: one grant look-up for all of them, the order kept.
    const grants = await this.shares.grants(caller.tenantId, caller.userId, others.map((r) => r.id));
    const keep = new Set([...out, ...others.filter((r) => grants.has(r.id))]);
    return rows.filter((r) => keep.has(r));
  }

  /**
   * Same as `entries`, but each must be modifiable by the caller (role and lock). Through a share
   * only with permission edit and only for `shareEdit` (rename inside the shared tree, new content).
   */
  async modifiable(caller: Caller, ids: readonly string[], opts: { allowDeleted?: boolean; shareEdit?: ShareEdit } = {}): Promise<EntryAccess[]> {
    const list = await this.entries(caller, ids, opts);
    for (const e of list) this.assertMayModify(caller, e, opts.shareEdit);
    return list;
  }

  assertMayModify(caller: Caller, e: EntryAccess, shareEdit?: ShareEdit): void {
    if (e.share) {
      // New content or a rename through a share: the byte decision's 'edit' (common/api/byte-access.ts).
      if (byteVerdict({ via: 'share', permission: e.share.permission }, 'edit') !== 'yes') throw new AppError(ERRORS.FORBIDDEN);
      // The shared entry itself keeps its name: it is the owner's (renaming it would rename their folder).
      if (!shareEdit || (shareEdit === 'rename' && e.row.id === e.share.rootId)) throw new AppError(ERRORS.SHARE_EDIT_LIMITED);
    }
    if (e.access) {
      if (!spaceMayModify(e.access.role, caller.userId, e.row.owner_id, caller.role === 'admin')) throw new AppError(ERRORS.FORBIDDEN);
      // The space's root folder is the space itself: managed through the group calls.
      if (e.row.id === e.access.space.root_id) throw new AppError(ERRORS.FORBIDDEN);
    }
    if (e.row.locked_by && e.row.locked_by !== caller.userId) throw new AppError(ERRORS.LOCKED_BY_OTHER);
  }

  /**
   * A place the caller may create entries in. `spaceId` with a null parent = the space's root;
   * a parent folder may be in any space the caller may write to (category is then the folder's);
   * neither = the root of the caller's category.
   */
  async place(caller: Caller, parentId: string | null, category: number, spaceId?: string | null, opts: { versionOf?: string } = {}): Promise<Place> {
    if (parentId === null && spaceId) {
      const { space } = await this.space(caller, spaceId, 'write');
      parentId = space.root_id;
    }
    if (parentId === null) {
      if (!Number.isInteger(category) || category < 1) throw new AppError(ERRORS.VALIDATION, '文件分类不正确');
      return {
        parent: { kind: 'root', scope: { tenantId: caller.tenantId, ownerId: caller.userId }, category },
        parentId: null,
        category,
        spaceId: null,
        folder: null,
      };
    }
    let found: EntryAccess;
    try {
      found = await this.entry(caller, parentId);
    } catch (err) {
      // A file shared alone: its folder is not the caller's to see, but a new version of it may go there.
      if (opts.versionOf && spaceId == null) return this.versionPlace(caller, parentId, opts.versionOf, err);
      throw err;
    }
    const { row, access, share } = found;
    // Nothing is created inside a share: an entry of a personal tree belongs to its owner (sharing.ts).
    // Only a new version of a file the caller may edit there (the commit refuses anything else).
    if (share) return opts.versionOf && spaceId == null ? this.versionPlace(caller, parentId, opts.versionOf, new AppError(ERRORS.SHARE_EDIT_LIMITED)) : Promise.reject(new AppError(ERRORS.SHARE_EDIT_LIMITED));
    if (spaceId && row.space_id !== (access?.space.id ?? null)) throw new AppError(ERRORS.NOT_FOUND);
    // A personal folder must be in the category asked for (another category's id looks unknown).
    if (!access && spaceId == null && row.category !== category) throw new AppError(ERRORS.NOT_FOUND);
    if (row.is_dir !== 1) throw new AppError(ERRORS.PARENT_NOT_FOLDER);
    if (access && !spaceAllows(access.role, 'write', caller.role === 'admin')) throw new AppError(ERRORS.FORBIDDEN);
    return { parent: { kind: 'folder', parentId: row.id }, parentId: row.id, category: row.category, spaceId: row.space_id ?? null, folder: row, spaceRole: access ? access.role : undefined };
  }

  /**
   * The place of a new version of `name` in a folder of someone else's, when a share gives the caller
   * permission edit on that file; `refusal` otherwise. The upload commit lets nothing but a new version
   * of an existing file into a folder of another owner.
   */
  private async versionPlace(caller: Caller, parentId: string, name: string, refusal: unknown): Promise<Place> {
    const folder = await this.files.findInTenant(caller.tenantId, parentId);
    if (!this.shares || !folder || folder.deleted_at != null || folder.is_dir !== 1) throw refusal;
    const [file] = await this.files.liveNamesAt({ kind: 'folder', parentId }, [name.normalize('NFC').toLowerCase()]);
    if (!file || file.is_dir === 1) throw refusal;
    const grant = (await this.shares.grants(caller.tenantId, caller.userId, [file.id])).get(file.id);
    if (grant?.permission !== 'edit') throw refusal;
    return { parent: { kind: 'folder', parentId }, parentId, category: folder.category, spaceId: folder.space_id ?? null, folder, spaceRole: undefined };
  }

  private async accessTo(caller: Caller, row: FilesTable): Promise<SpaceAccess | null> {
    if (row.space_id) return this.space(caller, row.space_id);
    if (row.owner_id !== caller.userId) throw new AppError(ERRORS.NOT_FOUND);
    return null;
  }
}

/** The root folder row of a new space. Its name_key is unique to the space, so two spaces' roots never clash. */
export function spaceRoot(caller: Caller, spaceId: string, name: string, now: number): FilesTable {
  return {
    id: newId(),
    tenant_id: caller.tenantId,
    owner_id: caller.userId,
    parent_id: null,
    category: SPACE_CATEGORY,
    name,
    name_key: `space:${spaceId}`,
    sort_key: nameSortKey(name),
    is_dir: 1,
    size: 0,
    blob_id: null,
    created_at: now,
    updated_at: now,
    space_id: spaceId,
  };
}
