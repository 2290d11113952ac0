/**
 * A fresh PostgreSQL database for tests that must run on PostgreSQL whatever engine the stage
 * runs on (several server processes share one database: SQLite cannot do that). On the PostgreSQL
 * stage it is made on the run's cluster (tests/support/postgres-global-setup.ts); on the SQLite stage
 * a throwaway cluster of this test process is started once (tests/support/postgres.ts, ~1–9 s) and
 * stopped when the process exits. On an own cluster the first server started on the database migrates it.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startPostgresCluster, type PostgresCluster } from './postgres';
import { onPostgres, postgresUrl, TEMPLATE_DATABASE } from './test-database';

let own: Promise<PostgresCluster> | undefined;

function urlOf(database: string): Promise<string> {
  if (onPostgres()) return Promise.resolve(postgresUrl(database));
  own ??= startPostgresCluster({ maxConnections: 100 }).then((cluster) => {
    process.once('beforeExit', () => void cluster.stop());
    return cluster;
  });
  return own.then((cluster) => cluster.url(database));
}

/** Stops this process's own cluster, if it started one (call from afterAll). */
export async function stopOwnPostgres(): Promise<void> {
  const cluster = own;
  own = undefined;
  if (cluster) await (await cluster).stop();
}

/** Creates a database (migrated or empty, as above) and answers its URL; `drop` removes it (connections are ended by force). */
export async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `shared_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: await urlOf('postgres') });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  // The run's cluster has a migrated template (faster than migrating); an own cluster starts empty.
  await admin(onPostgres() ? `create database ${name} template ${TEMPLATE_DATABASE}` : `create database ${name}`);
  return { url: await urlOf(name), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
