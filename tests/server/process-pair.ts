/**
 * Two real server processes (child-server.ts) on ONE PostgreSQL database and ONE data directory, as
 * `npm run start:cluster` runs them behind its balancer: for tests of what must hold whichever process
 * answers (locks, throttles, one-time codes). No balancer: a test picks the process of each request.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freshPostgresDatabase } from '../support/postgres-database';
import { keepAcrossTests, startChild, stop, type Running } from './child-server';
import type { TestServer } from './helpers';

export interface ProcessPair {
  a: Running;
  b: Running;
  dataDir: string;
  dbUrl: string;
  /** What helpers taking a TestServer need of it (the shared data directory: test outboxes). */
  shared: TestServer;
  close(): Promise<void>;
}

/** Starts A, then B (A migrates and seeds the database first), with `env` added to both. */
export async function startProcessPair(env: NodeJS.ProcessEnv = {}): Promise<ProcessPair> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'drive-pair-'));
  const db = await freshPostgresDatabase();
  const settings = { ...env, DB_URL: db.url, PG_POOL_SIZE: '4' };
  const a = await startChild(dataDir, undefined, settings);
  const b = await startChild(dataDir, undefined, settings);
  keepAcrossTests(a);
  keepAcrossTests(b);
  return {
    a,
    b,
    dataDir,
    dbUrl: db.url,
    shared: { dataDir, baseUrl: a.baseUrl } as TestServer,
    async close() {
      await Promise.all([stop(a), stop(b)]);
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
