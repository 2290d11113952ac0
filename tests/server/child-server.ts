/**
 * The real server as a child process on a given DATA_DIR, for tests that kill it, restart it on the
 * same data, or read what it logs.
 *
 * The child runs `server/main.ts` bundled once per test process (support/server-bundle.ts), not
 * through tsx: a crash test starts 3–5 servers, and under tsx their starts alone outlasted the test
 * timeout on a busy machine (load 20 on 2 cores), on SQLite and PostgreSQL alike.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { testStoreEnv } from '../support/test-store';
import path from 'node:path';
import { afterEach } from 'vitest';
import { API } from '../../common/api/paths';
import { freePort } from '../support/free-port';
import { serverBundle } from '../support/server-bundle';
import { testDbUrl } from '../support/test-database';
import { ADMIN, Client, login, type TestServer } from './helpers';

const ROOT = path.resolve(__dirname, '../..');
/** Small chunks, so tests cross many chunk boundaries quickly (CHUNK_SIZE of the child server). */
export const CHILD_CHUNK_SIZE = 256 * 1024;

export interface Running {
  child: ChildProcess;
  exited: Promise<number | null>;
  baseUrl: string;
  log: string[];
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** A child a test file starts once (beforeAll) and stops itself (afterAll): not killed after each test. */
export function keepAcrossTests(run: Running): void {
  const i = children.indexOf(run.child);
  if (i >= 0) children.splice(i, 1);
  const killLeftover = () => run.child.kill('SIGKILL');
  process.once('exit', killLeftover);
  void run.exited.then(() => process.off('exit', killLeftover));
}

/** Starts the server with exactly `env`; killed after each test if still running. */
export async function spawnServer(env: NodeJS.ProcessEnv, stdio: 'pipe' | 'ignore'): Promise<ChildProcess> {
  const child = spawn(process.execPath, [await serverBundle()], { cwd: ROOT, env, stdio: ['ignore', stdio, stdio] });
  children.push(child);
  return child;
}

/** `env` is added last (a test's own settings, e.g. DB_URL of a database several children share). */
export async function startChild(dataDir: string, crashPoint?: string, env: NodeJS.ProcessEnv = {}): Promise<Running> {
  const port = await freePort();
  const child = await spawnServer(
    {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-dist'),
    CHUNK_SIZE: String(CHILD_CHUNK_SIZE),
    DRIVE_TEST_HOOKS: '1',
    DRIVE_TEST_CRASH_POINT: crashPoint ?? '',
    LOG_REQUESTS: '0',
    SWEEP_INTERVAL_MS: '0',
    DB_URL: (await testDbUrl(dataDir)) ?? '',
    ...(await testStoreEnv(dataDir)),
    ...env,
  },
    'pipe',
  );
  const log: string[] = [];
  child.stdout!.on('data', (d: Buffer) => log.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => log.push(d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  // Until it answers or exits: how long a start takes depends on the machine's load (the test's own timeout bounds it).
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited during startup:\n${log.join('')}`);
    try {
      if ((await fetch(baseUrl + API.systemConfig)).status === 200) return { child, exited, baseUrl, log };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function kill(run: Running): Promise<void> {
  run.child.kill('SIGKILL');
  await run.exited;
}

export async function stop(run: Running): Promise<void> {
  run.child.kill('SIGTERM');
  await run.exited;
}

export async function adminClient(run: Running, dataDir: string): Promise<Client> {
  const client = new Client(run.baseUrl);
  const res = await login({ dataDir } as TestServer, client, ADMIN);
  if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  return client;
}

