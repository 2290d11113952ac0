import { sql, type Kysely } from 'kysely';
import { SHARE_PERMISSION_RANK, type SharePermission } from '../../common/api/sharing';
import type { Database, SharesTable } from '../db/schema';

/**
 * Who a caller is for shares: themself, every department from theirs up to the top (a share with a
 * department reaches its sub-departments), every group space they belong to.
 */
export interface Audience {
  tenantId: string;
  userId: string;
  deptIds: string[];
  groupIds: string[];
}

/** What shares in force give a caller on one entry (the strongest of them, and the topmost root). */
export interface Grant {
  permission: SharePermission;
  /** The topmost shared entry at or above the entry: what the caller may see of the tree. */
  rootId: string;
  /** The owner of the strongest share (ties: the topmost). */
  sharedBy: string;
  sharedAt: number;
  /** When the strongest share ends; null = until revoked. */
  expiresAt: number | null;
}

/** Works on the database or inside a transaction (content-replacement checks in the writer's transaction). */
type Conn = Kysely<Database>;

/** The caller's audience: two queries (the department chain, the groups). */
export async function audienceOf(db: Conn, tenantId: string, userId: string): Promise<Audience> {
  const depts = await sql<{ id: string }>`
    with recursive chain(id, parent_id, depth) as (
      select d.id, d.parent_id, 0 from departments d
        join users u on u.department_id = d.id
        where u.id = ${userId} and u.tenant_id = ${tenantId} and d.tenant_id = ${tenantId}
      union all
      select d.id, d.parent_id, chain.depth + 1 from departments d join chain on d.id = chain.parent_id
        where d.tenant_id = ${tenantId} and chain.depth < 64
    )
    select id from chain`.execute(db);
  const groups = await db
    .selectFrom('space_members as m')
    .innerJoin('spaces as s', 's.id', 'm.space_id')
    .select('s.id')
    .where('m.user_id', '=', userId)
    .where('s.tenant_id', '=', tenantId)
    .where('s.kind', '=', 'group')
    .execute();
  return { tenantId, userId, deptIds: depts.rows.map((r) => r.id), groupIds: groups.map((g) => g.id) };
}

/** Shares in force that reach this audience, restricted to `fileIds` (one indexed query per 500 ids). */
export async function sharesReaching(db: Conn, audience: Audience, fileIds: readonly string[], now: number): Promise<SharesTable[]> {
  const out: SharesTable[] = [];
  const unique = [...new Set(fileIds)];
  for (let i = 0; i < unique.length; i += 500) {
    const part = unique.slice(i, i + 500);
    const rows = await db
      .selectFrom('shares as s')
      .innerJoin('users as o', 'o.id', 's.owner_id')
      .selectAll('s')
      .where('s.file_id', 'in', part)
      .where('s.revoked_at', 'is', null)
      .where('s.tenant_id', '=', audience.tenantId)
      .where('s.owner_id', '!=', audience.userId)
      // A deleted account's shares end with it.
      .where('o.deleted_at', 'is', null)
      .where((eb) => eb.or([eb('s.expires_at', 'is', null), eb('s.expires_at', '>', now)]))
      .where((eb) => recipientMatch(eb, audience))
      .execute();
    out.push(...rows);
  }
  return out;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's expression builder for the 's' alias
function recipientMatch(eb: any, audience: Audience) {
  const terms = [eb.and([eb('s.recipient_type', '=', 'user'), eb('s.recipient_id', '=', audience.userId)])];
  if (audience.deptIds.length > 0) terms.push(eb.and([eb('s.recipient_type', '=', 'dept'), eb('s.recipient_id', 'in', audience.deptIds)]));
  if (audience.groupIds.length > 0) terms.push(eb.and([eb('s.recipient_type', '=', 'group'), eb('s.recipient_id', 'in', audience.groupIds)]));
  return eb.or(terms);
}

/**
 * Ancestor chains (each entry itself included, nearest first) of live entries of the tenant: entry
 * id → ids from the entry up to its top. One recursive query.
 */
export async function ancestorChains(db: Conn, tenantId: string, ids: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  const list = sql.join([...new Set(ids)].map((i) => sql`${i}`));
  const result = await sql<{ start: string; id: string; depth: number }>`
    with recursive chain(start, id, parent_id, depth) as (
      select id, id, parent_id, 0 from files where id in (${list}) and tenant_id = ${tenantId} and deleted_at is null
      union all
      select chain.start, f.id, f.parent_id, chain.depth + 1 from files f join chain on f.id = chain.parent_id
        where f.tenant_id = ${tenantId} and f.deleted_at is null and chain.depth < 1000
    )
    select start, id, depth from chain order by start, depth`.execute(db);
  for (const r of result.rows) (out.get(r.start) ?? out.set(r.start, []).get(r.start)!).push(r.id);
  return out;
}

/**
 * The grants shares in force give the audience on these entries (entries without one are absent):
 * the strongest permission over the shares of the entry and its ancestors, and the topmost shared
 * ancestor as root. Two queries whatever the number of entries.
 */
export async function grantsOn(db: Conn, audience: Audience, ids: readonly string[], now: number): Promise<Map<string, Grant>> {
  const chains = await ancestorChains(db, audience.tenantId, ids);
  const all = [...new Set([...chains.values()].flat())];
  const shares = await sharesReaching(db, audience, all, now);
  const byFile = new Map<string, SharesTable[]>();
  for (const s of shares) (byFile.get(s.file_id) ?? byFile.set(s.file_id, []).get(s.file_id)!).push(s);
  const out = new Map<string, Grant>();
  for (const [id, chain] of chains) {
    const grant = grantFromChain(chain, byFile);
    if (grant) out.set(id, grant);
  }
  return out;
}

/** The grant of one entry given its ancestor chain (nearest first) and the shares reaching the caller by entry. */
export function grantFromChain(chain: readonly string[], byFile: ReadonlyMap<string, readonly SharesTable[]>): Grant | null {
  let best: SharesTable | null = null;
  let rootId: string | null = null;
  for (const fileId of chain) {
    for (const s of byFile.get(fileId) ?? []) {
      rootId = fileId;
      if (!best || SHARE_PERMISSION_RANK[s.permission] >= SHARE_PERMISSION_RANK[best.permission]) best = s;
    }
  }
  if (!best || !rootId) return null;
  return { permission: best.permission, rootId, sharedBy: best.owner_id, sharedAt: Number(best.created_at), expiresAt: best.expires_at === null ? null : Number(best.expires_at) };
}

/** The grant look-ups the access checks use (server/services/space-access.ts). */
export class ShareGrantRepository {
  constructor(private readonly db: Conn) {}

  audience(tenantId: string, userId: string): Promise<Audience> {
    return audienceOf(this.db, tenantId, userId);
  }

  async grants(tenantId: string, userId: string, ids: readonly string[], now = Date.now()): Promise<Map<string, Grant>> {
    if (ids.length === 0) return new Map();
    return grantsOn(this.db, await this.audience(tenantId, userId), ids, now);
  }

  /** Ancestor chains of live entries, each nearest first (itself included). */
  ancestors(tenantId: string, ids: readonly string[]): Promise<Map<string, string[]>> {
    return ancestorChains(this.db, tenantId, ids);
  }

  /** Shares in force reaching the caller directly on these entries (not their ancestors). */
  async direct(audience: Audience, ids: readonly string[], now = Date.now()): Promise<SharesTable[]> {
    return sharesReaching(this.db, audience, ids, now);
  }
}
