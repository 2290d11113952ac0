/**
 * A server must not start on a PostgreSQL database that `npm run migrate:pg` is still filling (or
 * was stopped while filling): its foreign keys and indexes are dropped, tables are half copied, and
 * the server's first writes would land among rows the next run copies. openDatabase asks here first.
 */
import { sql, type Kysely } from 'kysely';

export async function refuseUnfinishedMove(db: Kysely<unknown>): Promise<void> {
  const { rows: found } = await sql<{ present: boolean }>`select to_regclass('migrate_pg_run') is not null as present`.execute(db);
  if (!found[0]?.present) return;
  const { rows } = await sql<{ source: string; started_at: number; verified_at: number | null }>`select source, started_at, verified_at
    from migrate_pg_run where id = 1`.execute(db);
  const run = rows[0];
  if (!run || run.verified_at !== null) return;
  throw new Error(
    `this database is being filled by npm run migrate:pg from ${run.source} (started ${new Date(Number(run.started_at)).toISOString()}) ` +
      'and was never verified: run the same migrate:pg command to the end (it resumes) before starting the server on it',
  );
}
