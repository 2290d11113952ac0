/**
 * ZIPs of many entries read ahead (server/http/zip-read-ahead.ts): the same bytes in the same order
 * as one read after another, bounded in count and bytes, and nothing read once the client is gone.
 * The route tests run on the store the run uses (DRIVE_TEST_STORE=s3: a real radosgw), reading through
 * `app.byteStore`, the store the ZIP reads.
 */
import http from 'node:http';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, zipDownloadUrl } from '../../common/api/paths';
import type { FileEntry } from '../../common/api/types';
import { type BatchUploadItem, type BatchUploadResponse } from '../../common/transfer/batch-upload';
import { zipStream, type ZipMember } from '../../server/http/zip-writer';
import { ZIP_READ_AHEAD, type ZipReadAhead } from '../../server/http/zip-read-ahead';
import { chunkDigestHex } from '../support/chunk-digest';
import { readZip } from '../support/zip-entries';
import { mkdir } from './file-kit';
import { type Client, randomContent, startServerAsAdmin, type TestServer, uploadFile } from './helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const NONE: ZipReadAhead = { entries: 0, bytes: 0, entryBytes: 0 };

/** Members whose reads end after random delays (so reads ahead finish out of order), counting what runs at once. */
function slowMembers(count: number, seed: number) {
  let state = seed;
  const rand = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const stats = { opened: 0, running: 0, maxRunning: 0, bytesOpen: 0, maxBytesOpen: 0, signals: [] as Array<AbortSignal | undefined> };
  const members: ZipMember[] = Array.from({ length: count }, (_, i) => {
    if (i % 17 === 5) return { name: `d${i}/`, isDir: true, size: 0, modifiedAt: 1_700_000_000_000 + i };
    const size = i % 11 === 3 ? 0 : i % 13 === 7 ? 5_000 + Math.floor(rand() * 3_000) : 1 + Math.floor(rand() * 2_500);
    const bytes = Buffer.from(Array.from({ length: size }, () => Math.floor(rand() * 256)));
    const delays = [rand() * 4, rand() * 4];
    return {
      name: `f${i}.${i % 3 === 0 ? 'txt' : 'bin'}`,
      isDir: false,
      size,
      modifiedAt: 1_700_000_000_000 + i * 1000,
      deflate: i % 3 === 0,
      open: size === 0 ? undefined : (signal?: AbortSignal) =>
        (async function* () {
          stats.opened++;
          stats.signals.push(signal);
          stats.running++;
          stats.bytesOpen += size;
          stats.maxRunning = Math.max(stats.maxRunning, stats.running);
          stats.maxBytesOpen = Math.max(stats.maxBytesOpen, stats.bytesOpen);
          try {
            await sleep(delays[0]!);
            yield bytes.subarray(0, size >> 1);
            await sleep(delays[1]!);
            yield bytes.subarray(size >> 1);
          } finally {
            stats.running--;
            stats.bytesOpen -= size;
          }
        })(),
    };
  });
  return { members, stats };
}

async function collect(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const p of stream) parts.push(p);
  return Buffer.concat(parts);
}

describe('zipStream read-ahead', () => {
  it('writes the same bytes as one read after another, reads finishing out of order, within its count and byte bounds', async () => {
    const limits: ZipReadAhead = { entries: 6, bytes: 12_000, entryBytes: 4_000 };
    const sequential = slowMembers(160, 7);
    const ahead = slowMembers(160, 7);
    const one = await collect(zipStream(sequential.members, { readAhead: NONE }));
    const many = await collect(zipStream(ahead.members, { readAhead: limits }));
    expect(sequential.stats.maxRunning).toBe(1);
    expect(many.equals(one)).toBe(true);
    expect(readZip(many).map((e) => e.name)).toEqual(ahead.members.map((m) => m.name));
    // Read ahead for real, but never more than the window (plus the entry being written) or the budget
    // (plus one member above entryBytes, which streams in its turn).
    expect(ahead.stats.maxRunning).toBeGreaterThan(2);
    expect(ahead.stats.maxRunning).toBeLessThanOrEqual(limits.entries + 1);
    expect(ahead.stats.maxBytesOpen).toBeLessThanOrEqual(limits.bytes + 8_000);
    expect(ahead.stats.opened).toBe(sequential.stats.opened);
  });

  it('a failing member fails the archive at that member; an abort stops every read and opens nothing more', async () => {
    const { members } = slowMembers(40, 3);
    const broken = members.findIndex((m, i) => i > 10 && m.open);
    members[broken] = { ...members[broken]!, open: () => (async function* () { await sleep(1); yield* []; throw new Error('store says no'); })() };
    await expect(collect(zipStream(members))).rejects.toThrow('store says no');

    const slow = slowMembers(200, 11);
    const abort = new AbortController();
    const pieces: Buffer[] = [];
    let openedAtAbort = -1;
    const run = (async () => {
      for await (const p of zipStream(slow.members, { signal: abort.signal })) {
        pieces.push(p);
        if (pieces.length === 60) {
          abort.abort();
          openedAtAbort = slow.stats.opened;
        }
      }
    })();
    await expect(run).rejects.toThrow();
    await sleep(30);
    expect(openedAtAbort).toBeGreaterThan(0);
    expect(slow.stats.opened).toBe(openedAtAbort);
    expect(slow.stats.running).toBe(0);
    expect(slow.stats.signals.every((s) => s?.aborted)).toBe(true);
  });
});

describe('ZIP of many entries from the store', () => {
  let server: TestServer;
  let admin: Client;
  /** Every openRead of the blob store the ZIP reads: when, and whether its stream is still open. */
  const reads: Array<{ at: number; stream: Readable }> = [];

  beforeAll(async () => {
    ({ server, admin } = await startServerAsAdmin());
    const blobs = server.app.byteStore.blobs;
    const openRead = blobs.openRead.bind(blobs);
    blobs.openRead = (...args) => {
      const stream = openRead(...args);
      reads.push({ at: Date.now(), stream });
      return stream;
    };
  });
  afterAll(async () => {
    await server.close();
  });

  /** Small files through the batch upload (as the engine sends them), in the order given. */
  async function batch(parentId: string, files: Array<{ name: string; bytes: Buffer }>): Promise<FileEntry[]> {
    const out: FileEntry[] = [];
    for (let i = 0; i < files.length; i += 100) {
      const part = files.slice(i, i + 100);
      const manifest: BatchUploadItem[] = part.map((f, k) => ({ clientKey: `${parentId}-${i + k}`, name: f.name, parentId, category: 1, size: f.bytes.length, digest: chunkDigestHex(f.bytes) }));
      const json = Buffer.from(JSON.stringify({ items: manifest }));
      const head = Buffer.alloc(4);
      head.writeUInt32BE(json.length);
      const res = await admin.raw(API.batchUpload, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: new Uint8Array(Buffer.concat([head, json, ...part.map((f) => f.bytes)])),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      for (const r of ((await res.json()) as { data: BatchUploadResponse }).data.results) {
        if (r.status !== 'created') throw new Error(`batch item not created: ${JSON.stringify(r)}`);
        out.push(r.file);
      }
    }
    return out;
  }

  it('holds every entry byte-exact and in the order asked for, each read once', async () => {
    const folder = await mkdir(admin, 'many');
    const files = Array.from({ length: 300 }, (_, i) => ({ name: `${String(i).padStart(3, '0')}-${i % 4 === 0 ? 'note.txt' : 'data.bin'}`, bytes: randomContent(i % 50 === 9 ? 0 : 1 + ((i * 977) % 9000)) }));
    const small = await batch(folder.id, files);
    // Two members above the read-ahead's entry size (chunked, streamed in their turn), among the small ones.
    const bigBytes = [randomContent(ZIP_READ_AHEAD.entryBytes + 300_000), randomContent(ZIP_READ_AHEAD.entryBytes * 2)];
    const big = await Promise.all(bigBytes.map(async (b, i) => (await uploadFile(admin, b, `big-${i}.bin`, { parentId: folder.id })).body.data));
    // Loose ids: the archive keeps their order (a shuffled one, so no listing order can fake it).
    const order = [...small.map((f, i) => ({ id: f.id, name: f.name, bytes: files[i]!.bytes })), ...big.map((f, i) => ({ id: f.id, name: f.name, bytes: bigBytes[i]! }))];
    order.splice(150, 0, order.pop()!);
    order.splice(40, 0, order.pop()!);
    for (let i = order.length - 1; i > 0; i -= 7) [order[i], order[i - 3]] = [order[i - 3]!, order[i]!];

    const before = reads.length;
    const res = await admin.raw(zipDownloadUrl(order.map((o) => o.id)));
    expect(res.status).toBe(200);
    const entries = readZip(Buffer.from(await res.arrayBuffer()));
    expect(entries.map((e) => e.name)).toEqual(order.map((o) => o.name));
    for (const [i, e] of entries.entries()) expect(e.data.equals(order[i]!.bytes), e.name).toBe(true);
    expect(reads.length - before).toBe(order.filter((o) => o.bytes.length > 0).length);
  });

  it('a client gone mid-ZIP stops the reads: none opened afterwards, none left open', async () => {
    const folder = await mkdir(admin, 'abandoned');
    // Incompressible and bigger than the sockets' buffers, so the server waits on the client.
    const files = Array.from({ length: 320 }, (_, i) => ({ name: `${String(i).padStart(3, '0')}.bin`, bytes: randomContent(96 * 1024) }));
    await batch(folder.id, files);
    const before = reads.length;
    await new Promise<void>((resolve, reject) => {
      const req = http.get(server.baseUrl + zipDownloadUrl([folder.id]), { headers: { cookie: admin.cookie } }, (res) => {
        res.once('data', () => {
          res.pause();
          // The server fills the socket and stops; then the client goes.
          void (async () => {
            let seen = -1;
            while (reads.length !== seen) {
              seen = reads.length;
              await sleep(300);
            }
            req.destroy();
            resolve();
          })();
        });
      });
      req.on('error', reject); // a no-op once resolved: destroying the request errors it
    });
    const atAbort = reads.length - before;
    expect(atAbort).toBeGreaterThan(0);
    expect(atAbort).toBeLessThan(files.length);
    await sleep(1000);
    expect(reads.length - before).toBe(atAbort);
    expect(reads.slice(before).filter((r) => !r.stream.destroyed && !r.stream.readableEnded)).toEqual([]);
  });
});
