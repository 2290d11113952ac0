/**
 * What the `store` benchmark does on one blob store (tests/bench/suites/store.ts): a server child on
 * the store, then timed phases through the engine under Node and plain HTTP, each checked byte-exact
 * (a figure from a transfer that lost bytes would be meaningless).
 */
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { API, downloadUrl } from '../../../common/api/paths';
import { clientHeaders } from '../../../common/api/client-env';
import type { FileEntry } from '../../../common/api/types';
import { createNodeEngine, waitUntilSettled } from '../../replay/engine-harness';
import { openFileSource, type CookieFetch } from '../../replay/node-runtime';
import { freePort, loggedInJar, startServerProcess, type ServerProcess } from '../../support/drive-server';
import { npmStartServer } from '../../support/npm-start-args';
import { readZip } from '../../support/zip-entries';
import { median } from './median';
import { memoryProbeEnv, ServerMemory, type PhaseMemory } from './server-memory';
import { settleBeforeTimedPhase } from './transfer-context';

const JSON_HEADERS = { 'content-type': 'application/json', ...clientHeaders('desktop', 'internal') };

export interface StoreFigures {
  uploadMs: number;
  /** The merge request of the big upload, as the engine saw it. */
  mergeMs: number;
  /** The merge request of the small upload (same chunk size): how the merge grows with the file. */
  smallMergeMs: number;
  downloadMs: number;
  /** Median time of 1 MiB ranged GETs at offsets spread over the big file. */
  rangeMs: number;
  zipMs: number;
  zipBytes: number;
  /** The server's resident memory once started and logged in, before the phases. */
  baselineServerMB: number;
  /** Its peak over all phases (sampled every 50 ms). */
  peakServerMB: number;
  /** Peak of each phase, and what it was made of. */
  memory: PhaseMemory[];
}

export interface StoreRunInput {
  label: string;
  dataDir: string;
  /** BLOB_STORE and credentials for the object store; {} for the disk. */
  env: Record<string, string>;
  big: { file: string; sha256: string; size: number };
  small: { file: string; sha256: string; size: number };
  smallFilesDir: string;
  smallFileCount: number;
}

/** The engine's fetch, timing every merge request it sends. */
function timingMerges(jar: CookieFetch, merges: number[]): typeof jar.fetch {
  return async (input, init) => {
    if (!input.includes(API.chunkMerge)) return jar.fetch(input, init);
    const started = performance.now();
    const res = await jar.fetch(input, init);
    const body = await res.arrayBuffer();
    merges.push(performance.now() - started);
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

async function uploadOne(server: ServerProcess, jar: CookieFetch, file: string, name: string): Promise<{ ms: number; mergeMs: number; id: string }> {
  const merges: number[] = [];
  const { engine, close } = createNodeEngine(server.url, jar, { fetch: timingMerges(jar, merges) });
  try {
    const started = performance.now();
    const [id] = await engine.enqueueUploads([await openFileSource(file, name)], { parentId: null, category: 1 });
    const s = await waitUntilSettled(engine, { ids: [id!], timeoutMs: 1_800_000, pollMs: 20 });
    const ms = performance.now() - started;
    const item = s.items.find((i) => i.id === id)!;
    if (item.state !== 'done' || !item.fileId) throw new Error(`upload of ${name} ended ${item.state}: ${item.lastError}`);
    if (merges.length !== 1) throw new Error(`upload of ${name}: ${merges.length} merge requests, expected 1`);
    return { ms, mergeMs: merges[0]!, id: item.fileId };
  } finally {
    await close();
  }
}

async function getBytes(server: ServerProcess, jar: CookieFetch, url: string, range?: string): Promise<{ sha256: string; size: number; ms: number; first?: Buffer }> {
  const started = performance.now();
  const res = await jar.fetch(server.url + url, { headers: { ...clientHeaders('desktop', 'internal'), ...(range ? { range } : {}) }, signal: AbortSignal.timeout(1_800_000) });
  if (!res.ok || !res.body) throw new Error(`GET ${url}: HTTP ${res.status}`);
  const hash = createHash('sha256');
  let size = 0;
  const pieces: Buffer[] = [];
  for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(piece);
    size += piece.length;
    if (range) pieces.push(Buffer.from(piece));
  }
  return { sha256: hash.digest('hex'), size, ms: performance.now() - started, first: range ? Buffer.concat(pieces) : undefined };
}

async function mkdir(server: ServerProcess, jar: CookieFetch, name: string): Promise<string> {
  const res = await jar.fetch(server.url + API.mkdir, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ name, parentId: null, category: 1 }) });
  if (!res.ok) throw new Error(`mkdir: HTTP ${res.status}`);
  return ((await res.json()) as { data: FileEntry }).data.id;
}

async function uploadSmallFiles(server: ServerProcess, jar: CookieFetch, dir: string, count: number, folderId: string): Promise<void> {
  const names = (await fsp.readdir(dir)).sort().slice(0, count);
  const { engine, close } = createNodeEngine(server.url, jar);
  try {
    const entries = await Promise.all(names.map(async (n) => ({ file: await openFileSource(path.join(dir, n), n), relativePath: `zip/${n}` })));
    const ids = await engine.enqueueFolder(entries, { parentId: folderId, category: 1 });
    const s = await waitUntilSettled(engine, { ids, timeoutMs: 900_000, pollMs: 50 });
    const failed = s.items.filter((i) => ids.includes(i.id) && i.state !== 'done');
    if (failed.length) throw new Error(`${failed.length} small files did not upload: ${failed[0]!.lastError}`);
  } finally {
    await close();
  }
}

/** Offsets of the ranged reads: spread over the file, not aligned to chunks. */
const rangeOffsets = (size: number, n: number): number[] => Array.from({ length: n }, (_, i) => Math.floor(((i + 0.37) * (size - 1024 * 1024)) / n));

export async function runStorePhases(input: StoreRunInput): Promise<StoreFigures> {
  const port = await freePort();
  const probeFile = path.join(path.dirname(input.dataDir), `memory-${input.label}.json`);
  // Started as `npm start` starts it (prebuilt bundle, its node flags): the memory a user's server has.
  const nodeArgs = await npmStartServer();
  const server = await startServerProcess({ dataDir: input.dataDir, port, env: { ...input.env, ...memoryProbeEnv(probeFile) }, timeoutMs: 120_000, nodeArgs });
  const pid = server.child.pid!;
  let memory: ServerMemory | undefined;
  try {
    const jar = await loggedInJar(server.url, input.dataDir);
    await settleBeforeTimedPhase();
    memory = new ServerMemory(pid, probeFile);
    const mem = memory;
    await mem.phase('idle', () => new Promise((r) => setTimeout(r, 1000)));

    const small = await mem.phase('upload small', async () => {
      await settleBeforeTimedPhase();
      return uploadOne(server, jar, input.small.file, `small-${input.label}.bin`);
    });
    const big = await mem.phase('upload big', async () => {
      await settleBeforeTimedPhase();
      return uploadOne(server, jar, input.big.file, `big-${input.label}.bin`);
    });

    const { whole, rangeTimes } = await mem.phase('download', async () => {
      await settleBeforeTimedPhase();
      const whole = await getBytes(server, jar, downloadUrl(big.id));
      if (whole.sha256 !== input.big.sha256 || whole.size !== input.big.size) throw new Error(`${input.label}: the downloaded file differs from the uploaded one`);
      const source = await fsp.open(input.big.file, 'r');
      const rangeTimes: number[] = [];
      try {
        for (const offset of rangeOffsets(input.big.size, 16)) {
          const r = await getBytes(server, jar, downloadUrl(big.id), `bytes=${offset}-${offset + 1024 * 1024 - 1}`);
          const expected = Buffer.alloc(1024 * 1024);
          await source.read(expected, 0, expected.length, offset);
          if (!r.first!.equals(expected)) throw new Error(`${input.label}: the range at ${offset} differs from the file`);
          rangeTimes.push(r.ms);
        }
      } finally {
        await source.close();
      }
      // The small upload's bytes too (a merge that loses the small file's tail would pass the big one's check).
      const smallBack = await getBytes(server, jar, downloadUrl(small.id));
      if (smallBack.sha256 !== input.small.sha256) throw new Error(`${input.label}: the small file came back different`);
      return { whole, rangeTimes };
    });

    const folderId = await mem.phase('small files', async () => {
      const folderId = await mkdir(server, jar, `zip-${input.label}`);
      await uploadSmallFiles(server, jar, input.smallFilesDir, input.smallFileCount, folderId);
      return folderId;
    });
    await settleBeforeTimedPhase();
    const { zip, zipMs } = await mem.phase('zip', async () => {
      const zipStarted = performance.now();
      const res = await jar.fetch(`${server.url}${API.zipDownload}?ids=${folderId}&name=archive`, { headers: clientHeaders('desktop', 'internal'), signal: AbortSignal.timeout(900_000) });
      if (!res.ok) throw new Error(`${input.label}: ZIP download HTTP ${res.status}`);
      const zip = Buffer.from(await res.arrayBuffer());
      return { zip, zipMs: performance.now() - zipStarted };
    });
    const files = readZip(zip).filter((e) => !e.isDir);
    if (files.length !== input.smallFileCount) throw new Error(`${input.label}: the ZIP holds ${files.length} files, not ${input.smallFileCount}`);
    for (const f of files) {
      const expected = await fsp.readFile(path.join(input.smallFilesDir, path.basename(f.name)));
      if (!f.data.equals(expected)) throw new Error(`${input.label}: the ZIP's ${f.name} differs from the file`);
    }

    return {
      uploadMs: big.ms,
      mergeMs: big.mergeMs,
      smallMergeMs: small.mergeMs,
      downloadMs: whole.ms,
      rangeMs: median(rangeTimes),
      zipMs,
      zipBytes: zip.length,
      baselineServerMB: mem.baselineMB,
      peakServerMB: mem.peakMB,
      memory: mem.phases,
    };
  } finally {
    memory?.stop();
    await server.stop();
  }
}
