import type { Db } from '../db/database';
import type { Database, FilesTable, UnprocessedUploadsTable } from '../db/schema';
import { type ExpressionBuilder, sql } from 'kysely';
import type { OwnerScope } from './file-repository';

export interface FolderNames {
  parentId: string | null;
  category: number;
  nameKeys: string[];
}

export type NamedRow = Pick<FilesTable, 'id' | 'parent_id' | 'category' | 'name_key' | 'is_dir' | 'owner_id'> & { locked_by: string | null };

/**
 * The conditions that put a row in one folder (any owner: a group folder holds several owners'
 * entries) or in the root of one of the caller's categories.
 */
function inFolder(eb: ExpressionBuilder<Database, 'files'>, folder: { parentId: string | null; category: number }, ownerId: string) {
  return folder.parentId === null
    ? [eb('owner_id', '=', ownerId), eb('category', '=', folder.category), eb('parent_id', 'is', null)]
    : [eb('parent_id', '=', folder.parentId)];
}

/** Queries behind the pre-upload checks, held items and folder-upload directories. */
export class CheckRepository {
  constructor(private readonly db: Db) {}

  async tenantSettings(tenantId: string): Promise<{ blockedExtensions: string[] | null; sensitiveKeywords: string[] | null }> {
    const row = await this.db.selectFrom('tenant_settings').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
    return {
      blockedExtensions: row?.blocked_extensions ? (JSON.parse(row.blocked_extensions) as string[]) : null,
      sensitiveKeywords: row?.sensitive_keywords ? (JSON.parse(row.sensitive_keywords) as string[]) : null,
    };
  }

  async saveTenantSettings(tenantId: string, blockedExtensions: string[] | null, sensitiveKeywords: string[] | null): Promise<void> {
    const values = {
      tenant_id: tenantId,
      blocked_extensions: blockedExtensions ? JSON.stringify(blockedExtensions) : null,
      sensitive_keywords: sensitiveKeywords ? JSON.stringify(sensitiveKeywords) : null,
    };
    await this.db
      .insertInto('tenant_settings')
      .values(values)
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ blocked_extensions: values.blocked_extensions, sensitive_keywords: values.sensitive_keywords }))
      .execute();
  }

  /** The caller's own entries in `files`; callers add the columns and further conditions. */
  private ownedFiles(scope: OwnerScope) {
    // Entries in the recycle bin neither clash nor serve as folders.
    return this.liveFiles(scope).where('owner_id', '=', scope.ownerId);
  }

  /** Live entries of the tenant (folder conditions narrow them to one folder, see inFolder). */
  private liveFiles(scope: OwnerScope) {
    return this.db.selectFrom('files').where('tenant_id', '=', scope.tenantId).where('deleted_at', 'is', null);
  }

  /** Entries with these names in these folders, one query for the whole batch. */
  async findByNames(scope: OwnerScope, groups: FolderNames[]): Promise<NamedRow[]> {
    const nonEmpty = groups.filter((g) => g.nameKeys.length > 0);
    if (nonEmpty.length === 0) return [];
    const rows = await this.liveFiles(scope)
      .select(['id', 'parent_id', 'category', 'name_key', 'is_dir', 'owner_id', 'locked_by'])
      .where((eb) => eb.or(nonEmpty.map((g) => eb.and([...inFolder(eb, g, scope.ownerId), eb('name_key', 'in', g.nameKeys)]))))
      .execute();
    return rows.map((r) => ({ ...r, locked_by: r.locked_by ?? null }));
  }

  /** Taken names matching LIKE patterns (numbered variants) in these folders, one query. */
  async namesLike(scope: OwnerScope, groups: Array<{ parentId: string | null; category: number; patterns: string[] }>) {
    const nonEmpty = groups.filter((g) => g.patterns.length > 0);
    if (nonEmpty.length === 0) return [];
    return this.liveFiles(scope)
      .select(['parent_id', 'category', 'name_key'])
      .where((eb) =>
        eb.or(nonEmpty.map((g) => eb.and([...inFolder(eb, g, scope.ownerId), eb.or(g.patterns.map((p) => sql<boolean>`name_key like ${p} escape '\\'`))]))),
      )
      .execute();
  }

  /**
   * Creates missing folders of a tree in one transaction, parents before children, reusing existing
   * ones. Returns path → folder id, or null when a FILE of some segment's name is in the way.
   */
  async ensureFolderTree(
    nodes: Array<{ path: string; parentPath: string | null; name: string }>,
    makeRow: (name: string, parentId: string | null) => FilesTable,
    rootParentId: string | null,
  ): Promise<Map<string, string> | null> {
    const conflict = new Error('a file is in the way');
    try {
      return await this.db.transaction().execute(async (tx) => {
      const ids = new Map<string, string>();
      for (const node of nodes) {
        const parentId = node.parentPath === null ? rootParentId : ids.get(node.parentPath)!;
        const row = makeRow(node.name, parentId);
        const found = await tx
          .selectFrom('files')
          .select(['id', 'is_dir'])
          .where('tenant_id', '=', row.tenant_id)
          .where((eb) => eb.and(inFolder(eb, { parentId, category: row.category }, row.owner_id)))
          .where('name_key', '=', row.name_key)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (found && found.is_dir !== 1) throw conflict; // rolls back every folder created so far
        if (found) {
          ids.set(node.path, found.id);
        } else {
          await tx.insertInto('files').values(row).execute();
          ids.set(node.path, row.id);
        }
      }
      return ids;
      });
    } catch (err) {
      if (err === conflict) return null;
      throw err;
    }
  }

  /** Records held items; re-checking a key makes it undecided again with the new details. */
  async upsertUnprocessed(rows: UnprocessedUploadsTable[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.transaction().execute(async (tx) => {
      for (let i = 0; i < rows.length; i += 200) {
        await tx
          .insertInto('unprocessed_uploads')
          .values(rows.slice(i, i + 200))
          .onConflict((oc) =>
            oc.columns(['user_id', 'upload_key']).doUpdateSet((eb) => ({
              name: eb.ref('excluded.name'),
              parent_id: eb.ref('excluded.parent_id'),
              category: eb.ref('excluded.category'),
              reason: eb.ref('excluded.reason'),
              created_at: eb.ref('excluded.created_at'),
              decided_at: null,
              decision: null,
            })),
          )
          .execute();
      }
    });
  }

  /** Marks an entry decided; false when the user has no entry with that key. */
  /** Records the decision on a held item; its name and reason (for the action log), or undefined when unknown. */
  decide(userId: string, key: string, decision: string, now: number): Promise<Pick<UnprocessedUploadsTable, 'name' | 'reason'> | undefined> {
    return this.db
      .updateTable('unprocessed_uploads')
      .set({ decision, decided_at: now })
      .where('user_id', '=', userId)
      .where('upload_key', '=', key)
      .returning(['name', 'reason'])
      .executeTakeFirst();
  }

  listUndecided(userId: string, limit: number): Promise<UnprocessedUploadsTable[]> {
    return this.db
      .selectFrom('unprocessed_uploads')
      .selectAll()
      .where('user_id', '=', userId)
      .where('decided_at', 'is', null)
      .orderBy('created_at')
      .orderBy('upload_key')
      .limit(limit)
      .execute();
  }
}
