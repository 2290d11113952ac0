/**
 * The real server as a child process (`node --import tsx server/main.ts`) on a given DATA_DIR, for
 * tests that kill it, restart it on the same data, or read what it logs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach } from 'vitest';
import { API } from '../../common/api/paths';
import { freePort } from '../support/free-port';
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

/** Starts `server/main.ts` with exactly `env`; killed after each test if still running. */
export function spawnServer(env: NodeJS.ProcessEnv, stdio: 'pipe' | 'ignore'): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', stdio, stdio] });
  children.push(child);
  return child;
}

export async function startChild(dataDir: string, crashPoint?: string): Promise<Running> {
  const port = await freePort();
  const child = spawnServer(
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
  },
    'pipe',
  );
  const log: string[] = [];
  child.stdout!.on('data', (d: Buffer) => log.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => log.push(d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited during startup:\n${log.join('')}`);
    try {
      if ((await fetch(baseUrl + API.systemConfig)).status === 200) return { child, exited, baseUrl, log };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start:\n${log.join('')}`);
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

