/**
 * Unhashed streaming uploads (streamingDigests 'server', what the browser engine does): the real
 * engine under Node against the real server. A file the probe does not find goes up without a single
 * chunk digest computed by the client, byte-exact, with the fingerprint a hashing client would have
 * computed (a later upload of the same bytes is a second upload with zero chunk bytes); dropped, reset
 * and stalled chunk requests change nothing; and a session whose file changed before it was resumed is
 * dropped for a new one from chunk 0, instead of merging old and new bytes.
 *
 * Not covered, by design: a proxy that flips a byte in a chunk body ('corrupt' in fault-proxy.ts). An
 * unhashed chunk has no digest to check it against; the transport (TCP, TLS in production) is trusted
 * with the bytes' integrity (common/transfer/protocol.ts, "Streaming sessions").
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINE_MIN_BYTES } from '../../common/transfer/constants';
import { createInThreadHashChunk, type HashChunk } from '../../workers/hash/sha256';
import { createNodeEngine, uploadOnce, waitUntilSettled } from '../replay/engine-harness';
import { openFileSource, openNodeTransferDb, type CookieFetch } from '../replay/node-runtime';
import { downloadSha256, loggedInJar, sha256OfFile, withServerDb, writeRandomFile } from '../support/drive-server';
import { fastEngineDeps } from '../support/engine-deps';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { startServer, TEST_CHUNK_SIZE, type TestServer } from '../server/helpers';
import { chunkDigestHex, fingerprintHex } from '../support/chunk-digest';

const SIZE = PIPELINE_MIN_BYTES + 3 * 1024 * 1024 + 17;
let server: TestServer;
let clean: FaultProxy;
let faulty: FaultProxy;
let slow: FaultProxy;
let dir: string;
let jar: CookieFetch;

beforeAll(async () => {
  server = await startServer();
  clean = await startFaultProxy({ target: server.baseUrl, faultRate: 0 });
  // The first chunk request is a new file's whole-file request (protocol.ts, "Range uploads"): faulted, so the rest goes chunk by chunk, ~30 % of those faulted too.
  faulty = await startFaultProxy({ target: server.baseUrl, faultRate: 0.3, faultFirst: 1, seed: 11, stallMs: 4_000, kinds: ['drop', 'reset', 'stall'] });
  // ~6 chunks a second: the resume test pauses once the server has recorded a chunk, long before the end.
  slow = await startFaultProxy({ target: server.baseUrl, faultRate: 0, chunkBytesPerSecond: 24 * 1024 * 1024 });
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-unhashed-'));
  jar = await loggedInJar(server.baseUrl, server.dataDir);
});

afterAll(async () => {
  await clean?.close();
  await faulty?.close();
  await slow?.close();
  server?.app.server.closeAllConnections();
  await server?.close();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

/** An in-thread hasher that counts the chunks it was asked for. */
function countingHasher(): { hashChunk: HashChunk; calls: () => number } {
  const inner = createInThreadHashChunk();
  let calls = 0;
  return {
    hashChunk: (source, start, end, signal, onRead) => {
      calls++;
      return inner(source, start, end, signal, onRead);
    },
    calls: () => calls,
  };
}

/** The fingerprint a hashing client computes for the bytes of `file` (test chunk size). */
async function clientFingerprint(file: string): Promise<string> {
  const bytes = await fsp.readFile(file);
  const digests: string[] = [];
  for (let at = 0; at < Math.max(1, bytes.length); at += TEST_CHUNK_SIZE) digests.push(chunkDigestHex(bytes.subarray(at, at + TEST_CHUNK_SIZE)));
  return fingerprintHex(digests);
}

const storedFingerprint = (fileId: string) =>
  withServerDb(server.dataDir, (db) => (db.prepare('SELECT b.fingerprint AS fp FROM files f JOIN blobs b ON b.id = f.blob_id WHERE f.id = ?').get(fileId) as { fp: string }).fp);

function upload(proxyUrl: string, file: string, name: string, hashChunk: HashChunk) {
  return uploadOnce(proxyUrl, jar, file, name, fastEngineDeps({ streamingDigests: 'server', hashChunk, hashConcurrency: 2 }));
}

describe('unhashed streaming upload', () => {
  it('sends every byte once without hashing, stores the client fingerprint, and a second upload sends none', async () => {
    const file = path.join(dir, 'large.bin');
    const sha256 = await writeRandomFile(file, SIZE);
    const hasher = countingHasher();

    const first = await upload(clean.url, file, 'large.bin', hasher.hashChunk);
    expect(first.item.state, first.item.lastError ?? '').toBe('done');
    expect(first.record).toMatchObject({ streamingSession: true, serverDigests: true, fingerprint: null });
    expect(hasher.calls()).toBe(0);
    expect(clean.counters.chunkBytesForwarded).toBe(SIZE);
    expect(await downloadSha256(server.baseUrl, jar, first.item.fileId!)).toEqual({ sha256, size: SIZE });
    expect(await storedFingerprint(first.item.fileId!)).toBe(await clientFingerprint(file));

    // The probe finds it: hashed first, claimed, zero chunk bytes.
    clean.resetCounters();
    const second = await upload(clean.url, file, 'large-again.bin', hasher.hashChunk);
    expect(second.item.state, second.item.lastError ?? '').toBe('done');
    expect(second.item.via).toBe('instant');
    expect(clean.counters.chunkBytesForwarded).toBe(0);
    expect(hasher.calls()).toBeGreaterThan(0);
  });

  it('ends byte-exact while ~30 % of chunk requests are dropped, reset or stalled', async () => {
    const file = path.join(dir, 'large-faulty.bin');
    const sha256 = await writeRandomFile(file, SIZE);
    const hasher = countingHasher();
    const { item, record } = await upload(faulty.url, file, 'large-faulty.bin', hasher.hashChunk);
    expect(item.state, item.lastError ?? '').toBe('done');
    expect(record?.serverDigests).toBe(true);
    expect(hasher.calls()).toBe(0);
    expect(Object.values(faulty.counters.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(await downloadSha256(server.baseUrl, jar, item.fileId!)).toEqual({ sha256, size: SIZE });
    expect(await storedFingerprint(item.fileId!)).toBe(await clientFingerprint(file));
  });

  it('drops the session of a file that changed before the upload went on, and starts again from chunk 0', async () => {
    const file = path.join(dir, 'changing.bin');
    await writeRandomFile(file, SIZE);
    const queue = openNodeTransferDb(`unhashed-resume-${Date.now()}`);
    const hasher = countingHasher();
    const deps = fastEngineDeps({ db: queue, streamingDigests: 'server', hashChunk: hasher.hashChunk, hashConcurrency: 2, chunkConcurrency: 1 });

    // Part of the file goes up (through the slow proxy, so the pause comes long before the end); the
    // pause waits until the server has recorded a chunk of the session, whatever the machine's load:
    // the engine's bytesDone counts bytes handed to the connection, which may still sit in socket buffers.
    const recordedChunks = async () => {
      const session = (await queue.uploads.get(id!))?.uploadId;
      if (!session) return 0;
      return withServerDb(server.dataDir, (db) => (db.prepare('SELECT COUNT(*) AS n FROM upload_chunks WHERE upload_id = ?').get(session) as { n: number }).n);
    };
    const before = createNodeEngine(slow.url, jar, deps);
    const [id] = await before.engine.enqueueUploads([await openFileSource(file, 'changing.bin')], { parentId: null, category: 1 });
    let paused = false;
    await waitUntilSettled(before.engine, {
      ids: [id!],
      timeoutMs: 60_000,
      onSnapshot: async () => {
        if (paused || (await recordedChunks()) === 0) return;
        paused = true;
        await before.engine.pause(id!);
      },
    });
    await before.close();
    const partial = await queue.uploads.get(id!);
    expect(partial).toMatchObject({ state: 'paused', streamingSession: true, serverDigests: true });
    const oldSession = partial!.uploadId;
    expect(await recordedChunks()).toBeGreaterThan(0);
    expect(partial!.bytesDone).toBeLessThan(SIZE);

    // The file is rewritten (same size, new bytes, a later modification time) and picked again.
    const sha256 = await writeRandomFile(file, SIZE);
    const later = new Date(partial!.lastModified + 60_000);
    await fsp.utimes(file, later, later);

    const after = createNodeEngine(clean.url, jar, deps);
    try {
      await after.engine.resume(id!);
      // The stored source cannot be read any more (it changed): held until the file is picked again.
      const held = await waitUntilSettled(after.engine, { ids: [id!], timeoutMs: 60_000 });
      expect(held.items.find((i) => i.id === id)).toMatchObject({ state: 'held', holdReason: 'fileMissing' });
      expect(await after.engine.reattach(id!, await openFileSource(file, 'changing.bin'))).toBe(true);
      const s = await waitUntilSettled(after.engine, { ids: [id!], timeoutMs: 120_000 });
      const item = s.items.find((i) => i.id === id)!;
      expect(item.state, item.lastError ?? '').toBe('done');
      const record = await queue.uploads.get(id!);
      expect(record?.uploadId === null || record?.uploadId !== oldSession).toBe(true);
      expect(record?.lastModified).toBe(Math.floor((await fsp.stat(file)).mtimeMs));
      expect(record?.lastModified).not.toBe(partial!.lastModified);
      expect(await downloadSha256(server.baseUrl, jar, item.fileId!)).toEqual({ sha256, size: SIZE });
      expect(await sha256OfFile(file)).toBe(sha256);
      expect(hasher.calls()).toBe(0);
    } finally {
      await after.close();
    }
  });
});
