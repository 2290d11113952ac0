/**
 * The real server for engine tests and benchmarks: in-process (tests/server/helpers.ts startServer)
 * or as a child process (`node --import tsx server/main.ts`) that a test can SIGKILL and restart on
 * the same DATA_DIR and port. Plus: logging the engine's cookie jar in, generating test files
 * cheaply, downloading a stored file's SHA-256, and looking into the server's SQLite file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs, { promises as fsp } from 'node:fs';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import path from 'node:path';
import { API, downloadUrl } from '../../common/api/paths';
import { clientHeaders } from '../../common/api/client-env';
import { captchaOutboxOf, createCookieFetch, loginWithOutbox, type CookieFetch } from '../replay/node-runtime';
import { ADMIN } from '../server/helpers';
import { testStoreEnv } from './test-store';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

export { freePort } from './free-port';

export interface ServerProcess {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** SIGKILL, and wait until the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (graceful), bounded; SIGKILL if it does not exit in time. */
  stop(): Promise<void>;
}

/** Waits until the server answers HTTP at all (any status). */
async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode} while starting`);
    try {
      await fetch(url + API.systemConfig, { signal: AbortSignal.timeout(1_000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`server at ${url} did not come up within ${timeoutMs} ms`);
}

/** `nodeArgs`: what node runs (default: the server's sources under tsx; tests/support/npm-start-args.ts for `npm start`'s). */
export async function startServerProcess(options: { dataDir: string; port: number; env?: Record<string, string>; timeoutMs?: number; nodeArgs?: string[] }): Promise<ServerProcess> {
  await fsp.mkdir(options.dataDir, { recursive: true });
  const child = spawn(process.execPath, options.nodeArgs ?? ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      STATIC_DIR: path.join(options.dataDir, 'no-static'),
      DRIVE_TEST_HOOKS: '1',
      LOG_REQUESTS: '0',
      SWEEP_INTERVAL_MS: '0',
      MAX_FILE_SIZE: String(16 * 1024 ** 3),
      DEFAULT_QUOTA: String(64 * 1024 ** 3),
      ...(await testStoreEnv(options.dataDir)),
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${options.port}`;
  try {
    await waitForHttp(url, child, options.timeoutMs ?? 30_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${stderr}`);
  }
  const exited = (): Promise<void> => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, 'exit').then(() => undefined));
  return {
    url,
    port: options.port,
    dataDir: options.dataDir,
    child,
    async kill() {
      child.kill('SIGKILL');
      await exited();
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited();
      clearTimeout(timer);
    },
  };
}

/** A cookie jar logged in as `account` through the server's captcha outbox (DRIVE_TEST_HOOKS=1). */
export async function loggedInJar(serverUrl: string, dataDir: string, account = ADMIN): Promise<CookieFetch> {
  const jar = createCookieFetch();
  await loginWithOutbox(jar, { serverUrl, username: account.username, password: account.password, captchaOutbox: captchaOutboxOf(dataDir) });
  return jar;
}

/** Random bytes written to `file`; returns their SHA-256. */
export async function writeRandomFile(file: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  const out = fs.createWriteStream(file);
  for (let written = 0; written < size; ) {
    const piece = randomBytes(Math.min(8 * 1024 * 1024, size - written));
    hash.update(piece);
    if (!out.write(piece)) await once(out, 'drain');
    written += piece.length;
  }
  out.end();
  await once(out, 'finish');
  return hash.digest('hex');
}

/**
 * A large file cheap to generate: one random block repeated, each copy stamped with its counter in
 * the first 8 bytes (so no two chunks are equal). Returns its SHA-256.
 */
export async function writeGeneratedFile(file: string, size: number, blockSize = 64 * 1024 * 1024, signal?: AbortSignal): Promise<string> {
  const block = randomBytes(Math.min(blockSize, Math.max(size, 8)));
  const hash = createHash('sha256');
  const handle = await fsp.open(file, 'w');
  try {
    for (let offset = 0, counter = 0; offset < size; counter++) {
      signal?.throwIfAborted();
      // Stamp every 4 KiB with (block counter, position) so chunks of any size ≥ 4 KiB differ.
      for (let p = 0; p + 8 <= block.length; p += 4096) {
        block.writeUInt32LE(counter, p);
        block.writeUInt32LE(p, p + 4);
      }
      const piece = block.subarray(0, Math.min(block.length, size - offset));
      hash.update(piece);
      await handle.write(piece, 0, piece.length, offset);
      offset += piece.length;
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

/** SHA-256 of a disk file, streamed. */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of fs.createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(piece as Buffer);
  return hash.digest('hex');
}

/** Downloads a stored file and returns the SHA-256 and length of what the server sent. */
export async function downloadSha256(serverUrl: string, jar: CookieFetch, fileId: string): Promise<{ sha256: string; size: number }> {
  const res = await jar.fetch(serverUrl + downloadUrl(fileId), { method: 'GET', headers: clientHeaders('desktop', 'internal'), signal: AbortSignal.timeout(120_000) });
  if (!res.ok || !res.body) throw new Error(`download ${fileId}: HTTP ${res.status}`);
  const hash = createHash('sha256');
  let size = 0;
  for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(piece);
    size += piece.length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** Runs `fn` on the server's SQLite file (read-only). */
export async function withServerDb<T>(dataDir: string, fn: (db: SqliteDatabase) => T): Promise<T> {
  const { default: SQLite } = await import('better-sqlite3');
  const db = new SQLite(path.join(dataDir, 'drive.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Every regular file under `dir` (recursively), as paths relative to it. */
export async function listFilesUnder(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath ?? e.path, e.name)));
}
