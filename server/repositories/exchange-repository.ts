import { sql, type Kysely } from 'kysely';
import { FILE_CATEGORY } from '../../common/api/types';
import type { Db } from '../db/database';
import type { Database, ExchangeFilesTable, FilesTable } from '../db/schema';

type Conn = Kysely<Database>;

/**
 * Records (or renews) the crossing state of an exchange-area file: put there (or given new content)
 * from `side`, waiting for checkSwap. Anything else (a folder, another category, no side known) is
 * left alone: a file without a record is usable from neither build until it passes checkSwap.
 */
export async function stampExchange(
  db: Conn,
  file: Pick<FilesTable, 'id' | 'tenant_id' | 'owner_id' | 'category' | 'is_dir' | 'blob_id'>,
  side: 'internal' | 'public' | undefined,
  now: number,
): Promise<void> {
  if (!side || file.category !== FILE_CATEGORY.exchange || file.is_dir === 1) return;
  const values: ExchangeFilesTable = {
    file_id: file.id,
    tenant_id: file.tenant_id,
    owner_id: file.owner_id,
    side,
    state: 'pending',
    blob_id: file.blob_id,
    reason: null,
    checked_at: null,
    processed_at: null,
    processing: null,
    created_at: now,
  };
  await db
    .insertInto('exchange_files')
    .values(values)
    .onConflict((oc) =>
      oc.column('file_id').doUpdateSet({ side, state: 'pending', blob_id: file.blob_id, reason: null, checked_at: null, processed_at: null, processing: null, owner_id: file.owner_id }),
    )
    .execute();
}

export interface ExchangeCheckOutcome {
  fileId: string;
  passed: boolean;
  reason: string | null;
  blobId: string | null;
}

/** The exchange area's crossing records. */
export class ExchangeRepository {
  constructor(private readonly db: Db) {}

  async find(fileIds: readonly string[]): Promise<Map<string, ExchangeFilesTable>> {
    const out = new Map<string, ExchangeFilesTable>();
    const unique = [...new Set(fileIds)];
    for (let i = 0; i < unique.length; i += 500) {
      const rows = await this.db.selectFrom('exchange_files').selectAll().where('file_id', 'in', unique.slice(i, i + 500)).execute();
      for (const r of rows) out.set(r.file_id, r);
    }
    return out;
  }

  stamp(file: Pick<FilesTable, 'id' | 'tenant_id' | 'owner_id' | 'category' | 'is_dir' | 'blob_id'>, side: 'internal' | 'public' | undefined, now: number): Promise<void> {
    return stampExchange(this.db, file, side, now);
  }

  /** Records the outcome of checkSwap for files of one owner, from `side`, in one transaction. */
  async record(tenantId: string, ownerId: string, side: 'internal' | 'public', outcomes: readonly ExchangeCheckOutcome[], now: number): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      for (const o of outcomes) {
        const state = o.passed ? 'passed' : 'intercepted';
        const existing = await tx.selectFrom('exchange_files').select(['side', 'blob_id']).where('file_id', '=', o.fileId).executeTakeFirst();
        // A record of the same content keeps the build it came in from; otherwise the checker's build is where it came in.
        const origin = existing && existing.blob_id === o.blobId ? existing.side : side;
        await tx
          .insertInto('exchange_files')
          .values({ file_id: o.fileId, tenant_id: tenantId, owner_id: ownerId, side: origin, state, blob_id: o.blobId, reason: o.reason, checked_at: now, processed_at: null, processing: null, created_at: now })
          .onConflict((oc) => oc.column('file_id').doUpdateSet({ side: origin, state, blob_id: o.blobId, reason: o.reason, checked_at: now, processed_at: null, processing: null }))
          .execute();
      }
    });
  }

  /** The owner's intercepted files not dealt with yet, newest check first. */
  intercepted(tenantId: string, ownerId: string, limit: number): Promise<ExchangeFilesTable[]> {
    return this.db
      .selectFrom('exchange_files')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('owner_id', '=', ownerId)
      // Literal: SQLite uses the partial index exchange_intercepted only when it sees the condition.
      .where(sql<boolean>`state = 'intercepted'`)
      .where('processed_at', 'is', null)
      .orderBy('checked_at', 'desc')
      .orderBy('file_id', 'desc')
      .limit(limit)
      .execute();
  }

  /** The owner's dealt-with intercepted files, newest first, after a position. */
  processed(tenantId: string, ownerId: string, after: { at: number; id: string } | null, limit: number): Promise<ExchangeFilesTable[]> {
    let q = this.db.selectFrom('exchange_files').selectAll().where('tenant_id', '=', tenantId).where('owner_id', '=', ownerId).where('processed_at', 'is not', null);
    if (after) q = q.where(sql<boolean>`(processed_at, file_id) < (${after.at}, ${after.id})`);
    return q.orderBy('processed_at', 'desc').orderBy('file_id', 'desc').limit(limit).execute();
  }

  async markProcessed(tenantId: string, ownerId: string, fileIds: readonly string[], decision: string, now: number): Promise<number> {
    if (fileIds.length === 0) return 0;
    const res = await this.db
      .updateTable('exchange_files')
      .set({ processed_at: now, processing: decision })
      .where('tenant_id', '=', tenantId)
      .where('owner_id', '=', ownerId)
      .where('file_id', 'in', [...fileIds])
      .where('state', '=', 'intercepted')
      .where('processed_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows ?? 0);
  }
}
