/**
 * The small-file batch (common/transfer/batch-upload.ts) over real HTTP on a real SQLite database:
 * many files in one request, each checked and refusable on its own, stored once per content,
 * committed together, repeatable with the same client keys, and nothing left behind by a refused
 * request or by a crash between the write and the commit.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API, downloadUrl } from '../../common/api/paths';
import type { UserDetails } from '../../common/api/types';
import { BATCH_MAX_FILES, HEADER_BATCH_MANIFEST_SHA256, type BatchUploadItem, type BatchUploadResponse } from '../../common/transfer/batch-upload';
import { entries, mkdir, names } from './file-kit';
import { type Answer, type Client, randomContent, startServer, startServerAsAdmin, type TestServer, withDb } from './helpers';
import { chunkDigestHex } from '../support/chunk-digest';
import { isStored, withTestByteStore } from '../support/test-byte-store';
import { testStore } from '../support/test-store';
import { fingerprintInput } from '../../common/transfer/protocol';

let server: TestServer;
let admin: Client;
let serial = 0;

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
});
afterAll(async () => {
  await server.close();
});

interface TestFile {
  name: string;
  bytes: Buffer;
  parentId?: string | null;
  onConflict?: BatchUploadItem['onConflict'];
  /** Announce another digest than the bytes have. */
  wrongDigest?: boolean;
  ifMatch?: BatchUploadItem['ifMatch'];
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function body(files: TestFile[], keys: string[]): { manifest: BatchUploadItem[]; bytes: Buffer } {
  const manifest = files.map((f, i): BatchUploadItem => ({
    clientKey: keys[i]!,
    name: f.name,
    parentId: f.parentId ?? null,
    category: 1,
    size: f.bytes.length,
    digest: f.wrongDigest ? chunkDigestHex(Buffer.from('other')) : chunkDigestHex(f.bytes),
    ...(f.onConflict ? { onConflict: f.onConflict } : {}),
    ...(f.ifMatch ? { ifMatch: f.ifMatch } : {}),
  }));
  return { manifest, bytes: frame(JSON.stringify({ items: manifest }), files.map((f) => f.bytes)) };
}

function frame(manifestJson: string, parts: Buffer[]): Buffer {
  const json = Buffer.from(manifestJson, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length, 0);
  return Buffer.concat([length, json, ...parts]);
}

async function post(client: Client, raw: Buffer, headers: Record<string, string> = {}): Promise<Answer<{ data: BatchUploadResponse; errorCode?: string }>> {
  const res = await client.raw(API.batchUpload, { method: 'POST', headers: { 'content-type': 'application/octet-stream', ...headers }, body: new Uint8Array(raw) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { data: BatchUploadResponse; errorCode?: string } };
}

async function upload(files: TestFile[], keys = files.map(() => `k${++serial}`)) {
  const res = await post(admin, body(files, keys).bytes);
  expect(res.status).toBe(200);
  return res.body.data.results;
}

async function downloadBytes(id: string): Promise<Buffer> {
  return Buffer.from(await (await admin.raw(downloadUrl(id))).arrayBuffer());
}

const usedSize = async () => (await admin.post<{ data: UserDetails }>(API.userDetails)).body.data.usedSize;
const blobCount = () => withDb(server, (db) => (db.prepare('select count(*) as n from blobs').get() as { n: number }).n);

describe('small-file batch upload', () => {
  it('creates every file in its folder, byte-exact, charging the quota once each', async () => {
    const a = await mkdir(admin, `batch-a-${++serial}`);
    const b = await mkdir(admin, 'nested', a.id);
    const files: TestFile[] = [
      { name: 'one.txt', bytes: randomContent(4096), parentId: a.id },
      { name: '二.md', bytes: randomContent(1), parentId: b.id },
      { name: 'empty.txt', bytes: Buffer.alloc(0), parentId: b.id },
      { name: 'big.bin', bytes: randomContent(1024 * 1024), parentId: a.id },
    ];
    const before = await usedSize();
    const results = await upload(files);
    expect(results.map((r) => r.status)).toEqual(['created', 'created', 'created', 'created']);
    expect((await names(admin, a.id)).sort()).toEqual(['big.bin', 'nested', 'one.txt']);
    expect((await names(admin, b.id)).sort()).toEqual(['empty.txt', '二.md']);
    for (const [i, r] of results.entries()) {
      if (r.status !== 'created') throw new Error('not created');
      expect(sha(await downloadBytes(r.file.id))).toBe(sha(files[i]!.bytes));
    }
    expect(await usedSize()).toBe(before + 4096 + 1 + 0 + 1024 * 1024);
  });

  // On the disk a key's first two characters name its shard directory; an object store has no directories, so there
  // only the keys' distinctness and shape hold.
  it("stores a batch's new contents under keys of one shard directory on the disk (one directory made and fsynced per batch, not one per file)", async () => {
    const folder = await mkdir(admin, `batch-shard-${++serial}`);
    const results = await upload(Array.from({ length: 20 }, (_, i) => ({ name: `s${i}.bin`, bytes: randomContent(100 + i), parentId: folder.id })));
    const ids = results.map((r) => (r.status === 'created' ? r.file.id : ''));
    const keys = await withDb(server, (db) =>
      ids.map((id) => (db.prepare('select b.storage_key as k from files f join blobs b on b.id = f.blob_id where f.id = ?').get(id) as { k: string }).k),
    );
    expect(new Set(keys).size).toBe(20);
    if (testStore() === 'disk') expect(new Set(keys.map((k) => k.slice(0, 2))).size).toBe(1);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    for (const [i, id] of ids.entries()) expect((await downloadBytes(id)).length).toBe(100 + i);
  });

  it('stores each content once: twice in one batch, and content the tenant already has', async () => {
    const folder = await mkdir(admin, `batch-dedup-${++serial}`);
    const same = randomContent(3000);
    const blobsBefore = await blobCount();
    await upload([{ name: 'x.bin', bytes: same, parentId: folder.id }, { name: 'y.bin', bytes: same, parentId: folder.id }]);
    expect(await blobCount()).toBe(blobsBefore + 1);
    const again = await upload([{ name: 'z.bin', bytes: same, parentId: folder.id }]);
    expect(again[0]!.status).toBe('created');
    expect(await blobCount()).toBe(blobsBefore + 1);
  });

  it('refuses items one by one, with the code the same refusal gets elsewhere, and creates the rest', async () => {
    const folder = await mkdir(admin, `batch-refuse-${++serial}`);
    await upload([{ name: 'taken.txt', bytes: randomContent(10), parentId: folder.id }]);
    const pe = Buffer.alloc(0x200);
    pe.write('MZ', 0, 'latin1');
    pe.writeUInt32LE(0x80, 0x3c);
    pe.write('PE\0\0', 0x80, 'latin1');
    const results = await upload([
      { name: 'ok.txt', bytes: randomContent(100), parentId: folder.id },
      { name: 'tool.exe', bytes: randomContent(100), parentId: folder.id },
      { name: 'disguised.txt', bytes: pe, parentId: folder.id },
      { name: 'damaged.txt', bytes: randomContent(100), parentId: folder.id, wrongDigest: true },
      { name: 'taken.txt', bytes: randomContent(10), parentId: folder.id },
      { name: 'taken.txt', bytes: randomContent(11), parentId: folder.id, onConflict: 'rename' },
      { name: 'bad|name.txt', bytes: randomContent(5), parentId: folder.id },
      { name: 'nowhere.txt', bytes: randomContent(5), parentId: 'no-such-folder' },
      { name: 'last.txt', bytes: randomContent(7), parentId: folder.id },
    ]);
    const codes = results.map((r) => (r.status === 'created' ? 'created' : r.errorCode));
    expect(codes).toEqual([
      'created',
      ERRORS.FILE_TYPE_BLOCKED.code,
      ERRORS.FILE_CONTENT_BLOCKED.code,
      ERRORS.CHUNK_DIGEST_MISMATCH.code,
      ERRORS.NAME_CONFLICT.code,
      'created',
      expect.any(String),
      ERRORS.NOT_FOUND.code,
      'created',
    ]);
    expect((await names(admin, folder.id)).sort()).toEqual(['last.txt', 'ok.txt', 'taken (1).txt', 'taken.txt']);
  });

  it('a new version replaces the content of the file of that name', async () => {
    const folder = await mkdir(admin, `batch-version-${++serial}`);
    const [first] = await upload([{ name: 'v.txt', bytes: Buffer.from('one'), parentId: folder.id }]);
    const [second] = await upload([{ name: 'v.txt', bytes: Buffer.from('two'), parentId: folder.id, onConflict: 'newVersion' }]);
    if (first?.status !== 'created' || second?.status !== 'created') throw new Error('not created');
    expect(second.file.id).toBe(first.file.id);
    expect((await downloadBytes(first.file.id)).toString()).toBe('two');
  });

  it('a new version with ifMatch replaces only that file at that content (the desktop sync\'s small edits)', async () => {
    const folder = await mkdir(admin, `batch-ifmatch-${++serial}`);
    const [first] = await upload([{ name: 'w.txt', bytes: Buffer.from('one'), parentId: folder.id }]);
    if (first?.status !== 'created') throw new Error('not created');
    const fingerprintOne = createHash('sha256').update(fingerprintInput([chunkDigestHex(Buffer.from('one'))])).digest('hex');
    const stale = await upload([{ name: 'w.txt', bytes: Buffer.from('two'), parentId: folder.id, onConflict: 'newVersion', ifMatch: { fileId: first.file.id, fingerprint: '0'.repeat(64) } }]);
    expect(stale[0]).toMatchObject({ status: 'refused', errorCode: ERRORS.SYNC_CHANGED.code });
    const other = await upload([{ name: 'w.txt', bytes: Buffer.from('two'), parentId: folder.id, onConflict: 'newVersion', ifMatch: { fileId: 'another-file', fingerprint: null } }]);
    expect(other[0]).toMatchObject({ status: 'refused', errorCode: ERRORS.SYNC_CHANGED.code });
    expect((await downloadBytes(first.file.id)).toString()).toBe('one');
    const [ok] = await upload([{ name: 'w.txt', bytes: Buffer.from('two'), parentId: folder.id, onConflict: 'newVersion', ifMatch: { fileId: first.file.id, fingerprint: fingerprintOne } }]);
    expect(ok).toMatchObject({ status: 'created', file: { id: first.file.id } });
    expect((await downloadBytes(first.file.id)).toString()).toBe('two');
    const malformed = await post(admin, body([{ name: 'w.txt', bytes: Buffer.from('x'), parentId: folder.id, onConflict: 'newVersion', ifMatch: { fileId: first.file.id, fingerprint: 'not hex' } }], [`k${++serial}`]).bytes);
    expect(malformed.status).toBe(400);
  });

  it('a batch repeated with its keys (its answer was lost) answers the same files and creates none', async () => {
    const folder = await mkdir(admin, `batch-repeat-${++serial}`);
    const files: TestFile[] = [{ name: 'r1.txt', bytes: randomContent(50), parentId: folder.id }, { name: 'r2.txt', bytes: randomContent(60), parentId: folder.id }];
    const keys = [`rep-${serial}-1`, `rep-${serial}-2`];
    const first = await upload(files, keys);
    const usedAfterFirst = await usedSize();
    const repeat = await upload(files, keys);
    expect(repeat).toEqual(first);
    expect((await names(admin, folder.id)).sort()).toEqual(['r1.txt', 'r2.txt']);
    expect(await usedSize()).toBe(usedAfterFirst);
  });

  it('items over the quota are refused alone', async () => {
    const folder = await mkdir(admin, `batch-quota-${++serial}`);
    const used = await usedSize();
    await withDb(server, (db) => db.prepare("update users set quota = ? where username = 'admin'").run(used + 150));
    try {
      const results = await upload([
        { name: 'fits.bin', bytes: randomContent(100), parentId: folder.id },
        { name: 'over.bin', bytes: randomContent(100), parentId: folder.id },
        { name: 'small.bin', bytes: randomContent(40), parentId: folder.id },
      ]);
      expect(results.map((r) => (r.status === 'created' ? 'created' : r.errorCode))).toEqual(['created', ERRORS.QUOTA_EXCEEDED.code, 'created']);
    } finally {
      await withDb(server, (db) => db.prepare("update users set quota = ? where username = 'admin'").run(10 * 1024 ** 3));
    }
  });

  it('refuses a malformed or oversized request whole, creating nothing and keeping nothing', async () => {
    const folder = await mkdir(admin, `batch-bad-${++serial}`);
    const good = body([{ name: 'a.txt', bytes: randomContent(100), parentId: folder.id }], [`bad-${serial}`]);
    const cases: Array<[string, Buffer, string]> = [
      ['not JSON', frame('{items: [', [randomContent(10)]), ERRORS.VALIDATION.code],
      ['no items', frame('{"items":[]}', []), ERRORS.VALIDATION.code],
      ['a body shorter than announced', good.bytes.subarray(0, good.bytes.length - 1), ERRORS.CHUNK_SIZE_MISMATCH.code],
      ['a body longer than announced', Buffer.concat([good.bytes, Buffer.from('x')]), ERRORS.CHUNK_SIZE_MISMATCH.code],
      ['a file over the batch size limit', frame(JSON.stringify({ items: [{ ...good.manifest[0], size: 2 * 1024 * 1024 }] }), []), ERRORS.VALIDATION.code],
      ['the same key twice', frame(JSON.stringify({ items: [good.manifest[0], good.manifest[0]] }), [randomContent(100), randomContent(100)]), ERRORS.VALIDATION.code],
      [
        'too many items',
        frame(JSON.stringify({ items: Array.from({ length: BATCH_MAX_FILES + 1 }, (_, i) => ({ ...good.manifest[0], size: 0, clientKey: `many-${i}`, digest: chunkDigestHex(Buffer.alloc(0)) })) }), []),
        ERRORS.VALIDATION.code,
      ],
    ];
    const blobsBefore = await blobCount();
    for (const [label, raw, code] of cases) {
      const res = await post(admin, raw);
      expect({ label, status: res.status, code: res.body.errorCode }).toEqual({ label, status: 400, code });
    }
    expect(await entries(admin, folder.id)).toEqual([]);
    expect(await blobCount()).toBe(blobsBefore);
    expect(await withDb(server, (db) => (db.prepare('select count(*) as n from blob_intents').get() as { n: number }).n)).toBe(0);
  });
});

describe('a manifest damaged on the way', () => {
  it('answers UPL-4002 for the whole request when the frame does not match its digest header (the client sends again), and takes it when it does', async () => {
    const folder = await mkdir(admin, `batch-damaged-${++serial}`);
    const { bytes } = body([{ name: 'd.txt', bytes: randomContent(20), parentId: folder.id }], [`dmg-${serial}`]);
    const length = bytes.readUInt32BE(0);
    const digest = sha(bytes.subarray(0, 4 + length));
    const damaged = Buffer.from(bytes);
    damaged[10] = damaged[10]! ^ 0x20;
    const tooLong = Buffer.from(bytes);
    tooLong.writeUInt32BE(0x7fffffff, 0);
    for (const raw of [damaged, tooLong]) {
      const res = await post(admin, raw, { [HEADER_BATCH_MANIFEST_SHA256]: digest });
      expect([res.status, res.body.errorCode]).toEqual([400, ERRORS.CHUNK_DIGEST_MISMATCH.code]);
    }
    const ok = await post(admin, bytes, { [HEADER_BATCH_MANIFEST_SHA256]: digest });
    expect(ok.body.data.results.map((r) => r.status)).toEqual(['created']);
  });
});

describe('a crash between writing a batch and committing it', () => {
  it('leaves an intent whose file startup recovery removes', async () => {
    const first = await startServer();
    await first.app.close();
    const key = 'AAAAAAAAAAAAAAAAAAAAAA';
    // Written through the store as a batch writes its files (on disk or in the bucket), never committed.
    await withTestByteStore(first.dataDir, async (store) => {
      await store.blobs.writePieces([{ key, data: Buffer.from('written, never committed') }]);
      expect(await isStored(store, key)).toBe(true);
    });
    await withDb(first, (db) => db.prepare('insert into blob_intents (storage_key, created_at) values (?, ?)').run(key, Date.now()));
    const restarted = await startServer({ dataDir: first.dataDir });
    try {
      expect(await isStored(restarted.app.byteStore, key)).toBe(false);
      expect(await withDb(restarted, (db) => (db.prepare('select count(*) as n from blob_intents').get() as { n: number }).n)).toBe(0);
    } finally {
      await restarted.close();
    }
  });
});
