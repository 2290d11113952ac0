/**
 * Streaming sessions without client digests (protocol.ts, "Streaming sessions"), over real HTTP on a
 * real SQLite database: chunks sent without `X-Chunk-Sha256` are recorded with the digest the server
 * computed, a merge without `chunkDigests`/`fingerprint` stores the blob under the fingerprint a
 * client would have computed (so a later second upload of the same bytes sends no chunk byte, and a
 * second unhashed upload is deduplicated), a header given is still checked, and announced sessions
 * still require it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API, downloadUrl } from '../../common/api/paths';
import type { FileEntry } from '../../common/api/types';
import type { ChunkExistResponse } from '../../common/transfer/protocol';
import type { SecondUploadChallenge, SecondUploadResponse } from '../../common/transfer/second-upload';
import { type Answer, type Client, describeFile, putChunk, randomContent, sha256Hex, startServerAsAdmin, type TestServer, withDb } from './helpers';
import { proofFor } from './second-upload-kit';
import { openUploadSession } from './upload-session';
import { chunkDigestHex } from '../support/chunk-digest';

const CHUNK = 256 * 1024;
let server: TestServer;
let admin: Client;

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin({ chunkSize: CHUNK }));
});
afterAll(async () => {
  await server?.close();
});

const chunkOf = (content: Buffer, i: number): Buffer => content.subarray(i * CHUNK, (i + 1) * CHUNK);
const chunksIn = (content: Buffer): number => Math.max(1, Math.ceil(content.length / CHUNK));

async function openStreaming(size: number, name: string): Promise<ChunkExistResponse> {
  const res = await admin.post<{ data: ChunkExistResponse }>(API.chunkExist, { size, chunkSize: CHUNK, name, parentId: null, category: 1 });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** A chunk body with no digest header at all. */
async function putUnhashed(uploadId: string, index: number, bytes: Uint8Array): Promise<Answer> {
  const res = await admin.raw(`${API.chunkUpload}?uploadId=${encodeURIComponent(uploadId)}&index=${index}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: new Uint8Array(bytes),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

function merge(uploadId: string, name: string, extra: Record<string, unknown> = {}) {
  return admin.post<{ data: FileEntry; errorCode?: string }>(API.chunkMerge, { uploadId, name, parentId: null, category: 1, ...extra });
}

async function chunkBytesReceived(): Promise<number> {
  const res = await admin.get<{ data: { chunkBytesReceived: number } }>(API.testStats);
  expect(res.status).toBe(200);
  return res.body.data.chunkBytesReceived;
}

/** Uploads `content` through a streaming session with neither headers nor digests; the merge's answer. */
async function uploadUnhashed(content: Buffer, name: string) {
  const { uploadId } = await openStreaming(content.length, name);
  for (let i = 0; i < chunksIn(content); i++) expect((await putUnhashed(uploadId, i, chunkOf(content, i))).status).toBe(200);
  return merge(uploadId, name);
}

const blobFingerprintOf = (fileId: string) =>
  withDb(server, (db) => (db.prepare('SELECT b.fingerprint AS fp FROM files f JOIN blobs b ON b.id = f.blob_id WHERE f.id = ?').get(fileId) as { fp: string }).fp);

describe('streaming session without client digests', () => {
  it("stores the client's fingerprint, so a second upload of the same bytes sends no chunk byte", async () => {
    const content = randomContent(3 * CHUNK + 4321);
    const merged = await uploadUnhashed(content, 'unhashed.bin');
    expect(merged.status).toBe(200);
    expect(merged.body.data.size).toBe(content.length);
    expect(await blobFingerprintOf(merged.body.data.id)).toBe(describeFile(content, CHUNK).fingerprint);
    const download = await admin.raw(downloadUrl(merged.body.data.id));
    expect(sha256Hex(Buffer.from(await download.arrayBuffer()))).toBe(sha256Hex(content));

    // The same bytes again, the client hashing first: recognised, created without a chunk request.
    const before = await chunkBytesReceived();
    const claim = { fingerprint: describeFile(content, CHUNK).fingerprint, size: content.length, name: 'again.bin', parentId: null, category: 1 };
    const first = await admin.post<{ data: SecondUploadResponse }>(API.secondUpload, claim);
    const challenge = first.body.data as SecondUploadChallenge;
    expect(challenge.status).toBe('challenge');
    const answer = await admin.post<{ data: SecondUploadResponse }>(API.secondUpload, { ...claim, proof: { challengeId: challenge.challengeId, hmac: proofFor(challenge, content) } });
    expect(answer.body.data.status).toBe('created');
    expect(await chunkBytesReceived()).toBe(before);
  });

  it('deduplicates a second unhashed upload of the same bytes (one blob, both files readable)', async () => {
    const content = randomContent(2 * CHUNK + 17);
    const a = await uploadUnhashed(content, 'dup-a.bin');
    const b = await uploadUnhashed(content, 'dup-b.bin');
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const blobs = await withDb(server, (db) => db.prepare('SELECT DISTINCT blob_id FROM files WHERE id IN (?, ?)').all(a.body.data.id, b.body.data.id));
    expect(blobs).toHaveLength(1);
    const download = await admin.raw(downloadUrl(b.body.data.id));
    expect(sha256Hex(Buffer.from(await download.arrayBuffer()))).toBe(sha256Hex(content));
  });

  it('an empty file: one empty chunk, fingerprint as the client computes it', async () => {
    const merged = await uploadUnhashed(Buffer.alloc(0), 'empty-unhashed.txt');
    expect(merged.status).toBe(200);
    expect(await blobFingerprintOf(merged.body.data.id)).toBe(describeFile(Buffer.alloc(0), CHUNK).fingerprint);
  });

  it('still checks a header when one is given, and mixes with headerless chunks', async () => {
    const content = randomContent(2 * CHUNK + 99);
    const { uploadId } = await openStreaming(content.length, 'mixed.bin');
    const wrong = await putChunk(admin, uploadId, 0, chunkOf(content, 0), chunkDigestHex(Buffer.from('something else')));
    expect(wrong.status).toBe(400);
    expect((wrong.body as { errorCode: string }).errorCode).toBe(ERRORS.CHUNK_DIGEST_MISMATCH.code);
    const malformed = await putChunk(admin, uploadId, 0, chunkOf(content, 0), 'not-a-digest');
    expect((malformed.body as { errorCode: string }).errorCode).toBe(ERRORS.CHUNK_DIGEST_MISMATCH.code);
    const resumed = await admin.post<{ data: ChunkExistResponse }>(API.chunkExist, { size: content.length, chunkSize: CHUNK, name: 'mixed.bin', parentId: null, category: 1, uploadId });
    expect(resumed.body.data.existingChunks).toEqual([]);

    expect((await putChunk(admin, uploadId, 0, chunkOf(content, 0))).status).toBe(200);
    expect((await putUnhashed(uploadId, 1, chunkOf(content, 1))).status).toBe(200);
    expect((await putUnhashed(uploadId, 2, chunkOf(content, 2))).status).toBe(200);
    // Half an announcement is still refused; neither, or both agreeing, is taken.
    const half = await merge(uploadId, 'mixed.bin', { fingerprint: describeFile(content, CHUNK).fingerprint });
    expect(half.status).toBe(400);
    const merged = await merge(uploadId, 'mixed.bin');
    expect(merged.status).toBe(200);
    expect(await blobFingerprintOf(merged.body.data.id)).toBe(describeFile(content, CHUNK).fingerprint);
  });

  it('merges with digests when the client does send them, refusing ones that disagree with the bytes', async () => {
    const content = randomContent(CHUNK + 5);
    const { uploadId } = await openStreaming(content.length, 'announced-late.bin');
    for (let i = 0; i < 2; i++) expect((await putUnhashed(uploadId, i, chunkOf(content, i))).status).toBe(200);
    const other = describeFile(randomContent(content.length), CHUNK);
    expect((await merge(uploadId, 'announced-late.bin', other)).body.errorCode).toBe(ERRORS.FINGERPRINT_MISMATCH.code);
    const merged = await merge(uploadId, 'announced-late.bin', describeFile(content, CHUNK));
    expect(merged.status).toBe(200);
  });

  it('a merge refused for a name clash leaves the session to continue by uploadId, every chunk kept', async () => {
    const content = randomContent(2 * CHUNK + 1);
    expect((await uploadUnhashed(content, 'clash.bin')).status).toBe(200);
    const { uploadId } = await openStreaming(content.length, 'clash.bin');
    for (let i = 0; i < 3; i++) expect((await putUnhashed(uploadId, i, randomContent(chunkOf(content, i).length))).status).toBe(200);
    const clash = await merge(uploadId, 'clash.bin');
    expect(clash.body.errorCode).toBe(ERRORS.NAME_CONFLICT.code);
    const resumed = await admin.post<{ data: ChunkExistResponse }>(API.chunkExist, { size: content.length, chunkSize: CHUNK, name: 'clash.bin', parentId: null, category: 1, uploadId });
    expect(resumed.body.data).toMatchObject({ uploadId, existingChunks: [0, 1, 2] });
    const renamed = await merge(uploadId, 'clash.bin', { onConflict: 'rename' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).not.toBe('clash.bin');
  });

  it('an announced (non-streaming) session still requires the header on every chunk', async () => {
    const content = randomContent(CHUNK + 3);
    const session = await openUploadSession(admin, content, 'announced.bin', CHUNK);
    const res = await putUnhashed(session.uploadId, 0, chunkOf(content, 0));
    expect(res.status).toBe(400);
    expect((res.body as { errorCode: string }).errorCode).toBe(ERRORS.CHUNK_DIGEST_MISMATCH.code);
  });
});
