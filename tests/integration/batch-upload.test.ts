/**
 * Small files in batches with the real engine under Node against the real server: a folder of small
 * files arrives whole and byte-exact in a few requests beside a larger file that takes the chunked
 * protocol, and a faulty network (dropped, reset, stalled and corrupted batch requests) changes
 * nothing but the time it takes: no file is missing, none is there twice.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { FileEntry } from '../../common/api/types';
import { BATCH_FILE_MAX_BYTES, BATCH_MAX_FILES } from '../../common/transfer/batch-upload';
import { createNodeEngine, waitUntilSettled } from '../replay/engine-harness';
import { openFileSource, type CookieFetch } from '../replay/node-runtime';
import { downloadSha256, loggedInJar, writeRandomFile } from '../support/drive-server';
import { fastEngineDeps } from '../support/engine-deps';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { startServer, type TestServer } from '../server/helpers';

let server: TestServer;
let faulty: FaultProxy;
let dir: string;
let jar: CookieFetch;

beforeAll(async () => {
  server = await startServer();
  faulty = await startFaultProxy({ target: server.baseUrl, faultRate: 0, seed: 11, stallMs: 3_000 });
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-batch-'));
  jar = await loggedInJar(server.baseUrl, server.dataDir);
});

afterAll(async () => {
  await faulty?.close();
  server?.app.server.closeAllConnections();
  await server?.close();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

interface Written {
  relativePath: string;
  sha256: string;
}

/** A tree of `count` small files over nested folders, plus one file over the batch limit. */
async function writeTree(root: string, count: number): Promise<Written[]> {
  const files: Written[] = [];
  for (let i = 0; i < count; i++) {
    const relativePath = `tree/d${i % 5}/e${i % 3}/f${i}.txt`;
    await fsp.mkdir(path.join(root, path.dirname(relativePath)), { recursive: true });
    files.push({ relativePath, sha256: await writeRandomFile(path.join(root, relativePath), 1 + ((i * 997) % 9000)) });
  }
  const big = 'tree/big.bin';
  files.push({ relativePath: big, sha256: await writeRandomFile(path.join(root, big), BATCH_FILE_MAX_BYTES + 1) });
  return files;
}

async function uploadTree(proxyUrl: string, root: string, files: Written[], targetId: string) {
  const { engine, close } = createNodeEngine(proxyUrl, jar, fastEngineDeps());
  try {
    const entries = await Promise.all(
      files.map(async (f) => ({ file: await openFileSource(path.join(root, f.relativePath), path.basename(f.relativePath)), relativePath: f.relativePath })),
    );
    const ids = await engine.enqueueFolder(entries, { parentId: targetId, category: 1 });
    const snapshot = await waitUntilSettled(engine, { ids, timeoutMs: 150_000 });
    return ids.map((id) => snapshot.items.find((i) => i.id === id)!);
  } finally {
    await close();
  }
}

/** Every file under `folderId`, by its path below it. */
async function listTree(folderId: string, prefix = ''): Promise<Map<string, FileEntry>> {
  const out = new Map<string, FileEntry>();
  let cursor: string | null = null;
  do {
    const res = await jar.fetch(server.baseUrl + API.fileList, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client-platform': 'web', 'x-network-env': 'internal' },
      body: JSON.stringify({ parentId: folderId, category: 1, pageSize: 500, ...(cursor ? { cursor } : {}) }),
    });
    const page = ((await res.json()) as { data: { items: FileEntry[]; nextCursor: string | null } }).data;
    for (const entry of page.items) {
      const at = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDir) for (const [p, e] of await listTree(entry.id, at)) out.set(p, e);
      else out.set(at, entry);
    }
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

async function mkdir(name: string): Promise<string> {
  const res = await jar.fetch(server.baseUrl + API.mkdir, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client-platform': 'web', 'x-network-env': 'internal' },
    body: JSON.stringify({ name, parentId: null, category: 1 }),
  });
  return ((await res.json()) as { data: FileEntry }).data.id;
}

async function expectTreeOnServer(folderId: string, files: Written[]): Promise<void> {
  const listed = await listTree(folderId);
  expect([...listed.keys()].sort()).toEqual(files.map((f) => f.relativePath).sort());
  for (const f of files) {
    const { sha256 } = await downloadSha256(server.baseUrl, jar, listed.get(f.relativePath)!.id);
    expect(sha256, f.relativePath).toBe(f.sha256);
  }
}

describe('small files in batches, engine against the real server', () => {
  it('a folder of small files arrives whole in a few batch requests; the large one takes chunks', async () => {
    const root = path.join(dir, 'clean');
    const files = await writeTree(root, BATCH_MAX_FILES + 40);
    const folderId = await mkdir('batch-clean');
    faulty.resetCounters();
    faulty.setFaultRate(0);
    const items = await uploadTree(faulty.url, root, files, folderId);
    expect(items.map((i) => i.state)).toEqual(files.map(() => 'done'));
    await expectTreeOnServer(folderId, files);
    // Two batches for the small files (one full, one partial) and one chunk request for the big one.
    expect(faulty.counters.chunkRequests).toBeLessThanOrEqual(2 + 2);
  });

  it('faults on half the batch requests cost retries, never a file', async () => {
    const root = path.join(dir, 'faulty');
    const files = await writeTree(root, 3 * BATCH_MAX_FILES);
    const folderId = await mkdir('batch-faulty');
    faulty.resetCounters();
    faulty.setFaultRate(0.5);
    const items = await uploadTree(faulty.url, root, files, folderId);
    faulty.setFaultRate(0);
    expect(items.map((i) => i.state)).toEqual(files.map(() => 'done'));
    expect(Object.values(faulty.counters.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    await expectTreeOnServer(folderId, files);
  });
});
