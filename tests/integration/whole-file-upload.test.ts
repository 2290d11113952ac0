/**
 * A new file of an unhashed streaming session goes up as ONE range upload of the whole File
 * (workers/engine/whole-file.ts, protocol.ts "Range uploads"): the real engine under Node against the
 * real server, through the fault proxy. A dropped, reset or stalled whole-file request falls back to
 * chunk-by-chunk from what the server recorded as the body arrived (at most one chunk sent twice), a
 * pause aborts the request at once, and every outcome is byte-exact with the client's fingerprint.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders } from '../../common/api/client-env';
import { API } from '../../common/api/paths';
import { chunkCount } from '../../common/transfer/protocol';
import { PIPELINE_MIN_BYTES } from '../../common/transfer/constants';
import { createInThreadHashChunk } from '../../workers/hash/sha256';
import { abortableSleep } from '../../workers/engine/backoff';
import { createNodeChunkTransport } from '../../workers/node/chunk-transport';
import { createNodeEngine, waitUntilSettled } from '../replay/engine-harness';
import { openFileSource, openNodeTransferDb, type CookieFetch } from '../replay/node-runtime';
import { downloadSha256, loggedInJar, withServerDb, writeRandomFile } from '../support/drive-server';
import { fastEngineDeps } from '../support/engine-deps';
import { startFaultProxy, type FaultKind } from '../support/fault-proxy';
import { startServer, TEST_CHUNK_SIZE, type TestServer } from '../server/helpers';
import { chunkDigestHex, fingerprintHex } from '../support/chunk-digest';

const SIZE = PIPELINE_MIN_BYTES + 3 * 1024 * 1024 + 17;
const CHUNKS = chunkCount(SIZE, TEST_CHUNK_SIZE);
let server: TestServer;
let dir: string;
let jar: CookieFetch;

beforeAll(async () => {
  server = await startServer();
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-whole-file-'));
  jar = await loggedInJar(server.baseUrl, server.dataDir);
});

afterAll(async () => {
  server?.app.server.closeAllConnections();
  await server?.close();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

async function clientFingerprint(file: string): Promise<string> {
  const bytes = await fsp.readFile(file);
  const digests: string[] = [];
  for (let at = 0; at < bytes.length; at += TEST_CHUNK_SIZE) digests.push(chunkDigestHex(bytes.subarray(at, at + TEST_CHUNK_SIZE)));
  return fingerprintHex(digests);
}

const storedFingerprint = (fileId: string) =>
  withServerDb(server.dataDir, (db) => (db.prepare('SELECT b.fingerprint AS fp FROM files f JOIN blobs b ON b.id = f.blob_id WHERE f.id = ?').get(fileId) as { fp: string }).fp);

/** Chunk body bytes the server read so far (test hook): what a resume sent twice is measured here. */
async function serverReceived(): Promise<number> {
  const res = await jar.fetch(server.baseUrl + API.testStats, { method: 'GET', headers: clientHeaders('desktop', 'internal'), signal: AbortSignal.timeout(10_000) });
  return ((await res.json()) as { data: { chunkBytesReceived: number } }).data.chunkBytesReceived;
}

function engineAt(url: string, extra: Parameters<typeof fastEngineDeps>[0] = {}) {
  return createNodeEngine(url, jar, fastEngineDeps({ streamingDigests: 'server', hashChunk: createInThreadHashChunk(), hashConcurrency: 2, ...extra }));
}

async function expectStored(fileId: string, file: string, sha256: string): Promise<void> {
  expect(await downloadSha256(server.baseUrl, jar, fileId)).toEqual({ sha256, size: SIZE });
  expect(await storedFingerprint(fileId)).toBe(await clientFingerprint(file));
}

describe('whole-file upload of a new file', () => {
  it('sends the whole file in one request; every chunk is confirmed and persisted from its answer', async () => {
    const proxy = await startFaultProxy({ target: server.baseUrl, faultRate: 0 });
    const file = path.join(dir, 'whole.bin');
    const sha256 = await writeRandomFile(file, SIZE);
    const { engine, db, close } = engineAt(proxy.url);
    try {
      const [id] = await engine.enqueueUploads([await openFileSource(file, 'whole.bin')], { parentId: null, category: 1 });
      const s = await waitUntilSettled(engine, { ids: [id!], timeoutMs: 120_000 });
      const item = s.items.find((i) => i.id === id)!;
      expect(item.state, item.lastError ?? '').toBe('done');
      expect(CHUNKS).toBeGreaterThan(2);
      expect(proxy.counters.chunkRequests).toBe(1);
      expect(proxy.counters.chunkRequestsOk).toBe(1);
      expect(proxy.counters.chunkBytesForwarded).toBe(SIZE);
      expect((await db.uploads.get(id!))?.serverDigests).toBe(true);
      await expectStored(item.fileId!, file, sha256);
    } finally {
      await close();
      await proxy.close();
    }
  });

  for (const kind of ['drop', 'reset', 'stall'] as FaultKind[]) {
    it(`a ${kind} of the whole-file request: the rest goes chunk by chunk, at most one chunk sent twice, byte-exact`, async () => {
      const proxy = await startFaultProxy({ target: server.baseUrl, faultFirst: 1, kinds: [kind], stallMs: 4_000 });
      const file = path.join(dir, `fault-${kind}.bin`);
      const sha256 = await writeRandomFile(file, SIZE);
      const { engine, close } = engineAt(proxy.url);
      const receivedBefore = await serverReceived();
      try {
        const [id] = await engine.enqueueUploads([await openFileSource(file, `fault-${kind}.bin`)], { parentId: null, category: 1 });
        const s = await waitUntilSettled(engine, { ids: [id!], timeoutMs: 120_000 });
        const item = s.items.find((i) => i.id === id)!;
        expect(item.state, item.lastError ?? '').toBe('done');
        expect(proxy.counters.faults[kind]).toBe(1);
        // The faulted request plus one request per chunk not recorded when it failed.
        expect(proxy.counters.chunkRequests).toBeGreaterThan(1);
        expect(proxy.counters.chunkRequests).toBeLessThanOrEqual(1 + CHUNKS);
        // Sent twice, as the server read it: at most one chunk. (The proxy's own count also holds the
        // bytes it wrote into a socket it then destroyed, which never reached the server.)
        const resent = (await serverReceived()) - receivedBefore - SIZE;
        console.info(`[whole-file ${kind}] server read ${resent} bytes twice; proxy forwarded ${proxy.counters.chunkBytesForwarded - SIZE} more than the file`);
        expect(resent).toBeGreaterThanOrEqual(0);
        expect(resent).toBeLessThanOrEqual(TEST_CHUNK_SIZE);
        await expectStored(item.fileId!, file, sha256);
      } finally {
        await close();
        await proxy.close();
      }
    });
  }

  it('a pause aborts the request at once; the resume sends the rest chunk by chunk, at most one chunk twice', async () => {
    const proxy = await startFaultProxy({ target: server.baseUrl, faultRate: 0 });
    const file = path.join(dir, 'paused.bin');
    const sha256 = await writeRandomFile(file, SIZE);
    const queue = openNodeTransferDb(`whole-file-pause-${Date.now()}`);
    // A slow link (1 MiB per 25 ms, ~40 MB/s), so the pause lands in the middle of the whole-file request.
    const slow = createNodeChunkTransport(jar, { throttle: (bytes, signal) => abortableSleep(Math.ceil((bytes / (1024 * 1024)) * 25), signal) });
    const { engine, close } = engineAt(proxy.url, { db: queue, transport: slow });
    const receivedBefore = await serverReceived();
    try {
      const [id] = await engine.enqueueUploads([await openFileSource(file, 'paused.bin')], { parentId: null, category: 1 });
      let pausedAt = -1;
      await waitUntilSettled(engine, {
        ids: [id!],
        timeoutMs: 60_000,
        pollMs: 5,
        onSnapshot: async (s) => {
          const view = s.items.find((i) => i.id === id);
          if (pausedAt >= 0 || !view || view.bytesDone < 2 * TEST_CHUNK_SIZE) return;
          pausedAt = view.bytesDone;
          await engine.pause(id!);
        },
      });
      expect(pausedAt).toBeGreaterThan(0);
      const afterPause = proxy.counters.chunkBytesForwarded;
      await new Promise((r) => setTimeout(r, 300));
      // Nothing more reached the proxy: the request was aborted, not left to finish.
      expect(proxy.counters.chunkBytesForwarded).toBe(afterPause);
      const paused = (await engine.getSnapshot()).items.find((i) => i.id === id)!;
      expect(paused.state).toBe('paused');

      await engine.resume(id!);
      const s = await waitUntilSettled(engine, { ids: [id!], timeoutMs: 120_000 });
      const item = s.items.find((i) => i.id === id)!;
      expect(item.state, item.lastError ?? '').toBe('done');
      const resent = (await serverReceived()) - receivedBefore - SIZE;
      expect(resent).toBeGreaterThanOrEqual(0);
      expect(resent).toBeLessThanOrEqual(TEST_CHUNK_SIZE);
      await expectStored(item.fileId!, file, sha256);
    } finally {
      await close();
      await proxy.close();
    }
  });
});
