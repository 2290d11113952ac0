import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_PLATFORM } from '../../common/api/client-env';
import { ERRORS } from '../../common/api/errors';
import { API, downloadUrl } from '../../common/api/paths';
import type { FileEntry } from '../../common/api/types';
import type { MultipleFileCheckResponse, RelativePathDirCreateResponse, UnprocessedUpload } from '../../common/transfer/checks';
import type { ChunkExistResponse } from '../../common/transfer/protocol';
import {
  SECOND_UPLOAD_RANGE_COUNT,
  SECOND_UPLOAD_RANGE_MAX_BYTES,
  type SecondUploadChallenge,
} from '../../common/transfer/second-upload';
import {
  addTenantWithUser,
  Client,
  describeFile,
  login,
  postChunkExist,
  putChunk,
  randomContent,
  startServerWithMember,
  type TestServer,
  uploadFile,
  withDb,
  TEST_CHUNK_SIZE,
} from './helpers';
import { proofFor, secondUpload } from './second-upload-kit';
import { chunkDigestHex } from '../support/chunk-digest';

const MiB = 1024 * 1024;
let server: TestServer;
let admin: Client;
let member: Client;
let other: Client;

beforeAll(async () => {
  ({ server, admin, member } = await startServerWithMember());
  await addTenantWithUser(server, 'other', 'Other@2024');
  other = new Client(server.baseUrl);
  expect((await login(server, other, { username: 'other', password: 'Other@2024' })).status).toBe(200);
});
afterAll(async () => {
  await server.close();
});

async function mkdir(client: Client, name: string, parentId: string | null = null): Promise<string> {
  const res = await client.post<{ data: FileEntry }>(API.mkdir, { name, parentId, category: 1 });
  expect(res.status).toBe(200);
  return res.body.data.id;
}

async function download(client: Client, id: string): Promise<Buffer> {
  const res = await client.raw(downloadUrl(id));
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

async function usedSize(client: Client): Promise<number> {
  return (await client.post<{ data: { usedSize: number } }>(API.userDetails)).body.data.usedSize;
}

const userId = (username: string) =>
  withDb(server, (db) => (db.prepare('select id from users where username = ?').get(username) as { id: string }).id);

const UNKNOWN = { data: { status: 'unknown' } };

describe('second upload with proof of ownership', () => {
  const stored = randomContent(5 * MiB + 123);
  let folder: string;

  beforeAll(async () => {
    folder = await mkdir(admin, 'second');
    const res = await uploadFile(admin, stored, 'original.bin', { parentId: folder });
    expect(res.status).toBe(200);
  });

  it('always answers with a fresh challenge of random ranges inside the file', async () => {
    const known = await secondUpload(admin, stored, 'x.bin', { parentId: folder, prove: (c) => ({ challengeId: c.challengeId, hmac: '0'.repeat(64) }) });
    const unknown = await secondUpload(admin, randomContent(5 * MiB + 123), 'y.bin', {
      parentId: folder,
      prove: (c) => ({ challengeId: c.challengeId, hmac: '0'.repeat(64) }),
    });
    for (const c of [known.challenge, unknown.challenge]) {
      expect(Object.keys(c).sort()).toEqual(['challengeId', 'nonce', 'ranges', 'status']);
      expect(c.nonce).toMatch(/^[0-9a-f]{64}$/);
      expect(c.ranges).toHaveLength(SECOND_UPLOAD_RANGE_COUNT);
      for (const r of c.ranges) {
        expect(r.start).toBeGreaterThanOrEqual(0);
        expect(r.end).toBeGreaterThan(r.start);
        expect(r.end).toBeLessThanOrEqual(stored.length);
        expect(r.end - r.start).toBeLessThanOrEqual(SECOND_UPLOAD_RANGE_MAX_BYTES);
      }
    }
    expect(known.challenge.nonce).not.toBe(unknown.challenge.nonce);
    const empty = await admin.post<{ data: SecondUploadChallenge }>(API.secondUpload, {
      ...known.base,
      fingerprint: describeFile(Buffer.alloc(0)).fingerprint,
      size: 0,
    });
    expect(empty.body.data.ranges).toEqual([]);
  });

  it('answers every failed claim exactly like unknown content', async () => {
    const before = await usedSize(admin);
    const answers: Array<{ status: number; body: unknown }> = [];
    // Unknown content, even with a correct proof over the claimant's own bytes.
    answers.push((await secondUpload(admin, randomContent(100_000), 'u.bin', { parentId: folder })).answer);
    // Known content, hash only: a made-up proof, a malformed one, a proof for another nonce.
    answers.push((await secondUpload(admin, stored, 'h.bin', { parentId: folder, prove: (c) => ({ challengeId: c.challengeId, hmac: 'ab'.repeat(32) }) })).answer);
    answers.push((await secondUpload(admin, stored, 'h.bin', { parentId: folder, prove: (c) => ({ challengeId: c.challengeId, hmac: 'nothex' }) })).answer);
    answers.push(
      (
        await secondUpload(admin, stored, 'h.bin', {
          parentId: folder,
          prove: (c) => ({ challengeId: c.challengeId, hmac: proofFor({ ...c, nonce: randomBytes(32).toString('hex') }, stored) }),
        })
      ).answer,
    );
    // A challenge id that was never issued, and one issued to another user.
    answers.push((await secondUpload(admin, stored, 'h.bin', { parentId: folder, prove: (c) => ({ challengeId: 'A'.repeat(22), hmac: proofFor(c, stored) }) })).answer);
    const foreign = await member.post<{ data: SecondUploadChallenge }>(API.secondUpload, {
      fingerprint: describeFile(stored).fingerprint,
      size: stored.length,
      name: 'm.bin',
      parentId: null,
      category: 1,
    });
    answers.push(
      (await secondUpload(admin, stored, 'h.bin', { parentId: folder, prove: () => ({ challengeId: foreign.body.data.challengeId, hmac: proofFor(foreign.body.data, stored) }) }))
        .answer,
    );
    // An expired challenge with a correct proof.
    const { fingerprint } = describeFile(stored);
    const fresh = await admin.post<{ data: SecondUploadChallenge }>(API.secondUpload, { fingerprint, size: stored.length, name: 'e.bin', parentId: folder, category: 1 });
    await withDb(server, (db) => db.prepare('update second_upload_challenges set expires_at = ? where id = ?').run(Date.now() - 1, fresh.body.data.challengeId));
    answers.push(
      await admin.post(API.secondUpload, {
        fingerprint,
        size: stored.length,
        name: 'e.bin',
        parentId: folder,
        category: 1,
        proof: { challengeId: fresh.body.data.challengeId, hmac: proofFor(fresh.body.data, stored) },
      }),
    );
    // Another tenant's content, with a correct proof: dedup never crosses tenants.
    const theirs = randomContent(300_000);
    expect((await uploadFile(other, theirs, 'theirs.bin')).status).toBe(200);
    answers.push((await secondUpload(admin, theirs, 'theirs.bin', { parentId: folder })).answer);

    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body).toEqual(UNKNOWN);
    }
    expect(await usedSize(admin)).toBe(before);
    const names = await withDb(server, (db) => db.prepare("select name from files where parent_id = ? order by name").all(folder));
    expect(names).toEqual([{ name: 'original.bin' }]);
  });

  it('creates the file with a correct proof, sends no chunk bytes, charges quota, and the challenge is single-use', async () => {
    const before = await usedSize(admin);
    const uploadsBefore = await withDb(server, (db) => (db.prepare('select count(*) n from uploads').get() as { n: number }).n);
    const { answer, challenge, base } = await secondUpload(admin, stored, 'copy.bin', { parentId: folder });
    expect(answer.body.data.status).toBe('created');
    const file = (answer.body.data as { file: FileEntry }).file;
    expect(file).toMatchObject({ name: 'copy.bin', size: stored.length, parentId: folder });
    expect((await download(admin, file.id)).equals(stored)).toBe(true);
    expect(await usedSize(admin)).toBe(before + stored.length);
    // No upload session was opened: zero chunk bytes.
    expect(await withDb(server, (db) => (db.prepare('select count(*) n from uploads').get() as { n: number }).n)).toBe(uploadsBefore);
    // Both files share one blob.
    const blobs = await withDb(server, (db) => db.prepare('select distinct blob_id from files where parent_id = ?').all(folder));
    expect(blobs).toHaveLength(1);

    const reused = await admin.post(API.secondUpload, { ...base, name: 'again.bin', proof: { challengeId: challenge.challengeId, hmac: proofFor(challenge, stored) } });
    expect(reused.body).toEqual(UNKNOWN);
  });

  it('honours onConflict, and refuses over quota and bad names with coded errors', async () => {
    const renamed = await secondUpload(admin, stored, 'copy.bin', { parentId: folder, onConflict: 'rename' });
    expect((renamed.answer.body.data as { file: FileEntry }).file.name).toBe('copy (1).bin');
    const clash = await secondUpload(admin, stored, 'copy.bin', { parentId: folder });
    expect(clash.answer.body).toMatchObject({ errorCode: ERRORS.NAME_CONFLICT.code });

    const bad = await admin.post(API.secondUpload, { fingerprint: describeFile(stored).fingerprint, size: stored.length, name: 'a|b', parentId: folder, category: 1 });
    expect(bad.body).toMatchObject({ errorCode: ERRORS.NAME_INVALID_CHARS.code });

    const used = await usedSize(admin);
    await withDb(server, (db) => db.prepare('update users set quota = ? where username = ?').run(used + 10, 'admin'));
    try {
      const over = await admin.post(API.secondUpload, { fingerprint: describeFile(stored).fingerprint, size: stored.length, name: 'q.bin', parentId: folder, category: 1 });
      expect(over.body).toMatchObject({ errorCode: ERRORS.QUOTA_EXCEEDED.code });
      expect(await usedSize(admin)).toBe(used);
    } finally {
      await withDb(server, (db) => db.prepare('update users set quota = ? where username = ?').run(10 * 1024 ** 3, 'admin'));
    }
  });
});

describe('merge conflict policies, versions and dedup', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdir(admin, 'policies');
  });

  it('fail keeps the upload, rename numbers names, newVersion keeps the id and records the old blob', async () => {
    const a = randomContent(1000);
    const b = randomContent(2000);
    const c = randomContent(3000);
    const first = await uploadFile(admin, a, 'p.txt', { parentId: folder });
    expect(first.status).toBe(200);

    const failed = await uploadFile(admin, b, 'P.TXT', { parentId: folder });
    expect(failed.body).toMatchObject({ errorCode: ERRORS.NAME_CONFLICT.code });
    // The upload survived: chunk/exist lists its chunk, and it merges with rename.
    const again = await uploadFile(admin, b, 'p.txt', { parentId: folder, onConflict: 'rename' });
    expect(again.body.data.name).toBe('p (1).txt');
    const third = await uploadFile(admin, c, 'p.txt', { parentId: folder, onConflict: 'rename' });
    expect(third.body.data.name).toBe('p (2).txt');

    const before = await usedSize(admin);
    const v = await uploadFile(admin, c, 'p.txt', { parentId: folder, onConflict: 'newVersion' });
    expect(v.status).toBe(200);
    expect(v.body.data.id).toBe(first.body.data.id);
    expect(v.body.data.size).toBe(3000);
    expect((await download(admin, first.body.data.id)).equals(c)).toBe(true);
    const v2 = await uploadFile(admin, b, 'p.txt', { parentId: folder, onConflict: 'newVersion' });
    expect(v2.body.data.id).toBe(first.body.data.id);
    // Versions: the old blobs, numbered; used size counts every version.
    const versions = await withDb(server, (db) =>
      db
        .prepare('select v.version_no, v.size, b.fingerprint from file_versions v join blobs b on b.id = v.blob_id where v.file_id = ? order by version_no')
        .all(first.body.data.id),
    );
    expect(versions).toEqual([
      { version_no: 1, size: 1000, fingerprint: describeFile(a).fingerprint },
      { version_no: 2, size: 3000, fingerprint: describeFile(c).fingerprint },
    ]);
    expect(await usedSize(admin)).toBe(before + 3000 + 2000);
    expect((await download(admin, first.body.data.id)).equals(b)).toBe(true);
  });

  it('refuses newVersion onto a file another user locked', async () => {
    const x = await uploadFile(admin, randomContent(500), 'locked.txt', { parentId: folder });
    const memberId = await userId('member');
    await withDb(server, (db) => db.prepare('update files set locked_by = ? where id = ?').run(memberId, x.body.data.id));
    const res = await uploadFile(admin, randomContent(600), 'locked.txt', { parentId: folder, onConflict: 'newVersion' });
    expect(res.body).toMatchObject({ errorCode: ERRORS.FILE_LOCKED.code });
    // The merge was undone: no blob directory left behind, the upload's chunks are back.
    const blobRows = await withDb(server, (db) => (db.prepare('select count(*) n from blobs where id not in (select blob_id from files union select blob_id from file_versions)').get() as { n: number }).n);
    expect(blobRows).toBe(0);
  });

  it('stores one blob for the same content uploaded twice, without copying chunks', async () => {
    const data = randomContent(9 * MiB);
    const one = await uploadFile(admin, data, 'd1.bin', { parentId: folder });
    const two = await uploadFile(member, data, 'd2.bin');
    const three = await uploadFile(admin, data, 'd3.bin', { parentId: folder });
    const ids = await withDb(server, (db) =>
      db.prepare('select blob_id from files where id in (?, ?, ?)').all(one.body.data.id, two.body.data.id, three.body.data.id) as Array<{ blob_id: string }>,
    );
    expect(new Set(ids.map((r) => r.blob_id)).size).toBe(1);
    const blob = await withDb(server, (db) => db.prepare('select storage_key, chunk_size, chunk_count from blobs where id = ?').get(ids[0]!.blob_id) as { storage_key: string; chunk_size: number; chunk_count: number });
    expect(blob).toMatchObject({ chunk_size: TEST_CHUNK_SIZE, chunk_count: 3 });
    // The blob is its chunks (files on disk, objects in a bucket); no upload's chunks are left.
    const store = server.app.byteStore;
    expect((await store.blobs.listStored()).get(blob.storage_key)).toBe('chunked');
    if (store.kind === 'disk') {
      const dir = path.join(server.dataDir, 'blobs', blob.storage_key.slice(0, 2), blob.storage_key);
      expect((await fsp.readdir(dir)).sort()).toEqual(['0', '1', '2']);
    }
    const liveUploads = await withDb(server, (db) => (db.prepare('select id from uploads').all() as Array<{ id: string }>).map((r) => r.id));
    for (const d of await store.chunks.listUploadIds()) expect(liveUploads).toContain(d);
    // Ranges across chunk boundaries.
    const res = await member.raw(downloadUrl(two.body.data.id), { headers: { range: `bytes=${4 * MiB - 10}-${8 * MiB + 9}` } });
    expect(res.status).toBe(206);
    expect(Buffer.from(await res.arrayBuffer()).equals(data.subarray(4 * MiB - 10, 8 * MiB + 10))).toBe(true);
    const tail = await member.raw(downloadUrl(two.body.data.id), { headers: { range: 'bytes=-5' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(data.subarray(data.length - 5))).toBe(true);
  });
});

describe('chunk upload hardening and quota', () => {
  it('two writers of one chunk at once leave one whole chunk', async () => {
    const data = randomContent(2 * MiB + 77);
    const open = await postChunkExist(admin, data, 'concurrent.bin');
    const { uploadId } = open.body.data;
    const corrupt = Buffer.from(data);
    corrupt[12345] = corrupt[12345]! ^ 1;
    const results = await Promise.all([
      ...Array.from({ length: 8 }, () => putChunk(admin, uploadId, 0, data)),
      ...Array.from({ length: 4 }, () => putChunk(admin, uploadId, 0, corrupt, chunkDigestHex(data))),
    ]);
    expect(results.slice(0, 8).every((r) => r.status === 200)).toBe(true);
    expect(results.slice(8).every((r) => (r.body as { errorCode: string }).errorCode === ERRORS.CHUNK_DIGEST_MISMATCH.code)).toBe(true);
    const stored = await server.app.byteStore.chunks.readHead(uploadId, data.length + 1);
    expect(Buffer.from(stored).equals(data)).toBe(true);
    expect(await fsp.readdir(path.join(server.dataDir, 'tmp'))).toEqual([]);
    const merged = await admin.post<{ data: FileEntry }>(API.chunkMerge, { uploadId, name: 'concurrent.bin', parentId: null, category: 1 });
    expect((await download(admin, merged.body.data.id)).equals(data)).toBe(true);
  });

  it('refuses over quota on chunk/exist and merge, changing nothing', async () => {
    const used = await usedSize(member);
    const data = randomContent(50_000);
    const { chunkDigests, fingerprint } = describeFile(data);
    const req = { fingerprint, size: data.length, chunkSize: TEST_CHUNK_SIZE, chunkDigests, name: 'quota.bin', parentId: null, category: 1 };
    const open = await member.post<{ data: ChunkExistResponse }>(API.chunkExist, req);
    await putChunk(member, open.body.data.uploadId, 0, data);
    await withDb(server, (db) => db.prepare('update users set quota = ? where username = ?').run(used + 1000, 'member'));
    try {
      expect((await member.post(API.chunkExist, req)).body).toMatchObject({ errorCode: ERRORS.QUOTA_EXCEEDED.code });
      const merge = await member.post(API.chunkMerge, { uploadId: open.body.data.uploadId, name: 'quota.bin', parentId: null, category: 1 });
      expect(merge.body).toMatchObject({ errorCode: ERRORS.QUOTA_EXCEEDED.code });
      expect(await usedSize(member)).toBe(used);
      expect(await server.app.byteStore.chunks.listFiles(open.body.data.uploadId)).toEqual(['0']);
      const list = await member.post<{ data: { items: FileEntry[] } }>(API.fileList, { parentId: null, category: 1 });
      expect(list.body.data.items.some((f) => f.name === 'quota.bin')).toBe(false);
    } finally {
      await withDb(server, (db) => db.prepare('update users set quota = ? where username = ?').run(10 * 1024 ** 3, 'member'));
    }
    const merge = await member.post(API.chunkMerge, { uploadId: open.body.data.uploadId, name: 'quota.bin', parentId: null, category: 1 });
    expect(merge.status).toBe(200);
  });

  it('raw-sink streams a body durably and keeps nothing unless asked to', async () => {
    const body = randomContent(3 * MiB);
    const res = await admin.raw(API.testRawSink, { method: 'PUT', body: new Uint8Array(body), headers: { 'content-type': 'application/octet-stream' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { bytes: body.length } });
    expect(await fsp.readdir(path.join(server.dataDir, 'tmp'))).toEqual([]);
    // ?keep=1 (the benchmark's baseline) keeps the bytes, as an upload keeps its blob.
    const kept = await admin.raw(`${API.testRawSink}?keep=1`, { method: 'PUT', body: new Uint8Array(body), headers: { 'content-type': 'application/octet-stream' } });
    expect(kept.status).toBe(200);
    const keptDir = path.join(server.dataDir, 'tmp', 'raw-sink');
    const keptFiles = await fsp.readdir(keptDir);
    expect(keptFiles).toHaveLength(1);
    expect((await fsp.readFile(path.join(keptDir, keptFiles[0]!))).equals(body)).toBe(true);
    await fsp.rm(keptDir, { recursive: true });
    // ?digest=1 (the benchmark's digesting baseline) also answers the chunk digest of the whole body.
    const digested = await admin.raw(`${API.testRawSink}?digest=1`, { method: 'PUT', body: new Uint8Array(body), headers: { 'content-type': 'application/octet-stream' } });
    expect(await digested.json()).toEqual({ data: { bytes: body.length, digest: chunkDigestHex(body) } });
    expect(await fsp.readdir(path.join(server.dataDir, 'tmp'))).toEqual([]);
    const anonymous = await new Client(server.baseUrl).raw(API.testRawSink, { method: 'PUT', body: 'x' });
    expect(anonymous.status).toBe(401);
  });
});

describe('pre-upload checks and held items', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdir(member, 'checks');
    expect((await uploadFile(member, randomContent(100), 'exists.txt', { parentId: folder })).status).toBe(200);
    expect((await uploadFile(member, randomContent(101), 'exists (1).txt', { parentId: folder })).status).toBe(200);
  });

  it('canBeUploadType blocks the tenant’s types; the server enforces them too', async () => {
    const res = await member.post<{ data: { allowed: string[]; blocked: unknown[]; blockedExtensions: string[] } }>(API.canBeUploadType, {
      names: ['a.EXE', 'b.txt', 'noext', '.bat'],
    });
    expect(res.body.data.allowed).toEqual(['b.txt', 'noext', '.bat']);
    expect(res.body.data.blocked).toEqual([{ name: 'a.EXE', extension: 'exe' }]);
    expect(res.body.data.blockedExtensions).toContain('exe');
    const up = await uploadFile(member, randomContent(10), 'evil.exe');
    expect(up.body).toMatchObject({ errorCode: ERRORS.FILE_TYPE_BLOCKED.code });

    const tenant = await withDb(server, (db) => (db.prepare("select tenant_id from users where username = 'member'").get() as { tenant_id: string }).tenant_id);
    await withDb(server, (db) => db.prepare('insert into tenant_settings (tenant_id, blocked_extensions, sensitive_keywords) values (?, ?, null)').run(tenant, '["txt"]'));
    try {
      const custom = await member.post<{ data: { blocked: unknown[] } }>(API.canBeUploadType, { names: ['a.exe', 'b.txt'] });
      expect(custom.body.data.blocked).toEqual([{ name: 'b.txt', extension: 'txt' }]);
    } finally {
      await withDb(server, (db) => db.prepare('delete from tenant_settings where tenant_id = ?').run(tenant));
    }
  });

  it('checkFileSensitiveOrLock and fileVersion/check', async () => {
    const ownerId = await userId('member');
    const adminId = await userId('admin');
    const item = (key: string, name: string) => ({ key, name, size: 1, parentId: folder, category: 1 });
    const res = await member.post<{ data: unknown[] }>(API.checkFileSensitiveOrLock, { items: [item('s', '公司机密.docx'), item('e', 'exists.txt')] });
    expect(res.body.data).toEqual([
      { key: 's', sensitive: true, locked: false },
      { key: 'e', sensitive: false, locked: false },
    ]);
    await withDb(server, (db) => db.prepare("update files set locked_by = ? where name = 'exists.txt'").run(adminId));
    const locked = await member.post<{ data: unknown[] }>(API.checkFileSensitiveOrLock, { items: [item('e', 'EXISTS.txt')] });
    expect(locked.body.data).toEqual([{ key: 'e', sensitive: false, locked: true }]);
    await withDb(server, (db) => db.prepare("update files set locked_by = ? where name = 'exists.txt'").run(ownerId));
    const own = await member.post<{ data: unknown[] }>(API.checkFileSensitiveOrLock, { items: [item('e', 'exists.txt')] });
    expect(own.body.data).toEqual([{ key: 'e', sensitive: false, locked: false }]);
    await withDb(server, (db) => db.prepare("update files set locked_by = null where name = 'exists.txt'").run());

    const v = await member.post<{ data: { exists: boolean; fileId: string; suggestedName: string } }>(API.fileVersionCheck, { name: 'Exists.txt', parentId: folder, category: 1 });
    expect(v.body.data).toMatchObject({ exists: true, suggestedName: 'Exists (2).txt' });
    expect(v.body.data.fileId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const free = await member.post(API.fileVersionCheck, { name: 'new.txt', parentId: folder, category: 1 });
    expect(free.body).toEqual({ data: { exists: false, fileId: null, suggestedName: 'new.txt', locked: false, replaceable: true } });
    const foreignFolder = await member.post(API.fileVersionCheck, { name: 'x', parentId: 'A'.repeat(22), category: 1 });
    expect(foreignFolder.body).toMatchObject({ errorCode: ERRORS.NOT_FOUND.code });
  });

  it('multipleFile/check answers 1,000 items in one call, overQuota cumulative, held items recorded', async () => {
    const used = await usedSize(member);
    await withDb(server, (db) => db.prepare('update users set quota = ? where username = ?').run(used + 2500, 'member'));
    try {
      const items = Array.from({ length: 1000 }, (_, i) => ({ key: `k${i}`, name: `f${i}.txt`, size: 1, parentId: folder, category: 1 }));
      items[0] = { key: 'k0', name: 'exists.txt', size: 1000, parentId: folder, category: 1 };
      items[1] = { key: 'k1', name: 'tool.exe', size: 5000, parentId: folder, category: 1 };
      items[2] = { key: 'k2', name: '绝密.txt', size: 1000, parentId: folder, category: 1 };
      items[3] = { key: 'k3', name: 'big.txt', size: 1000, parentId: folder, category: 1 };
      const started = Date.now();
      const res = await member.post<{ data: MultipleFileCheckResponse }>(API.multipleFileCheck, { items });
      expect(Date.now() - started).toBeLessThan(5000);
      const r = res.body.data.results;
      expect(r).toHaveLength(1000);
      expect(r[0]).toMatchObject({ key: 'k0', exists: true, suggestedName: 'exists (2).txt', overQuota: false, blockedType: false });
      expect(r[1]).toMatchObject({ key: 'k1', blockedType: true, overQuota: false });
      expect(r[2]).toMatchObject({ key: 'k2', sensitive: true, exists: false, overQuota: false });
      // 1000 + 1000 + 1000 > 2500: the third countable file and everything after is over quota.
      expect(r[3]).toMatchObject({ key: 'k3', overQuota: true });
      expect(r[999]).toMatchObject({ key: 'k999', exists: false, overQuota: true });

      const held = await member.get<{ data: UnprocessedUpload[] }>(API.unProcessList);
      const byKey = Object.fromEntries(held.body.data.map((h) => [h.key, h.reason]));
      expect(byKey).toMatchObject({ k0: 'exists', k2: 'sensitive' });
      expect(byKey.k1).toBeUndefined();
      expect(byKey.k3).toBeUndefined();
    } finally {
      await withDb(server, (db) => db.prepare('update users set quota = ? where username = ?').run(10 * 1024 ** 3, 'member'));
    }
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ key: `k${i}`, name: `f${i}`, size: 1, parentId: null, category: 1 }));
    expect((await member.post(API.multipleFileCheck, { items: tooMany })).body).toMatchObject({ errorCode: ERRORS.VALIDATION.code });
  });

  it('keepOnUpload and giveUpUpload need the platform header, then decide the held item', async () => {
    const noHeader = await member.get(`${API.keepOnUpload}?key=k0&policy=newVersion`);
    expect(noHeader.status).toBe(400);
    expect(noHeader.body).toMatchObject({ errorCode: ERRORS.PLATFORM_HEADER_REQUIRED.code });
    expect((await member.get(`${API.giveUpUpload}?key=k2`)).body).toMatchObject({ errorCode: ERRORS.PLATFORM_HEADER_REQUIRED.code });
    // Nothing was decided by the refused calls.
    let held = await member.get<{ data: UnprocessedUpload[] }>(API.unProcessList);
    // k0/k2 from multipleFile/check; 's' (sensitive) and 'e' (was locked) from checkFileSensitiveOrLock.
    expect(held.body.data.map((h) => h.key).sort()).toEqual(['e', 'k0', 'k2', 's']);

    const h = { [HEADER_PLATFORM]: 'web' };
    const keep = await member.request('GET', `${API.keepOnUpload}?key=k0&policy=newVersion`, undefined, h);
    expect(keep.body).toEqual({ data: { key: 'k0', policy: 'newVersion' } });
    const give = await member.request('GET', `${API.giveUpUpload}?key=k2`, undefined, h);
    expect(give.body).toEqual({ data: { key: 'k2' } });
    held = await member.get<{ data: UnprocessedUpload[] }>(API.unProcessList);
    expect(held.body.data.map((x) => x.key).sort()).toEqual(['e', 's']);
    const unknown = await member.request('GET', `${API.giveUpUpload}?key=nope`, undefined, h);
    expect(unknown.body).toMatchObject({ errorCode: ERRORS.UPLOAD_NOT_FOUND.code });
    // Another user cannot decide (or see) this user's items.
    expect((await admin.request('GET', `${API.giveUpUpload}?key=k0`, undefined, h)).body).toMatchObject({ errorCode: ERRORS.UPLOAD_NOT_FOUND.code });
  });

  it('relativePath/dir/create builds nested folders once and refuses path tricks', async () => {
    const paths = ['photos/2024/summer', 'photos', 'docs/a', 'Photos/2024/winter'];
    const first = await member.post<{ data: RelativePathDirCreateResponse }>(API.relativePathDirCreate, { parentId: folder, category: 1, relativePaths: paths });
    expect(first.status).toBe(200);
    const again = await member.post<{ data: RelativePathDirCreateResponse }>(API.relativePathDirCreate, { parentId: folder, category: 1, relativePaths: paths });
    expect(again.body.data.dirs).toEqual(first.body.data.dirs);
    const dirs = first.body.data.dirs;
    const count = await withDb(server, (db) => (db.prepare('select count(*) n from files where is_dir = 1').get() as { n: number }).n);
    // photos, photos/2024, summer, winter, docs, docs/a: six new folders (case-insensitive reuse of Photos).
    const catalog = await member.post<{ data: { path: Array<{ name: string }> } }>(API.fileCatalog, { id: dirs['photos/2024/summer'] });
    expect(catalog.body.data.path.map((p) => p.name)).toEqual(['checks', 'photos', '2024', 'summer']);
    const winter = await member.post<{ data: { path: Array<{ name: string; id: string }> } }>(API.fileCatalog, { id: dirs['Photos/2024/winter'] });
    expect(winter.body.data.path[1]!.id).toBe(dirs.photos);

    for (const bad of ['../escape', 'a/../b', 'a//b', '/abs', 'a/./b', 'a\\b', '']) {
      const res = await member.post(API.relativePathDirCreate, { parentId: folder, category: 1, relativePaths: ['ok-folder', bad] });
      expect(res.status, bad).toBe(400);
    }
    // A file in the way: refused, and nothing of that call was created.
    const conflict = await member.post(API.relativePathDirCreate, { parentId: folder, category: 1, relativePaths: ['fresh', 'exists.txt/sub'] });
    expect(conflict.body).toMatchObject({ errorCode: ERRORS.NAME_CONFLICT.code });
    expect(await withDb(server, (db) => (db.prepare('select count(*) n from files where is_dir = 1').get() as { n: number }).n)).toBe(count);
    const tooMany = Array.from({ length: 1001 }, (_, i) => `d${i}`);
    expect((await member.post(API.relativePathDirCreate, { parentId: folder, category: 1, relativePaths: tooMany })).status).toBe(400);
  });
});
