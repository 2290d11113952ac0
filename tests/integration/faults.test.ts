/**
 * The engine under Node uploads files of awkward sizes through a proxy that drops, resets, stalls
 * and corrupts about a quarter of the requests carrying file bytes (chunks, and the small files'
 * batch): every upload must still end 'done' and the server must hand back exactly the bytes of the
 * source.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_FILE_MAX_BYTES } from '../../common/transfer/batch-upload';
import { createNodeEngine, waitUntilSettled } from '../replay/engine-harness';
import { openFileSource } from '../replay/node-runtime';
import { downloadSha256, loggedInJar, writeRandomFile } from '../support/drive-server';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { fastEngineDeps } from '../support/engine-deps';
import { startServer, type TestServer } from '../server/helpers';

const MiB = 1024 * 1024;
const SIZES: Array<[string, number]> = [
  ['empty.bin', 0],
  ['one-byte.bin', 1],
  ['exactly-4MiB.bin', 4 * MiB],
  ['4MiB-plus-1.bin', 4 * MiB + 1],
  ['about-20MiB.bin', 20 * MiB + 12_345],
  ['about-9MiB.bin', 9 * MiB + 7],
  ['about-17MiB.bin', 17 * MiB - 3],
];

let server: TestServer;
let proxy: FaultProxy;
let dir: string;
const sources = new Map<string, string>();

beforeAll(async () => {
  server = await startServer();
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-faults-'));
  for (const [name, size] of SIZES) sources.set(name, await writeRandomFile(path.join(dir, name), size));
  proxy = await startFaultProxy({ target: server.baseUrl, faultRate: 0.3, seed: 20240611, stallMs: 4_000 });
});

afterAll(async () => {
  await proxy?.close();
  // Cut connections the proxy reset mid-body first: the server's close() waits for them otherwise.
  server?.app.server.closeAllConnections();
  await server?.close();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

describe('engine through a faulty network', () => {
  it('finishes every upload byte-exact while ~30 % of chunk requests fail in four ways', async () => {
    const jar = await loggedInJar(server.baseUrl, server.dataDir);
    const { engine, close } = createNodeEngine(proxy.url, jar, fastEngineDeps());
    try {
      const files = await Promise.all(SIZES.map(([name]) => openFileSource(path.join(dir, name))));
      const ids = await engine.enqueueUploads(files, { parentId: null, category: 1 });
      const snapshot = await waitUntilSettled(engine, { ids, timeoutMs: 120_000 });

      const report = snapshot.items.map((i) => `${i.name}:${i.state}${i.lastError ? `(${i.lastError})` : ''}`).join(', ');
      for (const item of snapshot.items) expect(item.state, report).toBe('done');

      for (const item of snapshot.items) {
        const got = await downloadSha256(server.baseUrl, jar, item.fileId!);
        expect(got.size, item.name).toBe(item.size);
        expect(got.sha256, item.name).toBe(sources.get(item.name));
      }

      const c = proxy.counters;
      // The faults really happened, of every kind, at about the configured share.
      expect(c.faults.drop).toBeGreaterThan(0);
      expect(c.faults.reset).toBeGreaterThan(0);
      expect(c.faults.stall).toBeGreaterThan(0);
      expect(c.faults.corrupt).toBeGreaterThan(0);
      const faulted = c.faults.drop + c.faults.reset + c.faults.stall + c.faults.corrupt;
      expect(faulted / c.chunkRequests).toBeGreaterThan(0.15);
      // Every chunk reached the server whole at least once, and the small files' batch did.
      const large = SIZES.filter(([, size]) => size > BATCH_FILE_MAX_BYTES);
      const totalChunks = large.reduce((n, [, size]) => n + Math.ceil(size / (4 * MiB)), 0) + (large.length < SIZES.length ? 1 : 0);
      expect(c.chunkRequestsOk).toBeGreaterThanOrEqual(totalChunks);
      console.info(`fault proxy: ${JSON.stringify(c)}`);
    } finally {
      await close();
    }
  });
});
