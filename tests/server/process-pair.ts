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
  /** Starts one more process on the same database and directory (a restart of one that died), stopped by close(). */
  another(crashPoint?: string): Promise<Running>;
  close(): Promise<void>;
}

/**
 * Starts A, then B (A migrates and seeds the database first), with `env` added to both; A kills itself
 * at `aCrashPoint` (DRIVE_TEST_CRASH_POINT) when given.
 */
export async function startProcessPair(env: NodeJS.ProcessEnv = {}, aCrashPoint?: string): Promise<ProcessPair> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'drive-pair-'));
  const db = await freshPostgresDatabase();
  const settings = { ...env, DB_URL: db.url, PG_POOL_SIZE: '4' };
  const started: Running[] = [];
  const start = async (crashPoint?: string) => {
    const run = await startChild(dataDir, crashPoint, settings);
    keepAcrossTests(run);
    started.push(run);
    return run;
  };
  const a = await start(aCrashPoint);
  const b = await start();
  return {
    a,
    b,
    dataDir,
    dbUrl: db.url,
    shared: { dataDir, baseUrl: a.baseUrl } as TestServer,
    another: start,
    async close() {
      await Promise.all(started.map(stop));
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
