import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database';
import type { ActionLogHeadsTable, ActionLogTable, Database } from '../db/schema';
import { BROKEN_HEAD_MARK, brokenHeadMark, chainHash, GENESIS_HASH, headMac, headMacMatches } from '../services/action-log/chain';
import { analyzeTable, forUpdate } from '../db/dialect';
import { countActions } from './usage-stats-repository';

/** A row as the recorder builds it; seq and the hashes are given by the chain when it is appended. */
export type NewActionRow = Omit<ActionLogTable, 'seq' | 'prev_hash' | 'hash'>;

/** Multi-row inserts stay well below SQLite's bound-parameter limit (21 columns per row). */
const INSERT_ROWS = 400;

/**
 * Appends rows to their tenants' chains inside the caller's transaction.
 *
 * The tail is claimed before it is read: `UPDATE heads SET seq = seq + n … RETURNING` takes the row
 * lock in PostgreSQL (a second writer of the same tenant waits until this transaction ends, then
 * sees the new tail) and SQLite's write lock (one writer at a time for the whole database). So the
 * previous hash a row is chained to is always the committed tail, whatever the number of writers.
 * The head's MAC (chain.ts headMac) is checked and written with its new tail in the same
 * transaction: two HMACs per tenant and batch. A head whose MAC does not hold (moved without the key)
 * is still extended — the actions must be recorded — but never sealed: it keeps a broken mark
 * (chain.ts brokenHeadMark), and `onBrokenHead` hears of it the first time.
 */
export async function appendToChains(
  tx: Transaction<Database>,
  key: Buffer,
  rows: readonly NewActionRow[],
  onBrokenHead?: (tenantId: string, seq: number) => void,
): Promise<ActionLogTable[]> {
  const byTenant = new Map<string, NewActionRow[]>();
  for (const row of rows) {
    const list = byTenant.get(row.tenant_id);
    if (list) list.push(row);
    else byTenant.set(row.tenant_id, [row]);
  }
  const written: ActionLogTable[] = [];
  for (const [tenantId, list] of byTenant) {
    const claim = () =>
      tx
        .updateTable('action_log_heads')
        .set((eb) => ({ seq: eb('seq', '+', list.length) }))
        .where('tenant_id', '=', tenantId)
        .returning(['seq', 'hash', 'anchor_seq', 'anchor_hash', 'mac'])
        .executeTakeFirst();
    let head = await claim();
    if (!head) {
      await tx
        .insertInto('action_log_heads')
        .values({ ...GENESIS_HEAD(tenantId), mac: headMac(key, GENESIS_HEAD(tenantId)) })
        .onConflict((oc) => oc.column('tenant_id').doNothing())
        .execute();
      head = await claim();
      if (!head) throw new Error(`action log head of tenant '${tenantId}' could not be claimed`);
    }
    let seq = Number(head.seq) - list.length;
    const holds = headMacMatches(key, { tenant_id: tenantId, seq, hash: head.hash, anchor_seq: head.anchor_seq, anchor_hash: head.anchor_hash, mac: head.mac });
    if (!holds && !head.mac?.startsWith(BROKEN_HEAD_MARK)) onBrokenHead?.(tenantId, seq);
    const marked = holds ? null : brokenHeadMark(head.mac, seq);
    let prev = head.hash;
    const chained = list.map((r) => {
      seq += 1;
      const row = { ...r, seq, prev_hash: prev };
      const hash = chainHash(key, row);
      prev = hash;
      return { ...row, hash };
    });
    for (let i = 0; i < chained.length; i += INSERT_ROWS) {
      await tx.insertInto('action_log').values(chained.slice(i, i + INSERT_ROWS)).execute();
    }
    const mac = marked ?? headMac(key, { tenant_id: tenantId, seq, hash: prev, anchor_seq: head.anchor_seq, anchor_hash: head.anchor_hash });
    await tx.updateTable('action_log_heads').set({ hash: prev, mac }).where('tenant_id', '=', tenantId).execute();
    written.push(...chained);
  }
  return written;
}

const GENESIS_HEAD = (tenantId: string) => ({ tenant_id: tenantId, seq: 0, hash: GENESIS_HASH, anchor_seq: 0, anchor_hash: GENESIS_HASH });

/** A position in the (at, seq) descending order of a tenant's log. */
export interface LogPosition {
  at: number;
  seq: number;
}

/** Filters an index serves (each has an index ending in (at, seq)): at most one of actor/action/dept/outcome. */
export interface IndexedFilter {
  tenantId: string;
  from?: number;
  to?: number;
  actorId?: string;
  action?: string;
  deptId?: string;
  outcome?: 'ok' | 'refused';
}

/** Filters checked row by row inside a bounded window of the indexed order. */
export interface ScannedFilter {
  /** NFC lower case; matched as a substring of any target's name. */
  nameKey?: string;
  account?: string;
  actorId?: string;
  outcome?: 'ok' | 'refused';
  actions?: readonly string[];
  deptIds?: readonly string[];
}

function likePattern(fragment: string): string {
  return `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class ActionLogRepository {
  constructor(
    private readonly db: Db,
    private readonly key: Buffer,
    /** Told when a write finds a head whose MAC does not hold (the server logs it). */
    private readonly onBrokenHead?: (tenantId: string, seq: number) => void,
  ) {}

  async append(rows: readonly NewActionRow[]): Promise<ActionLogTable[]> {
    if (rows.length === 0) return [];
    return this.db.transaction().execute(async (tx) => {
      const written = await appendToChains(tx, this.key, rows, this.onBrokenHead);
      // 工作台 and 统计报表's aggregates, in the same transaction: they never disagree with the log.
      await countActions(tx, rows);
      return written;
    });
  }

  /** Nick names and departments of the actors of a batch, as they are now (the time of the action), in one query. */
  async actorFacts(userIds: readonly string[]): Promise<Map<string, { nickName: string; departmentId: string | null }>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('users').select(['id', 'nick_name', 'department_id']).where('id', 'in', userIds).execute();
    return new Map(rows.map((r) => [r.id, { nickName: r.nick_name, departmentId: r.department_id ?? null }]));
  }

  /** Names of a tenant's departments (the export shows them). */
  async departmentNames(tenantId: string): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('departments').select(['id', 'name']).where('tenant_id', '=', tenantId).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** The indexed part of a page query: tenant, time range, one indexed filter, the keyset position. */
  indexedQuery(f: IndexedFilter, after: LogPosition | null) {
    let q = this.db.selectFrom('action_log').where('tenant_id', '=', f.tenantId);
    if (f.actorId !== undefined) q = q.where('actor_id', '=', f.actorId);
    if (f.action !== undefined) q = q.where('action', '=', f.action);
    if (f.deptId !== undefined) q = q.where('dept_id', '=', f.deptId);
    // A literal, so SQLite can use the partial index action_log_refused.
    if (f.outcome === 'refused') q = q.where(sql<boolean>`outcome = 'refused'`);
    if (f.outcome === 'ok') q = q.where('outcome', '=', 'ok');
    if (f.from !== undefined) q = q.where('at', '>=', f.from);
    // A cursor inside the range replaces the upper bound: the index then seeks to the cursor instead
    // of walking from `to` down to it (a deep page would cost its depth).
    if (f.to !== undefined && !(after && after.at < f.to)) q = q.where('at', '<', f.to);
    if (after) q = q.where(sql<boolean>`(at, seq) < (${after.at}, ${after.seq})`);
    return q;
  }

  /** One page in (at, seq) descending order, every filter served by an index. */
  pageQuery(f: IndexedFilter, after: LogPosition | null, limit: number) {
    return this.indexedQuery(f, after).selectAll().orderBy('at', 'desc').orderBy('seq', 'desc').limit(limit);
  }

  /**
   * Rows of the next `window` rows of the indexed order that also pass the scanned filters (file
   * name, account, several actions or departments): the cost is bounded by the window whatever
   * the filters match, and the caller continues from the window's end.
   */
  windowQuery(f: IndexedFilter, s: ScannedFilter, after: LogPosition | null, window: number, limit: number) {
    const inner = this.indexedQuery(f, after).selectAll().orderBy('at', 'desc').orderBy('seq', 'desc').limit(window);
    let q = this.db.selectFrom(inner.as('w')).selectAll();
    if (s.nameKey) q = q.where(sql<boolean>`names_key like ${likePattern(s.nameKey)} escape '\\'`);
    if (s.account !== undefined) q = q.where('actor_account', '=', s.account);
    if (s.actorId !== undefined) q = q.where('actor_id', '=', s.actorId);
    if (s.outcome !== undefined) q = q.where('outcome', '=', s.outcome);
    if (s.actions && s.actions.length > 0) q = q.where('action', 'in', s.actions);
    if (s.deptIds && s.deptIds.length > 0) q = q.where('dept_id', 'in', s.deptIds);
    return q.orderBy('at', 'desc').orderBy('seq', 'desc').limit(limit);
  }

  /** The last position of a full window (null when the window reaches the end of the filtered order). */
  windowEndQuery(f: IndexedFilter, after: LogPosition | null, window: number) {
    return this.indexedQuery(f, after).select(['at', 'seq']).orderBy('at', 'desc').orderBy('seq', 'desc').limit(1).offset(window - 1);
  }

  page(f: IndexedFilter, after: LogPosition | null, limit: number): Promise<ActionLogTable[]> {
    return this.pageQuery(f, after, limit).execute();
  }

  windowPage(f: IndexedFilter, s: ScannedFilter, after: LogPosition | null, window: number, limit: number): Promise<ActionLogTable[]> {
    return this.windowQuery(f, s, after, window, limit).execute();
  }

  async windowEnd(f: IndexedFilter, after: LogPosition | null, window: number): Promise<LogPosition | null> {
    const row = await this.windowEndQuery(f, after, window).executeTakeFirst();
    return row ? { at: Number(row.at), seq: Number(row.seq) } : null;
  }

  /**
   * Refreshes the planner's statistics of the log (SQLite: a sampled ANALYZE, milliseconds even on
   * millions of rows). With them SQLite picks the index of the filter (operator, action…) over the
   * time index; without them its guesses can walk every row of a time range. PostgreSQL keeps its
   * statistics itself (autovacuum), so there this is SQLite's only.
   */
  async refreshStatistics(): Promise<void> {
    await analyzeTable(this.db, 'action_log');
  }

  heads(): Promise<ActionLogHeadsTable[]> {
    return this.db.selectFrom('action_log_heads').selectAll().orderBy('tenant_id').execute();
  }

  head(tenantId: string): Promise<ActionLogHeadsTable | undefined> {
    return this.db.selectFrom('action_log_heads').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
  }

  /** Rows of one chain in seq order after `afterSeq` (the verify walk). */
  chainRows(tenantId: string, afterSeq: number, limit: number): Promise<ActionLogTable[]> {
    return this.db
      .selectFrom('action_log')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /**
   * Seals heads written before migration 0083 (mac NULL) with their MAC. Called once, by the start
   * that ran that migration: a NULL MAC found at any later start stays NULL (audit:verify reports
   * it), or clearing a MAC would be a way to have a moved head sealed.
   */
  async sealUnsealedHeads(): Promise<string[]> {
    return this.db.transaction().execute(async (tx) => {
      const heads = await tx.selectFrom('action_log_heads').selectAll().where('mac', 'is', null).execute();
      for (const h of heads) {
        await tx.updateTable('action_log_heads').set({ mac: headMac(this.key, h) }).where('tenant_id', '=', h.tenant_id).execute();
      }
      return heads.map((h) => h.tenant_id);
    });
  }

  /** The hash of one row, or undefined when it is not there (a checkpoint's row). */
  async rowHash(tenantId: string, seq: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('action_log').select('hash').where('tenant_id', '=', tenantId).where('seq', '=', seq).executeTakeFirst();
    return row?.hash;
  }

  /** Tenants that have rows but no head (a head deleted to hide a chain). */
  async tenantsWithoutHead(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('action_log')
      .select('tenant_id')
      .distinct()
      .where((eb) => eb.not(eb.exists(eb.selectFrom('action_log_heads as h').select('h.tenant_id').whereRef('h.tenant_id', '=', 'action_log.tenant_id'))))
      .execute();
    return rows.map((r) => r.tenant_id);
  }

  /**
   * Prunes the oldest rows of one chain, up to `maxRows`, that are older than `cutoff`, and appends
   * the record of it, in one transaction. The chain stays verifiable: the head keeps the hash of the
   * last pruned row as its anchor, and the prune record (itself chained) states the same anchor.
   * Returns how many rows went (0: nothing older than the cutoff).
   */
  async pruneBatch(tenantId: string, cutoff: number, maxRows: number, record: (info: PruneInfo) => NewActionRow): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      // Claimed: a prune of another process at the same time waits, then finds the rows gone (never a head MAC of a stale head).
      const head = await forUpdate(tx, tx.selectFrom('action_log_heads').selectAll().where('tenant_id', '=', tenantId)).executeTakeFirst();
      if (!head) return 0;
      // A head moved without the key: its rows are evidence, retention waits until someone has looked.
      if (!headMacMatches(this.key, head)) {
        if (!head.mac?.startsWith(BROKEN_HEAD_MARK)) this.onBrokenHead?.(tenantId, Number(head.seq));
        return 0;
      }
      const anchor = Number(head.anchor_seq);
      // The first row not older than the cutoff, in time order: every row before it in the chain goes.
      const firstKept = await tx
        .selectFrom('action_log')
        .select('seq')
        .where('tenant_id', '=', tenantId)
        .where('at', '>=', cutoff)
        .orderBy('at')
        .orderBy('seq')
        .limit(1)
        .executeTakeFirst();
      const through = Math.min(firstKept ? Number(firstKept.seq) - 1 : Number(head.seq), anchor + maxRows);
      if (through <= anchor) return 0;
      const last = await tx.selectFrom('action_log').select('hash').where('tenant_id', '=', tenantId).where('seq', '=', through).executeTakeFirst();
      if (!last) throw new Error(`action log of tenant '${tenantId}' has no row ${through}: run audit:verify`);
      const deleted = await tx
        .deleteFrom('action_log')
        .where('tenant_id', '=', tenantId)
        .where('seq', '>', anchor)
        .where('seq', '<=', through)
        .executeTakeFirst();
      const moved = { ...head, anchor_seq: through, anchor_hash: last.hash };
      await tx.updateTable('action_log_heads').set({ anchor_seq: through, anchor_hash: last.hash, mac: headMac(this.key, moved) }).where('tenant_id', '=', tenantId).execute();
      const count = Number(deleted.numDeletedRows);
      await appendToChains(tx, this.key, [record({ tenantId, fromSeq: anchor + 1, throughSeq: through, anchorHash: last.hash, count, cutoff })], this.onBrokenHead);
      return count;
    });
  }
}

export interface PruneInfo {
  tenantId: string;
  fromSeq: number;
  throughSeq: number;
  anchorHash: string;
  count: number;
  cutoff: number;
}
