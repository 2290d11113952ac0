/**
 * Keeps `files.sort_key` (common/files/name-sort-key.ts) in step with the code and the ICU that
 * compute it: the keys are filled by migration 0060 and computed again, once, when a new version of
 * the key or of ICU (a Node upgrade) would rank some characters differently. Until then old and new
 * rows still page consistently (the index is the order); they would only disagree on those characters.
 */
import { sql, type Kysely } from 'kysely';
import { nameSortKey, SORT_KEY_VERSION } from '../../common/files/name-sort-key';

/** What made the stored keys: the key layout and the ICU the collator came from. */
export const currentSortKeyVersion = (): string => `${SORT_KEY_VERSION}:${process.versions.icu ?? 'none'}`;

/** Recomputes every row's key (1,000 rows a transaction) and records the version. */
export async function fillNameSortKeys(db: Kysely<unknown>): Promise<void> {
  let after = '';
  for (;;) {
    const { rows } = await sql<{ id: string; name: string }>`select id, name from files where id > ${after} order by id limit 1000`.execute(db);
    if (rows.length === 0) break;
    const write = async (tx: Kysely<unknown>): Promise<void> => {
      for (const row of rows) await sql`update files set sort_key = ${nameSortKey(row.name)} where id = ${row.id}`.execute(tx);
    };
    // A migration already runs in a transaction (one cannot be opened inside another).
    if (db.isTransaction) await write(db);
    else await db.transaction().execute(write);
    after = rows[rows.length - 1]!.id;
  }
  await sql`update name_sort_key_state set version = ${currentSortKeyVersion()} where id = 1`.execute(db);
}

/** At start-up, after the migrations: recompute the keys when they were made by another version. */
export async function refreshNameSortKeys(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ version: string }>`select version from name_sort_key_state where id = 1`.execute(db);
  if (rows[0]?.version !== currentSortKeyVersion()) await fillNameSortKeys(db);
}
