/**
 * Vitest global setup of the server project: with DRIVE_TEST_DB=pg, starts one throwaway PostgreSQL
 * cluster for the whole run (tests/support/postgres.ts) and migrates the template database every
 * test server's database is copied from (tests/support/test-database.ts). Without it: nothing.
 * A cluster given in DRIVE_TEST_PG_URL is used as is.
 */
import { openDatabase } from '../../server/db/database';
import type { ServerConfig } from '../../server/config';
import { startPostgresCluster } from './postgres';
import { onPostgres, PG_BASE_ENV, postgresUrl, TEMPLATE_DATABASE } from './test-database';
import pg from 'pg';

export default async function setup(): Promise<(() => Promise<void>) | void> {
  if (!onPostgres()) return;
  let stop: (() => Promise<void>) | undefined;
  if (!process.env[PG_BASE_ENV]) {
    const cluster = await startPostgresCluster();
    process.env[PG_BASE_ENV] = cluster.url('');
    stop = () => cluster.stop();
  }
  const admin = new pg.Client({ connectionString: postgresUrl('postgres') });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
    await admin.query(`create database ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const db = await openDatabase({ dataDir: '', dbUrl: postgresUrl(TEMPLATE_DATABASE) } as ServerConfig);
  await db.destroy();
  return stop;
}
