/**
 * What the sync integration tests (tests/integration/sync-*.test.ts) share: a server with a logged-in
 * session and an HttpRemote on it, `npm run sync` as a child process, the cloud folder's listing as
 * path → fingerprint, and the server's count of chunk bytes received.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API } from '../../common/api/paths';
import { clientHeaders } from '../../common/api/client-env';
import type { SynContentResponse, SynEntry } from '../../common/api/types';
import { createNodeChunkTransport } from '../../workers/node/chunk-transport';
import type { CookieFetch } from '../../workers/node/cookie-fetch';
import { engineConfigFor } from '../../workers/node/engine-config';
import { createNodeHashPool } from '../../workers/node/hash-pool';
import { HttpRemote } from '../../workers/sync/http-remote';
import { freePort, loggedInJar, startServerProcess, type ServerProcess } from './drive-server';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

export interface SyncRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

/** The login flags of the demo admin on `server`. */
export const adminLogin = (server: ServerProcess): string[] => ['--server', server.url, '--user', 'admin', '--password', 'Admin@2024', '--data-dir', server.dataDir];

/** `npm run sync` (workers/sync/cli.ts) as a child process with `args`, its output collected. */
export function spawnSyncCli(args: string[]): { child: ChildProcess; done: Promise<SyncRun>; err: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'workers/sync/cli.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const done = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null, out, err }));
  return { child, done, err: () => err };
}

/** A `--once` run with the JSON summary it ends with; a run without one fails with its output. */
export function withSummary(run: SyncRun): SyncRun & { summary: Record<string, number> } {
  const line = run.out.trim().split('\n').pop() ?? '';
  try {
    return { ...run, summary: JSON.parse(line) as Record<string, number> };
  } catch {
    throw new Error(`no JSON line (exit ${run.code}):\n${run.out}\n${run.err}`);
  }
}

export interface SyncServer {
  server: ServerProcess;
  work: string;
  jar: CookieFetch;
  pool: ReturnType<typeof createNodeHashPool>;
  remote: HttpRemote;
}

/** A server in a fresh temp folder (`prefix`), chunks of `chunkSize`, its admin's session and a remote on it. */
export async function startSyncServer(prefix: string, chunkSize: number): Promise<SyncServer> {
  const work = await fsp.mkdtemp(path.join(os.tmpdir(), prefix));
  const server = await startServerProcess({ dataDir: path.join(work, 'server'), port: await freePort(), env: { CHUNK_SIZE: String(chunkSize) } });
  const jar = await loggedInJar(server.url, server.dataDir);
  const pool = createNodeHashPool(1);
  const remote = new HttpRemote({ config: engineConfigFor(server.url), jar, transport: createNodeChunkTransport(jar), hashChunk: pool.hashChunk, hashConcurrency: 1 });
  return { server, work, jar, pool, remote };
}

/** Stops what startSyncServer started (any part of it, when it failed half way) and removes its folder. */
export async function stopSyncServer(parts: Partial<SyncServer>): Promise<void> {
  parts.pool?.terminate();
  await parts.server?.stop();
  if (parts.work) await fsp.rm(parts.work, { recursive: true, force: true });
}

/** A sync listing's items as path (relative to `rootId`) → fingerprint (null for folders), in listing order. */
export function pathsOfListing(rootId: string, items: readonly SynEntry[]): Map<string, string | null> {
  const paths = new Map<string, string>([[rootId, '']]);
  const out = new Map<string, string | null>();
  for (const e of items) {
    const p = paths.get(e.parentId) === '' ? e.name : `${paths.get(e.parentId)}/${e.name}`;
    paths.set(e.id, p);
    out.set(p, e.fingerprint);
  }
  return out;
}

/** Everything under the cloud folder `remotePath`, as the sync lists it: path → fingerprint (null for folders). */
export async function cloudListing({ server, jar, remote }: Pick<SyncServer, 'server' | 'jar' | 'remote'>, remotePath: string): Promise<Map<string, string | null>> {
  const rootId = await remote.ensureRoot(remotePath, AbortSignal.timeout(30_000));
  const res = await jar.fetch(server.url + API.syncContent, {
    method: 'POST',
    headers: { ...clientHeaders('desktop', 'internal'), 'content-type': 'application/json' },
    body: JSON.stringify({ rootId }),
    signal: AbortSignal.timeout(30_000),
  });
  const answer = ((await res.json()) as { data: SynContentResponse }).data;
  return pathsOfListing(rootId, answer.items);
}

/** The server's count of chunk body bytes received (a test hook). */
export async function chunkBytesReceived(serverUrl: string, jar: CookieFetch): Promise<number> {
  const res = await jar.fetch(serverUrl + API.testStats, { method: 'GET', headers: clientHeaders('desktop', 'internal'), signal: AbortSignal.timeout(10_000) });
  return ((await res.json()) as { data: { chunkBytesReceived: number } }).data.chunkBytesReceived;
}
