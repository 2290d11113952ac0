/**
 * Streaming sessions (hashing pipelined with the upload) and the second-upload probe, over real HTTP
 * on a real SQLite database: a session opened without digests takes each chunk against its header
 * digest, resumes by uploadId, and merges with digests and a fingerprint only when they agree with every
 * stored chunk; the probe answers 'candidate' only to a client proving it holds the bytes, and only
 * inside the tenant.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API, downloadUrl } from '../../common/api/paths';
import type { FileEntry, FileListResponse } from '../../common/api/types';
import type { ChunkExistResponse } from '../../common/transfer/protocol';
import type { SecondUploadResponse } from '../../common/transfer/second-upload';
import {
  addTenantWithUser,
  type Client,
  describeFile,
  loggedInClient,
  putChunk,
  randomContent,
  sha256Hex,
  startServerAsAdmin,
  type TestServer,
} from './helpers';
import { chunkDigestHex, fingerprintHex } from '../support/chunk-digest';

const CHUNK = 256 * 1024;
let server: TestServer;
let admin: Client;

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin({ chunkSize: CHUNK }));
});
afterAll(async () => {
  await server.close();
});

const chunkOf = (content: Buffer, i: number): Buffer => content.subarray(i * CHUNK, (i + 1) * CHUNK);

function openStreaming(client: Client, size: number, name: string, uploadId?: string) {
  return client.post<{ data: ChunkExistResponse }>(API.chunkExist, { size, chunkSize: CHUNK, name, parentId: null, category: 1, ...(uploadId ? { uploadId } : {}) });
}

function merge(client: Client, uploadId: string, name: string, extra: Record<string, unknown>) {
  return client.post<{ data: FileEntry; errorCode?: string }>(API.chunkMerge, { uploadId, name, parentId: null, category: 1, ...extra });
}

/** A probe: claim without fingerprint, then the proof over the challenged ranges of `bytes`. */
async function probe(client: Client, size: number, bytes: Buffer | null): Promise<SecondUploadResponse> {
  const claim = { size, name: 'probe.bin', parentId: null, category: 1 };
  const first = await client.post<{ data: SecondUploadResponse }>(API.secondUpload, claim);
  expect(first.status).toBe(200);
  const challenge = first.body.data;
  if (challenge.status !== 'challenge') throw new Error(`expected a challenge, got ${challenge.status}`);
  const hmac = createHmac('sha256', Buffer.from(challenge.nonce, 'hex'));
  for (const r of challenge.ranges) hmac.update(bytes ? bytes.subarray(r.start, r.end) : Buffer.alloc(r.end - r.start));
  const answer = await client.post<{ data: SecondUploadResponse }>(API.secondUpload, { ...claim, proof: { challengeId: challenge.challengeId, hmac: hmac.digest('hex') } });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

describe('streaming session', () => {
  it('takes chunks by their header digest, resumes by uploadId, and merges with digests that agree', async () => {
    const content = randomContent(3 * CHUNK + 1000);
    const { chunkDigests, fingerprint } = describeFile(content, CHUNK);
    const opened = await openStreaming(admin, content.length, 'streamed.bin');
    expect(opened.status).toBe(200);
    const { uploadId, chunkCount } = opened.body.data;
    expect(chunkCount).toBe(4);

    expect((await putChunk(admin, uploadId, 0, chunkOf(content, 0))).status).toBe(200);
    expect((await putChunk(admin, uploadId, 2, chunkOf(content, 2))).status).toBe(200);
    // A body that differs from its header digest is refused and not stored.
    const refused = await putChunk(admin, uploadId, 1, chunkOf(content, 1), chunkDigestHex(Buffer.from('other')));
    expect(refused.status).toBe(400);
    expect((refused.body as { errorCode: string }).errorCode).toBe(ERRORS.CHUNK_DIGEST_MISMATCH.code);

    // Resuming by uploadId lists what is stored; an unknown id opens a new, empty session.
    const resumed = await openStreaming(admin, content.length, 'streamed.bin', uploadId);
    expect(resumed.body.data).toMatchObject({ uploadId, existingChunks: [0, 2] });
    const other = await openStreaming(admin, content.length, 'streamed.bin', 'AAAAAAAAAAAAAAAAAAAAAA');
    expect(other.body.data.uploadId).not.toBe(uploadId);
    expect(other.body.data.existingChunks).toEqual([]);
    // A session is continued only for a file of its size.
    const otherSize = await openStreaming(admin, content.length + 1, 'streamed.bin', uploadId);
    expect(otherSize.body.data.uploadId).not.toBe(uploadId);

    expect((await putChunk(admin, uploadId, 1, chunkOf(content, 1))).status).toBe(200);
    expect((await putChunk(admin, uploadId, 3, chunkOf(content, 3))).status).toBe(200);

    // Digests given at merge must come with their fingerprint (half an announcement is refused), and
    // wrong ones (or a fingerprint that is not theirs) change nothing. (Neither: unhashed-streaming.test.ts.)
    expect((await merge(admin, uploadId, 'streamed.bin', { chunkDigests })).status).toBe(400);
    const wrong = [...chunkDigests];
    wrong[3] = chunkDigestHex(Buffer.from('not the last chunk'));
    const wrongMerge = await merge(admin, uploadId, 'streamed.bin', { chunkDigests: wrong, fingerprint: describeFile(Buffer.from('x'), CHUNK).fingerprint });
    expect(wrongMerge.body.errorCode).toBe(ERRORS.FINGERPRINT_MISMATCH.code);
    const { fingerprint: wrongFingerprint } = describeFileFromDigests(wrong);
    const mismatch = await merge(admin, uploadId, 'streamed.bin', { chunkDigests: wrong, fingerprint: wrongFingerprint });
    expect(mismatch.body.errorCode).toBe(ERRORS.FINGERPRINT_MISMATCH.code);

    const merged = await merge(admin, uploadId, 'streamed.bin', { chunkDigests, fingerprint });
    expect(merged.status).toBe(200);
    expect(merged.body.data.size).toBe(content.length);
    const download = await admin.raw(downloadUrl(merged.body.data.id));
    expect(sha256Hex(Buffer.from(await download.arrayBuffer()))).toBe(sha256Hex(content));
  });

  it('announces nothing but its size: an announced session is never found by a streaming request', async () => {
    const content = randomContent(CHUNK + 7);
    const opened = await openStreaming(admin, content.length, 'a.bin');
    const again = await openStreaming(admin, content.length, 'a.bin');
    expect(again.body.data.uploadId).not.toBe(opened.body.data.uploadId);
    // Half an announcement is refused.
    const half = await admin.post(API.chunkExist, { size: content.length, chunkSize: CHUNK, name: 'a.bin', parentId: null, category: 1, fingerprint: describeFile(content, CHUNK).fingerprint });
    expect(half.status).toBe(400);
  });
});

describe('second-upload probe', () => {
  let stored: Buffer;

  beforeAll(async () => {
    stored = randomContent(2 * CHUNK + 333);
    const { chunkDigests, fingerprint } = describeFile(stored, CHUNK);
    const { uploadId } = (await openStreaming(admin, stored.length, 'stored.bin')).body.data;
    for (let i = 0; i < 3; i++) expect((await putChunk(admin, uploadId, i, chunkOf(stored, i))).status).toBe(200);
    expect((await merge(admin, uploadId, 'stored.bin', { chunkDigests, fingerprint })).status).toBe(200);
  });

  it("answers 'candidate' to a client holding the bytes, and never creates a file", async () => {
    expect(await probe(admin, stored.length, stored)).toEqual({ status: 'candidate' });
    const list = await admin.post<{ data: FileListResponse }>(API.fileList, { parentId: null, category: 1, pageSize: 100 });
    expect(list.body.data.items.map((f) => f.name)).toContain('stored.bin');
    expect(list.body.data.items.filter((f) => f.name === 'probe.bin')).toEqual([]);
  });

  it("answers 'unknown' to a wrong proof, to another size and to another tenant, the same way", async () => {
    expect(await probe(admin, stored.length, null)).toEqual({ status: 'unknown' });
    expect(await probe(admin, stored.length, randomContent(stored.length))).toEqual({ status: 'unknown' });
    expect(await probe(admin, stored.length + 1, Buffer.concat([stored, Buffer.alloc(1)]))).toEqual({ status: 'unknown' });
    await addTenantWithUser(server, 'probe-other', 'Other@2024x');
    const outsider = await loggedInClient(server, { username: 'probe-other', password: 'Other@2024x' });
    expect(await probe(outsider, stored.length, stored)).toEqual({ status: 'unknown' });
  });
});

/** Fingerprint of given digests (what a client that computed `digests` would announce). */
function describeFileFromDigests(digests: string[]): { fingerprint: string } {
  return { fingerprint: fingerprintHex(digests) };
}
