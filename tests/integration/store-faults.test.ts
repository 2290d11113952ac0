/**
 * Faults of the object store against a real one (issue 37): a one-node Ceph radosgw
 * (tests/support/radosgw.ts) under a server child storing in it, the engine under Node uploading.
 *  - radosgw stopped (SIGSTOP) for 20 s while 50 uploads run at once, and while files download;
 *  - radosgw killed (SIGKILL) in the middle of a merge, started again;
 *  - the server killed while writes to the store are open (chunk bodies streaming, a multipart upload).
 * Afterwards every acknowledged file is byte-exact, one sweeper pass leaves no open multipart upload and
 * no object the database does not account for, and the recovery report counts what was there.
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateMultipartUploadCommand, UploadPartCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, downloadUrl } from '../../common/api/paths';
import { clientHeaders } from '../../common/api/client-env';
import { createNodeEngine, waitUntilSettled, type NodeEngineDeps } from '../replay/engine-harness';
import { openFileSource, type CookieFetch } from '../replay/node-runtime';
import { downloadSha256, freePort, loggedInJar, writeRandomFile } from '../support/drive-server';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { startRadosgw, type Radosgw } from '../support/radosgw';
import { CHUNK_SIZE, listKeys, openMultipartUploads, recoveryReportOf, startStoreServer, sweepOnce, unaccountedKeys, type StoreServer } from './store-fault-kit';

const MiB = 1024 * 1024;
const BUCKET = 'faults';
const OUTAGE_MS = 20_000;
/** The server gives up on a store request after this long (BLOB_STORE's timeoutMs). */
const STORE_TIMEOUT_MS = 2_000;
/** How long an upload session lives (UPLOAD_EXPIRY_MS): what the sweeper waits before removing a failed merge's copies. */
const UPLOAD_SESSION_MS = 3600_000;

let dir: string;
let dataDir: string;
let port: number;
let gateway: Radosgw;
let s3: S3Client;
let server: StoreServer;
let jar: CookieFetch;
let env: Record<string, string>;

/** The real retry schedule (250, 500, 1000… ms with the jitter fixed at its middle): ~30 s before the 8th try. */
const engineDeps = (extra: NodeEngineDeps = {}): NodeEngineDeps => ({ random: () => 0.5, ...extra });

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-store-faults-'));
  dataDir = path.join(dir, 'data');
  gateway = await startRadosgw();
  s3 = gateway.client();
  await gateway.createBucket(BUCKET);
  const store = gateway.env(BUCKET);
  env = { ...store, BLOB_STORE: `${store.BLOB_STORE}&timeoutMs=${STORE_TIMEOUT_MS}`, UPLOAD_EXPIRY_MS: String(UPLOAD_SESSION_MS) };
  port = await freePort();
  server = await startStoreServer({ dataDir, port, env });
  jar = await loggedInJar(server.baseUrl, dataDir);
}, 120_000);

afterAll(async () => {
  gateway?.resume();
  await server?.stop();
  s3?.destroy();
  await gateway?.stop();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

interface Source {
  file: string;
  name: string;
  sha256: string;
  size: number;
}

async function sources(prefix: string, count: number, size: (i: number) => number): Promise<Source[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const name = `${prefix}-${i}.bin`;
      const file = path.join(dir, name);
      return { file, name, size: size(i), sha256: await writeRandomFile(file, size(i)) };
    }),
  );
}

/** Uploads through `url` with `deps`; calls `during` once the uploads are under way; the items' final views. */
async function upload(url: string, files: Source[], deps: NodeEngineDeps, during?: () => Promise<void>) {
  const { engine, close } = createNodeEngine(url, jar, engineDeps(deps));
  try {
    const ids = await engine.enqueueUploads(await Promise.all(files.map((f) => openFileSource(f.file, f.name))), { parentId: null, category: 1 });
    const settled = waitUntilSettled(engine, { ids, timeoutMs: 150_000, pollMs: 50 });
    if (during) await during();
    const snapshot = await settled;
    return ids.map((id) => snapshot.items.find((i) => i.id === id)!);
  } finally {
    await close();
  }
}

async function expectByteExact(items: Array<{ state: string; fileId?: string | null; lastError?: string | null }>, files: Source[]): Promise<void> {
  expect(items.map((i) => `${i.state}${i.lastError ? `: ${i.lastError}` : ''}`)).toEqual(files.map(() => 'done'));
  for (const [i, f] of files.entries()) {
    const got = await downloadSha256(server.baseUrl, jar, items[i]!.fileId!);
    expect(got, f.name).toEqual({ sha256: f.sha256, size: f.size });
  }
}

async function chunkBytesReceived(): Promise<number> {
  const res = await jar.fetch(server.baseUrl + API.testStats, { headers: clientHeaders('desktop', 'internal') });
  return ((await res.json()) as { data: { chunkBytesReceived: number } }).data.chunkBytesReceived;
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** After a fault: one sweeper pass, then nothing open and nothing the database does not account for. */
async function expectCleanAfterOneSweep(): Promise<Record<string, unknown>> {
  const swept = await sweepOnce(server.baseUrl, jar);
  expect(await openMultipartUploads(s3, BUCKET)).toEqual([]);
  expect(await unaccountedKeys(await listKeys(s3, BUCKET), dataDir)).toEqual([]);
  return swept;
}

/** A download, read to its end: its status, coded error, SHA-256 and length, or how it broke. */
async function download(fileId: string, range?: string, timeoutMs = 60_000): Promise<{ status: number; code?: string; sha256?: string; size: number; broke?: string; ms: number }> {
  const started = Date.now();
  const res = await jar.fetch(server.baseUrl + downloadUrl(fileId), { headers: { ...clientHeaders('desktop', 'internal'), ...(range ? { range } : {}) }, signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { errorCode?: string };
    return { status: res.status, code: body.errorCode, size: 0, ms: Date.now() - started };
  }
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(piece);
      size += piece.length;
    }
  } catch (error) {
    return { status: res.status, size, broke: String(error), ms: Date.now() - started };
  }
  return { status: res.status, sha256: hash.digest('hex'), size, ms: Date.now() - started };
}

describe('radosgw stopped for 20 s', () => {
  it('during 50 uploads at once: requests fail coded meanwhile, the engine carries every upload across, byte-exact', async () => {
    const [stored] = await sources('stored', 1, () => 2 * CHUNK_SIZE + 5);
    const [storedItem] = await upload(server.baseUrl, [stored!], {});
    // Over the batch limit (1 MiB), so each takes the chunked protocol: two chunks or three.
    const files = await sources('outage', 50, (i) => 4 * CHUNK_SIZE + 1 + i * 4099);
    // Chunk bodies slowed, so the uploads are in flight when the store stops.
    const proxy: FaultProxy = await startFaultProxy({ target: server.baseUrl, faultRate: 0, chunkBytesPerSecond: 512 * 1024 });
    let meanwhile: Awaited<ReturnType<typeof download>> | undefined;
    try {
      const items = await upload(proxy.url, files, { fileConcurrency: 50 }, async () => {
        await until('the uploads are under way', () => proxy.counters.chunkBytesForwarded > 0, 60_000);
        gateway.pause();
        const outage = new Promise((r) => setTimeout(r, OUTAGE_MS)).then(() => gateway.resume());
        // What a user sees meanwhile: a clear coded error within the store's timeout, not a request that hangs.
        meanwhile = await download(storedItem!.fileId!, undefined, OUTAGE_MS - 2_000).catch((error: unknown) => ({ status: 0, code: `no answer: ${String(error)}`, size: 0, ms: OUTAGE_MS - 2_000 }));
        await outage;
      });
      await expectByteExact(items, files);
      await expectByteExact([storedItem!], [stored!]);
    } finally {
      await proxy.close();
    }
    await expectCleanAfterOneSweep();
    expect(meanwhile).toMatchObject({ status: 500, code: 'STO-5031' });
  });

  it('during downloads: each download in flight either waits it out or ends short, never complete with wrong bytes; resumed with Range it is byte-exact', async () => {
    const files = await sources('read', 4, (i) => 24 * MiB + i);
    const items = await upload(server.baseUrl, files, {});
    expect(items.map((i) => i.state)).toEqual(files.map(() => 'done'));
    // Readers that take their time, so the outage falls in the middle of their bodies.
    const reads = items.map(async (item, n) => {
      const res = await jar.fetch(server.baseUrl + downloadUrl(item.fileId!), { headers: clientHeaders('desktop', 'internal'), signal: AbortSignal.timeout(120_000) });
      expect(res.status).toBe(200);
      const pieces: Buffer[] = [];
      let size = 0;
      try {
        for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
          pieces.push(Buffer.from(piece));
          size += piece.length;
          await new Promise((r) => setTimeout(r, 5));
        }
      } catch {
        // cut: what arrived is kept, the rest is asked for with Range
      }
      return { n, got: Buffer.concat(pieces), size, ended: Date.now() };
    });
    await new Promise((r) => setTimeout(r, 300));
    gateway.pause();
    const stopped = Date.now();
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    gateway.resume();
    const results = await Promise.all(reads);
    // The outage fell on bodies in flight (else this test proved nothing).
    expect(results.filter((r) => r.ended > stopped).length).toBe(files.length);
    let cut = 0;
    for (const { n, got } of results) {
      const f = files[n]!;
      let whole = got;
      if (got.length < f.size) {
        cut++;
        const rest = await jar.fetch(server.baseUrl + downloadUrl(items[n]!.fileId!), { headers: { ...clientHeaders('desktop', 'internal'), range: `bytes=${got.length}-` } });
        expect(rest.status).toBe(206);
        whole = Buffer.concat([got, Buffer.from(await rest.arrayBuffer())]);
      }
      expect(whole.length, f.name).toBe(f.size);
      expect(createHash('sha256').update(whole).digest('hex'), f.name).toBe(f.sha256);
    }
    console.log(`downloads across a 20 s outage: ${cut} of ${files.length} cut and resumed with Range, the others waited it out`);
  });
});

describe('radosgw killed', () => {
  it('in the middle of a merge: the merge fails, the engine merges again once it is back, byte-exact; one sweeper pass an upload session later removes the copies the failed merge left', async () => {
    const [f] = await sources('merge', 1, () => 64 * CHUNK_SIZE + 77);
    let killed = false;
    let firstMerge: number | undefined;
    const knownBefore = new Set(await listKeys(s3, BUCKET));
    const fetchWatchingMerges: NodeEngineDeps['fetch'] = async (input: string, init: RequestInit) => {
      if (!input.includes(API.chunkMerge) || killed) return jar.fetch(input, init);
      const answer = jar.fetch(input, init);
      // Once the merge's first copy landed in the bucket: kill the gateway under the rest.
      await until('the merge began copying', async () => (await listKeys(s3, BUCKET)).some((k) => /^blobs\/[^/]+\/[0-9]+$/.test(k) && !knownBefore.has(k)), 30_000);
      await gateway.killGateway();
      killed = true;
      const res = await answer;
      firstMerge = res.status;
      setTimeout(() => void gateway.startGateway(), 3_000);
      return res;
    };
    const [item] = await upload(server.baseUrl, [f!], { fetch: fetchWatchingMerges });
    expect(killed).toBe(true);
    expect(firstMerge).not.toBe(200);
    await until('radosgw is back', async () => fetch(gateway.endpoint).then(() => true, () => false));
    await expectByteExact([item!], [f!]);

    // The failed merge's copies: a blob no row took (its upload merged again under another key).
    const leftOver = await unaccountedKeys(await listKeys(s3, BUCKET), dataDir);
    const orphanBlobs = new Set(leftOver.map((k) => k.split('/')[1]));
    expect(leftOver.length, 'copies the failed merge left').toBeGreaterThan(0);
    expect(leftOver.every((k) => /^blobs\/[^/]+\/[0-9]+$/.test(k)), leftOver.join(', ')).toBe(true);
    // A pass now leaves them: younger than an upload session (a merge whose process lost its lock may still be copying).
    expect(await sweepOnce(server.baseUrl, jar)).toMatchObject({ store: { orphanBlobDirs: 0 } });
    expect(await unaccountedKeys(await listKeys(s3, BUCKET), dataDir)).toEqual(leftOver);
    // One pass an upload session later removes them and counts them, as recovery's report would.
    const swept = await sweepOnce(server.baseUrl, jar, Date.now() + UPLOAD_SESSION_MS + 60_000);
    expect(swept).toMatchObject({ store: { orphanBlobDirs: orphanBlobs.size, multipartUploads: 0 } });
    expect(await openMultipartUploads(s3, BUCKET)).toEqual([]);
    expect(await unaccountedKeys(await listKeys(s3, BUCKET), dataDir)).toEqual([]);
    await expectByteExact([item!], [f!]);
    // The next start finds nothing left to remove: the sweeper's count and recovery's agree.
    await server.stop();
    server = await startStoreServer({ dataDir, port, env });
    expect(recoveryReportOf(server.run)).toMatchObject({ store: 's3', orphanBlobDirs: 0, brokenReferencedBlobs: [] });
    await expectByteExact([item!], [f!]);
  });
});

describe('the server killed while writes to the store are open', () => {
  it('restarts: recovery aborts the open multipart upload and reports it, the engine finishes byte-exact, nothing left over', async () => {
    const files = await sources('crash', 3, (i) => 12 * CHUNK_SIZE + i);
    const proxy: FaultProxy = await startFaultProxy({ target: server.baseUrl, faultRate: 0, chunkBytesPerSecond: 128 * 1024 });
    try {
      const before = await chunkBytesReceived();
      const items = await upload(proxy.url, files, { fileConcurrency: 3 }, async () => {
        await until('chunks are being stored', async () => (await chunkBytesReceived()) > before + CHUNK_SIZE);
        // A server-made blob of unknown length being written when the process dies (lib-storage's
        // multipart upload, as createWriter streams one past 5 MiB): made here under the store's key scheme.
        const key = `blobs/${randomBytes(16).toString('base64url')}`;
        const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }));
        await s3.send(new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId, PartNumber: 1, Body: randomBytes(5 * MiB) }));
        const open = await openMultipartUploads(s3, BUCKET);
        await server.kill();
        server = await startStoreServer({ dataDir, port, env });
        const report = recoveryReportOf(server.run);
        expect(report, 'the recovery report').toBeDefined();
        // Truthful: exactly the multipart uploads that were open, and no damage to acknowledged files.
        expect(report).toMatchObject({ store: 's3', multipartUploads: open.length, brokenReferencedBlobs: [] });
        expect(await openMultipartUploads(s3, BUCKET)).toEqual([]);
      });
      await expectByteExact(items, files);
    } finally {
      await proxy.close();
    }
    await expectCleanAfterOneSweep();
  });
});
