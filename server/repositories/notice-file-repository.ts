import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { FilesTable } from '../db/schema';

export interface EntryWithSpace extends FilesTable {
  space_kind: 'group' | 'public' | null;
}

/**
 * What the notices need to know about files and people: where entries are, who may see them, who
 * follows them, and who the recipients are. Read-only.
 */
export class NoticeFileRepository {
  constructor(private readonly db: Db) {}

  /** Entries of the tenant by id, live or in the recycle bin, with their space's kind. */
  async entries(tenantId: string, ids: readonly string[]): Promise<EntryWithSpace[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('files as f')
      .leftJoin('spaces as s', 's.id', 'f.space_id')
      .selectAll('f')
      .select('s.kind as space_kind')
      .where('f.tenant_id', '=', tenantId)
      .where('f.id', 'in', [...ids])
      .execute();
    return rows as EntryWithSpace[];
  }

  /** The spaces among these that the user belongs to. */
  async memberOf(userId: string, spaceIds: readonly string[]): Promise<Set<string>> {
    if (spaceIds.length === 0) return new Set();
    const rows = await this.db.selectFrom('space_members').select('space_id').where('user_id', '=', userId).where('space_id', 'in', [...spaceIds]).execute();
    return new Set(rows.map((r) => r.space_id));
  }

  /** Every member of these group spaces, by space. */
  async spaceMembers(spaceIds: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (spaceIds.length === 0) return out;
    const rows = await this.db.selectFrom('space_members').select(['space_id', 'user_id']).where('space_id', 'in', [...spaceIds]).execute();
    for (const r of rows) out.set(r.space_id, [...(out.get(r.space_id) ?? []), r.user_id]);
    return out;
  }

  /** Who has each entry, or a folder above it, in 我的收藏 (following a folder follows what is in it). */
  async followers(tenantId: string, fileIds: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (fileIds.length === 0) return out;
    const rows = await sql<{ file_id: string; user_id: string }>`with recursive anc(file_id, id, depth) as (
        select id, id, 0 from files where tenant_id = ${tenantId} and id in (${sql.join([...fileIds])})
        union all
        select anc.file_id, f.parent_id, anc.depth + 1 from anc join files f on f.id = anc.id
        where f.parent_id is not null and anc.depth < 64
      ) select distinct anc.file_id, fav.user_id from anc join favorites fav on fav.file_id = anc.id`.execute(this.db);
    for (const r of rows.rows) out.set(r.file_id, [...(out.get(r.file_id) ?? []), r.user_id]);
    return out;
  }

  /** Live accounts of the tenant among these ids, with their roles. */
  async liveUsers(tenantId: string, ids: readonly string[]): Promise<Map<string, { role: string; name: string }>> {
    const out = new Map<string, { role: string; name: string }>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 1000) {
      const rows = await this.db
        .selectFrom('users')
        .select(['id', 'role', 'nick_name', 'username'])
        .where('tenant_id', '=', tenantId)
        .where('deleted_at', 'is', null)
        .where('id', 'in', unique.slice(i, i + 1000))
        .execute();
      for (const r of rows) out.set(r.id, { role: r.role, name: r.nick_name || r.username });
    }
    return out;
  }

  async userName(id: string): Promise<string> {
    const row = await this.db.selectFrom('users').select(['nick_name', 'username']).where('id', '=', id).executeTakeFirst();
    return row ? row.nick_name || row.username : '';
  }

  async usage(userId: string): Promise<{ tenantId: string; used: number; quota: number } | undefined> {
    const row = await this.db.selectFrom('users').select(['tenant_id', 'used_size', 'quota']).where('id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
    return row ? { tenantId: row.tenant_id, used: Number(row.used_size), quota: Number(row.quota) } : undefined;
  }


  async spaceName(tenantId: string, id: string): Promise<string> {
    const row = await this.db.selectFrom('spaces').select('name').where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
    return row?.name ?? '';
  }
}
