import { sql } from 'kysely';
import type { Db } from '../db/database';
import { charTokens, contentTextLookup, engineOf } from '../db/dialect';

/** One blob's stored text, as the search and the keyword scan read it. */
export interface StoredText {
  doc: number;
  blobId: string;
  tenantId: string;
  body: string;
  pageStarts: number[] | null;
  scannedHash: string | null;
}

export interface TextHit {
  keyword: string;
  atChar: number;
  page: number | null;
}

const parsePages = (raw: string | null): number[] | null => {
  if (!raw) return null;
  const v = JSON.parse(raw) as unknown;
  return Array.isArray(v) ? v.filter((n): n is number => typeof n === 'number') : null;
};

/**
 * The extracted texts of blobs and their full-text index (migration 0098). Only this repository
 * touches blob_texts, blob_text_hits and the SQLite index tables.
 */
export class ContentTextRepository {
  constructor(private readonly db: Db) {}

  /** The tenant of a stored blob; null when the blob is gone. */
  async blobTenant(blobId: string): Promise<string | null> {
    const row = await this.db.selectFrom('blobs').select('tenant_id').where('id', '=', blobId).executeTakeFirst();
    return row?.tenant_id ?? null;
  }

  /**
   * Stores (or replaces) a blob's text and its keyword hits in one transaction. Answers false when the
   * blob row is gone (deleted while its text was extracted): nothing is stored.
   */
  async put(
    blob: { blobId: string; tenantId: string },
    text: { body: string; pageStarts: readonly number[] | null; truncated: boolean },
    scan: { hash: string; hits: readonly TextHit[] },
    now: number,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const exists = await tx.selectFrom('blobs').select('id').where('id', '=', blob.blobId).executeTakeFirst();
      if (!exists) return false;
      // Replaced by delete + insert: the index tables follow the row (triggers on SQLite).
      await this.deleteIn(tx, blob.blobId);
      const { doc } = await tx
        .insertInto('blob_texts')
        .values({
          blob_id: blob.blobId,
          tenant_id: blob.tenantId,
          body: text.body,
          page_starts: text.pageStarts ? JSON.stringify(text.pageStarts) : null,
          chars: text.body.length,
          truncated: text.truncated ? 1 : 0,
          created_at: now,
          scanned_hash: scan.hash,
        })
        .returning('doc')
        .executeTakeFirstOrThrow();
      if (engineOf(tx) === 'sqlite') await sql`insert into blob_text_chars (rowid, body) values (${doc}, ${charTokens(text.body)})`.execute(tx);
      await this.writeHits(tx, blob, scan.hits);
      return true;
    });
  }

  private async deleteIn(tx: Db, blobId: string): Promise<void> {
    await tx.deleteFrom('blob_texts').where('blob_id', '=', blobId).execute();
  }

  private async writeHits(tx: Db, blob: { blobId: string; tenantId: string }, hits: readonly TextHit[]): Promise<void> {
    await tx.deleteFrom('blob_text_hits').where('blob_id', '=', blob.blobId).execute();
    if (hits.length === 0) return;
    await tx
      .insertInto('blob_text_hits')
      .values(hits.map((h) => ({ blob_id: blob.blobId, tenant_id: blob.tenantId, keyword: h.keyword, at_char: h.atChar, page: h.page })))
      .execute();
  }

  /** Removes a blob's text, its index entries and its hits (the blob row's deletion does the same by cascade). */
  async remove(blobId: string): Promise<void> {
    await this.deleteIn(this.db, blobId);
  }

  async has(blobId: string): Promise<boolean> {
    return (await this.db.selectFrom('blob_texts').select('doc').where('blob_id', '=', blobId).executeTakeFirst()) !== undefined;
  }

  /** Which of these blobs have a text stored. */
  async withText(blobIds: readonly string[]): Promise<Set<string>> {
    if (blobIds.length === 0) return new Set();
    const rows = await this.db.selectFrom('blob_texts').select('blob_id').where('blob_id', 'in', [...blobIds]).execute();
    return new Set(rows.map((r) => r.blob_id));
  }

  async texts(blobIds: readonly string[]): Promise<Map<string, StoredText>> {
    if (blobIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('blob_texts')
      .select(['doc', 'blob_id', 'tenant_id', 'body', 'page_starts', 'scanned_hash'])
      .where('blob_id', 'in', [...blobIds])
      .execute();
    return new Map(rows.map((r) => [r.blob_id, { doc: Number(r.doc), blobId: r.blob_id, tenantId: r.tenant_id, body: r.body, pageStarts: parsePages(r.page_starts), scannedHash: r.scanned_hash }]));
  }

  /** The next texts of a tenant after `afterDoc`, in doc order (the keyword re-scan's walk). */
  async nextTexts(tenantId: string, afterDoc: number, limit: number): Promise<StoredText[]> {
    const rows = await this.db
      .selectFrom('blob_texts')
      .select(['doc', 'blob_id', 'tenant_id', 'body', 'page_starts', 'scanned_hash'])
      .where('tenant_id', '=', tenantId)
      .where('doc', '>', afterDoc)
      .orderBy('doc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ doc: Number(r.doc), blobId: r.blob_id, tenantId: r.tenant_id, body: r.body, pageStarts: parsePages(r.page_starts), scannedHash: r.scanned_hash }));
  }

  async countTexts(tenantId: string): Promise<number> {
    const row = await this.db.selectFrom('blob_texts').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Texts of the tenant holding one of `keywords`. */
  async countWithHits(tenantId: string, keywords: readonly string[]): Promise<number> {
    if (keywords.length === 0) return 0;
    const row = await this.db
      .selectFrom('blob_text_hits')
      .select((eb) => eb.fn.count<number>('blob_id').distinct().as('n'))
      .where('tenant_id', '=', tenantId)
      .where('keyword', 'in', [...keywords])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Of these files' blobs, those whose text holds one of `keywords`, and the folders `rootIds` whose
   * live tree holds such a file: the link policy's 含敏感词 check (share-policy.ts).
   */
  async treeHasHit(tenantId: string, rootIds: readonly string[], keywords: readonly string[]): Promise<boolean> {
    if (rootIds.length === 0 || keywords.length === 0) return false;
    const roots = sql.join(rootIds.map((i) => sql`${i}`));
    const words = sql.join(keywords.map((k) => sql`${k}`));
    const result = await sql<{ id: string }>`
      with recursive tree(id, depth) as (
        select id, 0 from files where id in (${roots}) and tenant_id = ${tenantId} and deleted_at is null
        union all
        select f.id, tree.depth + 1 from files f join tree on f.parent_id = tree.id where f.deleted_at is null and tree.depth < 1000
      )
      select files.id from tree join files on files.id = tree.id
        join blob_text_hits h on h.blob_id = files.blob_id
      where h.keyword in (${words}) limit 1`.execute(this.db);
    return result.rows.length > 0;
  }

  /** Records a re-scan's result for one text (kept only if the text is still the one scanned). */
  async rescanned(text: StoredText, scan: { hash: string; hits: readonly TextHit[] }): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const res = await tx.updateTable('blob_texts').set({ scanned_hash: scan.hash }).where('doc', '=', text.doc).executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return;
      await this.writeHits(tx, text, scan.hits);
    });
  }

  /** The hits of these blobs whose keyword is among `keywords` (a keyword dropped since no longer counts). */
  async hitsOf(blobIds: readonly string[], keywords: readonly string[]): Promise<Map<string, TextHit[]>> {
    const out = new Map<string, TextHit[]>();
    if (blobIds.length === 0 || keywords.length === 0) return out;
    const rows = await this.db
      .selectFrom('blob_text_hits')
      .select(['blob_id', 'keyword', 'at_char', 'page'])
      .where('blob_id', 'in', [...blobIds])
      .where('keyword', 'in', [...keywords])
      .orderBy('blob_id')
      .orderBy('at_char')
      .execute();
    for (const r of rows) {
      const list = out.get(r.blob_id) ?? [];
      list.push({ keyword: r.keyword, atChar: Number(r.at_char), page: r.page === null ? null : Number(r.page) });
      out.set(r.blob_id, list);
    }
    return out;
  }

  /** The query's docs (descending) that hold the keyword, for the search (dialect.ts contentTextLookup). */
  matchSource(keyword: string) {
    return contentTextLookup(this.db, keyword);
  }
}
