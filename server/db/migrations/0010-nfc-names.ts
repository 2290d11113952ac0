import { sql, type Kysely, type Migration } from 'kysely';
import { isUniqueViolation } from '../database';

/**
 * Names are stored in Unicode NFC and compared by their NFC lower case (common/validation/names.ts),
 * so `café.txt` typed as NFD and as NFC is one name. Rows written before keep their spelling but are
 * rewritten here; a row whose NFC form clashes with a sibling's keeps its old spelling (both stay
 * reachable; renaming either resolves it).
 */
export const m0010_nfc_names: Migration = {
  async up(db: Kysely<unknown>) {
    let after = '';
    for (;;) {
      const rows = await sql<{ id: string; name: string }>`select id, name from files where id > ${after} order by id limit 1000`.execute(db);
      if (rows.rows.length === 0) break;
      for (const row of rows.rows) {
        const nfc = row.name.normalize('NFC');
        if (nfc === row.name) continue;
        try {
          await sql`update files set name = ${nfc}, name_key = ${nfc.toLowerCase()} where id = ${row.id}`.execute(db);
        } catch (err) {
          if (!isUniqueViolation(err)) throw err;
        }
      }
      after = rows.rows[rows.rows.length - 1]!.id;
    }
  },
  async down() {
    // NFC spellings stay: they are the same names.
  },
};
