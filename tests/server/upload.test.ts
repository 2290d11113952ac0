import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API, downloadUrl } from '../../common/api/paths';
import type { FileEntry, FileListResponse } from '../../common/api/types';
import type { UploadConfig } from '../../common/transfer/protocol';
import {
  type Client,
  describeFile,
  postChunkExist,
  putChunk,
  randomContent,
  startServerWithMember,
  type TestServer,
  TEST_CHUNK_SIZE,
  withDb,
} from './helpers';
import { chunkDigestHex } from '../support/chunk-digest';

const MiB = 1024 * 1024;
let server: TestServer;
let admin: Client;
let member: Client;

beforeAll(async () => {
  ({ server, admin, member } = await startServerWithMember());
});
afterAll(async () => {
  await server.close();
});

function openUpload(client: Client, content: Buffer, name: string, parentId: string | null = null) {
  return postChunkExist(client, content, name, { parentId });
}

const chunkOf = (content: Buffer, i: number): Buffer => content.subarray(i * TEST_CHUNK_SIZE, (i + 1) * TEST_CHUNK_SIZE);

/** The upload's stored chunks, through the store's own listing (disk or object store). */
async function storedChunkFiles(uploadId: string): Promise<string[]> {
  return (await server.app.byteStore.chunks.listFiles(uploadId)).sort();
}

async function uploadWhole(client: Client, content: Buffer, name: string): Promise<FileEntry> {
  const open = await openUpload(client, content, name);
  expect(open.status).toBe(200);
  for (let i = 0; i < open.body.data.chunkCount; i++) {
    if (open.body.data.existingChunks.includes(i)) continue;
    expect((await putChunk(client, open.body.data.uploadId, i, chunkOf(content, i))).status).toBe(200);
  }
  const merged = await client.post<{ data: FileEntry }>(API.chunkMerge, {
    uploadId: open.body.data.uploadId,
    name,
    parentId: null,
    category: 1,
  });
  expect(merged.status).toBe(200);
  return merged.body.data;
}

describe('chunked upload and download', () => {
  const content = randomContent(9 * MiB);
  let file: FileEntry;

  it('announces the upload config', async () => {
    const res = await admin.get<{ data: UploadConfig }>(API.uploadConfig);
    expect(res.body.data.chunkSize).toBe(TEST_CHUNK_SIZE);
    expect(res.body.data.maxFileSize).toBeGreaterThan(0);
  });

  it('uploads a 9 MiB file in 3 chunks, resuming after a partial upload', async () => {
    const open = await openUpload(admin, content, 'report.pdf');
    expect(open.status).toBe(200);
    const { uploadId, chunkCount, existingChunks } = open.body.data;
    expect(chunkCount).toBe(3);
    expect(existingChunks).toEqual([]);

    // A corrupt chunk (bytes differ from the announced digest) is refused and not stored.
    const corrupt = Buffer.from(chunkOf(content, 0));
    corrupt[100] = corrupt[100]! ^ 0xff;
    const bad = await putChunk(admin, uploadId, 0, corrupt, chunkDigestHex(chunkOf(content, 0)));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errorCode: ERRORS.CHUNK_DIGEST_MISMATCH.code });
    expect(await storedChunkFiles(uploadId)).toEqual([]);

    // A header digest that is not the announced one is refused too.
    const wrongHeader = await putChunk(admin, uploadId, 0, corrupt);
    expect(wrongHeader.body).toMatchObject({ errorCode: ERRORS.CHUNK_DIGEST_MISMATCH.code });

    // Wrong length (a short first chunk whose digest we announce in the header) → size mismatch.
    const short = await putChunk(admin, uploadId, 2, chunkOf(content, 2).subarray(1), chunkDigestHex(chunkOf(content, 2)));
    expect(short.body).toMatchObject({ errorCode: ERRORS.CHUNK_SIZE_MISMATCH.code });

    const outOfRange = await putChunk(admin, uploadId, 3, chunkOf(content, 2));
    expect(outOfRange.body).toMatchObject({ errorCode: ERRORS.CHUNK_INDEX_INVALID.code });

    // Store chunks 0 and 2 (the last one is shorter), then ask again: exactly those are listed.
    expect((await putChunk(admin, uploadId, 0, chunkOf(content, 0))).body).toEqual({ data: { index: 0, size: 4 * MiB } });
    expect((await putChunk(admin, uploadId, 2, chunkOf(content, 2))).body).toEqual({ data: { index: 2, size: 1 * MiB } });
    // Sending a stored chunk again is harmless.
    expect((await putChunk(admin, uploadId, 0, chunkOf(content, 0))).status).toBe(200);
    expect(await storedChunkFiles(uploadId)).toEqual(['0', '2']);

    const resumed = await openUpload(admin, content, 'report.pdf');
    expect(resumed.body.data.uploadId).toBe(uploadId);
    expect(resumed.body.data.existingChunks).toEqual([0, 2]);

    // Merging with chunk 1 missing is refused and leaves no file.
    const early = await admin.post(API.chunkMerge, { uploadId, name: 'report.pdf', parentId: null, category: 1 });
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({ errorCode: ERRORS.CHUNKS_MISSING.code });

    // Another user cannot push chunks into this upload.
    const foreign = await putChunk(member, uploadId, 1, chunkOf(content, 1));
    expect(foreign.body).toMatchObject({ errorCode: ERRORS.UPLOAD_NOT_FOUND.code });

    expect((await putChunk(admin, uploadId, 1, chunkOf(content, 1))).status).toBe(200);
    const merged = await admin.post<{ data: FileEntry }>(API.chunkMerge, { uploadId, name: 'report.pdf', parentId: null, category: 1 });
    expect(merged.status).toBe(200);
    file = merged.body.data;
    expect(file).toMatchObject({ name: 'report.pdf', size: 9 * MiB, isDir: false, kind: 'pdf', parentId: null });
    // Chunk files are gone once merged, and the upload cannot be merged again.
    expect(await storedChunkFiles(uploadId)).toEqual([]);
    const again = await admin.post(API.chunkMerge, { uploadId, name: 'report.pdf', parentId: null, category: 1 });
    expect(again.body).toMatchObject({ errorCode: ERRORS.UPLOAD_NOT_FOUND.code });

    const listed = await admin.post<{ data: FileListResponse }>(API.fileList, { parentId: null, category: 1 });
    expect(listed.body.data.items.find((i) => i.id === file.id)).toMatchObject({ name: 'report.pdf', size: 9 * MiB });
    const details = await admin.post<{ data: { usedSize: number } }>(API.userDetails);
    expect(details.body.data.usedSize).toBe(9 * MiB);
  });

  it('downloads the file byte for byte with safe headers', async () => {
    const res = await admin.raw(downloadUrl(file.id));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe(String(9 * MiB));
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(content)).toBe(true);

    const head = await admin.raw(downloadUrl(file.id), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(9 * MiB));

    // What a browser's own download asks with: never compressed (the length and Range offsets are the file's).
    const asBrowser = await admin.raw(downloadUrl(file.id), { method: 'HEAD', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(asBrowser.headers.get('content-encoding')).toBeNull();
    expect(asBrowser.headers.get('content-length')).toBe(String(9 * MiB));
  });

  it('answers Range requests with 206 and the exact bytes', async () => {
    const cases: Array<[string, number, number]> = [
      ['bytes=0-99', 0, 99],
      [`bytes=${5 * MiB}-`, 5 * MiB, 9 * MiB - 1],
      ['bytes=-1000', 9 * MiB - 1000, 9 * MiB - 1],
      [`bytes=${4 * MiB - 10}-${4 * MiB + 10}`, 4 * MiB - 10, 4 * MiB + 10],
    ];
    for (const [range, start, end] of cases) {
      const res = await admin.raw(downloadUrl(file.id), { headers: { range } });
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${9 * MiB}`);
      expect(res.headers.get('content-length'), range).toBe(String(end - start + 1));
      expect(Buffer.from(await res.arrayBuffer()).equals(content.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('answers a Range past the end with 416 and changes nothing', async () => {
    const res = await admin.raw(downloadUrl(file.id), { headers: { range: `bytes=${9 * MiB}-` } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${9 * MiB}`);
    expect(await res.json()).toEqual({
      errorCode: ERRORS.RANGE_NOT_SATISFIABLE.code,
      errorMessage: ERRORS.RANGE_NOT_SATISFIABLE.message,
    });
    const whole = await admin.raw(downloadUrl(file.id));
    expect(Buffer.from(await whole.arrayBuffer()).equals(content)).toBe(true);
  });

  it('hides other users’ files and refuses folders', async () => {
    const res = await member.raw(downloadUrl(file.id));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ errorCode: ERRORS.NOT_FOUND.code, errorMessage: ERRORS.NOT_FOUND.message });
    expect((await member.post(API.rename, { id: file.id, name: 'stolen.pdf' })).status).toBe(404);
    expect((await admin.raw(downloadUrl('AAAAAAAAAAAAAAAAAAAAAA'))).status).toBe(404);

    const folder = await admin.post<{ data: FileEntry }>(API.mkdir, { parentId: null, category: 1, name: 'a folder' });
    const dir = await admin.raw(downloadUrl(folder.body.data.id));
    expect(dir.status).toBe(400);
    expect(await dir.json()).toMatchObject({ errorCode: ERRORS.IS_FOLDER.code });
    const foreignList = await member.post(API.fileList, { parentId: folder.body.data.id, category: 1 });
    expect(foreignList.status).toBe(404);
  });

  it('encodes non-ASCII download names with RFC 5987', async () => {
    const small = randomContent(1000);
    const entry = await uploadWhole(admin, small, '季度报告 "终版".txt');
    const res = await admin.raw(downloadUrl(entry.id));
    const disposition = res.headers.get('content-disposition') ?? '';
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent('季度报告 "终版".txt')}`);
    expect(disposition).not.toContain('季度');
    expect(Buffer.from(await res.arrayBuffer()).equals(small)).toBe(true);
  });

  it('uploads an empty file and refuses a merge onto an existing name', async () => {
    const empty = await uploadWhole(admin, Buffer.alloc(0), 'empty.txt');
    expect(empty.size).toBe(0);
    const res = await admin.raw(downloadUrl(empty.id));
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(0);

    const other = randomContent(2000);
    const open = await openUpload(admin, other, 'empty.txt');
    await putChunk(admin, open.body.data.uploadId, 0, other);
    const clash = await admin.post(API.chunkMerge, { uploadId: open.body.data.uploadId, name: 'empty.txt', parentId: null, category: 1 });
    expect(clash.body).toMatchObject({ errorCode: ERRORS.NAME_CONFLICT.code });
    // The upload survives so the client can merge under another name.
    const renamed = await admin.post<{ data: FileEntry }>(API.chunkMerge, {
      uploadId: open.body.data.uploadId,
      name: 'empty (1).txt',
      parentId: null,
      category: 1,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.size).toBe(2000);
  });

  it('stores the all-zero chunks of a sparse file as holes without receiving them', async () => {
    // Chunks 0 and 2 zeros, chunk 1 data, a short zero tail: only chunk 1 is asked for.
    const content = Buffer.alloc(3 * TEST_CHUNK_SIZE + 1000);
    content.fill(7, TEST_CHUNK_SIZE + 10, TEST_CHUNK_SIZE + 5000);
    const open = await openUpload(admin, content, 'sparse.img');
    expect(open.body.data.existingChunks).toEqual([0, 2, 3]);
    const files = await storedChunkFiles(open.body.data.uploadId);
    expect(files).toEqual(['0', '2', '3']);
    // On disk each is one hole (no block written); an object store has no holes.
    if (server.app.byteStore.kind === 'disk') for (const f of files) expect((await fsp.stat(path.join(server.dataDir, 'uploads', open.body.data.uploadId, f))).blocks).toBe(0);
    const file = await uploadWhole(admin, content, 'sparse.img');
    const res = await admin.raw(downloadUrl(file.id));
    expect(Buffer.from(await res.arrayBuffer()).equals(content)).toBe(true);
  });

  it('validates chunk/exist input', async () => {
    const data = randomContent(10);
    const { chunkDigests, fingerprint } = describeFile(data);
    const base = { fingerprint, size: 10, chunkSize: TEST_CHUNK_SIZE, chunkDigests, name: 'a.txt', parentId: null, category: 1 };
    // Another size than the server's: the client's digests are of an earlier CHUNK_SIZE (chunk-policy.ts).
    expect((await admin.post(API.chunkExist, { ...base, chunkSize: 1024 * 1024 })).body).toMatchObject({
      errorCode: ERRORS.CHUNK_SIZE_CHANGED.code,
      errorMessage: `服务器的分片大小为 ${TEST_CHUNK_SIZE} 字节，请按此大小重新计算后上传`,
    });
    // Outside the chunk policy's bounds: not a chunk size at all.
    expect((await admin.post(API.chunkExist, { ...base, chunkSize: 1024 })).body).toMatchObject({ errorCode: ERRORS.VALIDATION.code });
    expect((await admin.post(API.chunkExist, { ...base, chunkDigests: [...chunkDigests, chunkDigests[0]] })).body).toMatchObject({
      errorCode: ERRORS.VALIDATION.code,
    });
    expect((await admin.post(API.chunkExist, { ...base, fingerprint: 'f'.repeat(64) })).body).toMatchObject({
      errorCode: ERRORS.FINGERPRINT_MISMATCH.code,
    });
    expect((await admin.post(API.chunkExist, { ...base, name: 'a|b' })).body).toMatchObject({
      errorCode: ERRORS.NAME_INVALID_CHARS.code,
    });
    expect((await admin.post(API.chunkExist, { ...base, size: 20 * 1024 * 1024 * 1024 })).status).toBe(400);
  });

  it('sweeps expired uploads and their chunk files', async () => {
    const data = randomContent(5000);
    const open = await openUpload(admin, data, 'stale.bin');
    await putChunk(admin, open.body.data.uploadId, 0, data);
    expect(await storedChunkFiles(open.body.data.uploadId)).toEqual(['0']);
    const swept = await server.app.sweeper.sweepOnce(Date.now() + 48 * 3600 * 1000);
    expect(swept.uploads).toBeGreaterThanOrEqual(1);
    expect(await storedChunkFiles(open.body.data.uploadId)).toEqual([]);
    const merge = await admin.post(API.chunkMerge, { uploadId: open.body.data.uploadId, name: 'stale.bin', parentId: null, category: 1 });
    expect(merge.body).toMatchObject({ errorCode: ERRORS.UPLOAD_NOT_FOUND.code });
  });

  it('sweeps the chunked blob a failed merge left (no row) once older than an upload session, never the one a live merge is making', async () => {
    const { blobs, chunks } = server.app.byteStore;
    // A merge that failed after moving (disk) or copying (S3) the chunks, and could not put them back.
    const failedUpload = blobs.newKey();
    const failed = blobs.newKey();
    await chunks.storeZeroChunk(failedUpload, 0, 10);
    await blobs.adoptUpload(failedUpload, failed);
    // A merge under way: its upload lives and its intent names the blob its chunks are going to.
    const data = randomContent(7000);
    const open = await openUpload(admin, data, 'merging.bin');
    await putChunk(admin, open.body.data.uploadId, 0, data);
    const live = blobs.newKey();
    const later = Date.now() + 25 * 3600 * 1000;
    await withDb(server, (db) => db.prepare('update uploads set merge_blob_id = ?, expires_at = ? where id = ?').run(live, later + 3600_000, open.body.data.uploadId));
    await blobs.adoptUpload(open.body.data.uploadId, live);

    expect((await server.app.sweeper.sweepOnce()).store).toMatchObject({ orphanBlobDirs: 0 });
    expect(await blobs.hasChunked(failed)).toBe(true);
    expect((await server.app.sweeper.sweepOnce(later)).store).toMatchObject({ orphanBlobDirs: 1 });
    expect(await blobs.hasChunked(failed)).toBe(false);
    expect(await blobs.hasChunked(live)).toBe(true);
    // The live merge can still go back (as one that does not commit does) and be merged whole.
    await blobs.returnToUpload(live, open.body.data.uploadId);
    await withDb(server, (db) => db.prepare('update uploads set merge_blob_id = null where id = ?').run(open.body.data.uploadId));
    const merged = await admin.post<{ data: FileEntry }>(API.chunkMerge, { uploadId: open.body.data.uploadId, name: 'merging.bin', parentId: null, category: 1 });
    expect(merged.status).toBe(200);
    expect(Buffer.from(await (await admin.raw(downloadUrl(merged.body.data.id))).arrayBuffer()).equals(data)).toBe(true);
  });
});
