/**
 * Range uploads (protocol.ts, "Range uploads"): one request carries many consecutive chunks of a
 * streaming session without digests, over real HTTP on a real SQLite database. The server records
 * them chunk by chunk as the body arrives: a cut body leaves the chunks before the cut recorded and the
 * cut one as a partial; wrong lengths, announced sessions, digest headers and other users' sessions
 * are refused before a byte is kept.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API, downloadUrl } from '../../common/api/paths';
import type { FileEntry } from '../../common/api/types';
import type { ChunkExistResponse, ChunkRangeUploadResponse } from '../../common/transfer/protocol';
import { HEADER_CHUNK_SHA256 } from '../../common/transfer/constants';
import {
  addTenantWithUser,
  type Client,
  describeFile,
  liftPasswordGate,
  loggedInClient,
  MEMBER,
  randomContent,
  sha256Hex,
  startServerAsAdmin,
  type TestServer,
  withDb,
} from './helpers';
import { openUploadSession } from './upload-session';
import { chunkDigestHex } from '../support/chunk-digest';
import { onS3 } from '../support/test-store';

const CHUNK = 256 * 1024;
let server: TestServer;
let admin: Client;

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin({ chunkSize: CHUNK }));
});
afterAll(async () => {
  server?.app.server.closeAllConnections();
  await server?.close();
});

const chunkOf = (content: Buffer, i: number): Buffer => content.subarray(i * CHUNK, (i + 1) * CHUNK);

async function openStreaming(client: Client, size: number, name: string, uploadId?: string): Promise<ChunkExistResponse> {
  const res = await client.post<{ data: ChunkExistResponse }>(API.chunkExist, { size, chunkSize: CHUNK, name, parentId: null, category: 1, ...(uploadId ? { uploadId } : {}) });
  expect(res.status).toBe(200);
  return res.body.data;
}

interface Answer {
  status: number;
  body: { data?: ChunkRangeUploadResponse; errorCode?: string; errorMessage?: string };
}

/** POSTs `body` as chunks index..through (query as given), no digest header unless `headers` adds one. */
async function putRange(client: Client, query: string, body: Uint8Array, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await client.raw(`${API.chunkUpload}?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', ...headers },
    body: new Uint8Array(body),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

async function bytesReceived(): Promise<number> {
  const res = await admin.get<{ data: { chunkBytesReceived: number } }>(API.testStats);
  return res.body.data.chunkBytesReceived;
}

/**
 * Announces `announced` bytes, sends the first `sendBytes` of `body`, waits until the server read
 * them, then destroys the socket (a reload or a cut connection in the middle of a whole-file request).
 */
async function cutRange(query: string, body: Buffer, sendBytes: number): Promise<void> {
  const before = await bytesReceived();
  const req = http.request(new URL(`${server.baseUrl}${API.chunkUpload}?${query}`), {
    method: 'POST',
    headers: { cookie: admin.cookie, 'content-type': 'application/octet-stream', 'content-length': String(body.length) },
  });
  const ended = new Promise<void>((resolve) => {
    req.on('error', () => resolve());
    req.on('response', (res) => {
      res.resume();
      resolve();
    });
  });
  await new Promise<void>((resolve, reject) => req.write(body.subarray(0, sendBytes), (err) => (err ? reject(err) : resolve())));
  await expect.poll(() => bytesReceived(), { timeout: 10_000, interval: 20 }).toBe(before + sendBytes);
  req.socket?.destroy();
  req.destroy();
  await ended;
}

async function mergeAndCheck(uploadId: string, name: string, content: Buffer): Promise<FileEntry> {
  const merged = await admin.post<{ data: FileEntry }>(API.chunkMerge, { uploadId, name, parentId: null, category: 1 });
  expect(merged.status).toBe(200);
  const res = await admin.raw(downloadUrl(merged.body.data.id));
  expect(sha256Hex(Buffer.from(await res.arrayBuffer()))).toBe(sha256Hex(content));
  const fp = await withDb(server, (db) => (db.prepare('SELECT b.fingerprint AS fp FROM files f JOIN blobs b ON b.id = f.blob_id WHERE f.id = ?').get(merged.body.data.id) as { fp: string }).fp);
  expect(fp).toBe(describeFile(content, CHUNK).fingerprint);
  return merged.body.data;
}

/** Whether the store keeps what a cut chunk body brought (disk); an object store keeps nothing of it. */
const keepsPartials = !onS3();

const recordedRows = (uploadId: string) =>
  withDb(server, (db) => db.prepare('SELECT idx, size, sha256 FROM upload_chunks WHERE upload_id = ? ORDER BY idx').all(uploadId) as Array<{ idx: number; size: number; sha256: string }>);

describe('range upload: many chunks in one request', () => {
  it('records a whole-file body chunk by chunk, each with its own digest, and merges byte-exact', async () => {
    const content = randomContent(4 * CHUNK + 1234);
    const { uploadId } = await openStreaming(admin, content.length, 'whole.bin');
    const res = await putRange(admin, `uploadId=${uploadId}&index=0&through=4`, content);
    expect(res.status).toBe(200);
    expect(res.body.data!.chunks).toEqual([0, 1, 2, 3].map((index) => ({ index, size: CHUNK })).concat([{ index: 4, size: 1234 }]));
    const rows = await recordedRows(uploadId);
    expect(rows.map((r) => [r.idx, r.size, r.sha256])).toEqual(describeFile(content, CHUNK).chunkDigests.map((d, i) => [i, chunkOf(content, i).length, d]));
    expect((await openStreaming(admin, content.length, 'whole.bin', uploadId)).existingChunks).toEqual([0, 1, 2, 3, 4]);
    await mergeAndCheck(uploadId, 'whole.bin', content);
  });

  it('a body cut mid-way leaves the chunks before the cut recorded and the cut one a partial (where the store keeps one); the rest goes chunk by chunk', async () => {
    const content = randomContent(4 * CHUNK + 99);
    // An object store writes an object whole or not at all: the cut chunk is sent again from its start.
    const from = keepsPartials ? 5000 : 0;
    const { uploadId } = await openStreaming(admin, content.length, 'cut-range.bin');
    const cutAt = 2 * CHUNK + 5000;
    await cutRange(`uploadId=${uploadId}&index=0&through=4`, content, cutAt);
    let session: ChunkExistResponse | undefined;
    await expect
      .poll(
        async () => {
          session = await openStreaming(admin, content.length, 'cut-range.bin', uploadId);
          return [session.existingChunks, session.partialChunks];
        },
        { timeout: 10_000, interval: 20 },
      )
      .toEqual([[0, 1], keepsPartials ? [{ index: 2, bytes: 5000 }] : []]);
    // The rest of chunk 2 from its offset, then 3..4 in one more range request.
    const rest = await admin.raw(`${API.chunkUpload}?uploadId=${uploadId}&index=2${from ? `&offset=${from}` : ''}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(chunkOf(content, 2).subarray(from)),
    });
    expect(rest.status).toBe(200);
    const tail = await putRange(admin, `uploadId=${uploadId}&index=3&through=4`, content.subarray(3 * CHUNK));
    expect(tail.body.data!.chunks.map((c) => c.index)).toEqual([3, 4]);
    await mergeAndCheck(uploadId, 'cut-range.bin', content);
  });

  // Partials are the disk store's (docs/object-store.md: what the object store can't do).
  it.skipIf(!keepsPartials)('starts inside a held partial with offset, and reads past a chunk already stored without touching it', async () => {
    const content = randomContent(3 * CHUNK + 7);
    const { uploadId } = await openStreaming(admin, content.length, 'offset-range.bin');
    await cutRange(`uploadId=${uploadId}&index=0&through=3`, content, 777);
    await expect.poll(async () => (await openStreaming(admin, content.length, 'offset-range.bin', uploadId)).partialChunks, { timeout: 10_000, interval: 20 }).toEqual([{ index: 0, bytes: 777 }]);
    const one = await admin.raw(`${API.chunkUpload}?uploadId=${uploadId}&index=1`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(chunkOf(content, 1)) });
    expect(one.status).toBe(200);
    const before = await recordedRows(uploadId);
    const res = await putRange(admin, `uploadId=${uploadId}&index=0&through=3&offset=777`, content.subarray(777));
    expect(res.status).toBe(200);
    expect(res.body.data!.chunks.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    const after = await recordedRows(uploadId);
    expect(after.find((r) => r.idx === 1)).toEqual(before.find((r) => r.idx === 1));
    await mergeAndCheck(uploadId, 'offset-range.bin', content);
  });

  it('refuses wrong lengths before keeping a byte', async () => {
    const content = randomContent(2 * CHUNK + 10);
    const { uploadId } = await openStreaming(admin, content.length, 'lengths.bin');
    const short = await putRange(admin, `uploadId=${uploadId}&index=0&through=2`, content.subarray(0, content.length - 1));
    expect(short.status).toBe(400);
    expect(short.body.errorCode).toBe(ERRORS.CHUNK_SIZE_MISMATCH.code);
    const long = await putRange(admin, `uploadId=${uploadId}&index=0&through=1`, content.subarray(0, 2 * CHUNK + 1));
    expect(long.body.errorCode).toBe(ERRORS.CHUNK_SIZE_MISMATCH.code);
    const beyond = await putRange(admin, `uploadId=${uploadId}&index=1&through=3`, content.subarray(CHUNK));
    expect(beyond.body.errorCode).toBe(ERRORS.CHUNK_INDEX_INVALID.code);
    const backwards = await putRange(admin, `uploadId=${uploadId}&index=2&through=1`, content.subarray(CHUNK));
    expect(backwards.body.errorCode).toBe(ERRORS.CHUNK_INDEX_INVALID.code);
    const session = await openStreaming(admin, content.length, 'lengths.bin', uploadId);
    expect([session.existingChunks, session.partialChunks]).toEqual([[], []]);
    expect(await recordedRows(uploadId)).toEqual([]);
  });

  it('a session with digests, or a digest header, refuses the range', async () => {
    const content = randomContent(CHUNK + 3);
    const announced = await openUploadSession(admin, content, 'announced-range.bin', CHUNK);
    const refused = await putRange(admin, `uploadId=${announced.uploadId}&index=0&through=1`, content);
    expect(refused.status).toBe(400);
    expect(refused.body.errorCode).toBe(ERRORS.VALIDATION.code);
    expect(await recordedRows(announced.uploadId)).toEqual([]);

    const { uploadId } = await openStreaming(admin, content.length, 'header-range.bin');
    const withHeader = await putRange(admin, `uploadId=${uploadId}&index=0&through=0`, chunkOf(content, 0), { [HEADER_CHUNK_SHA256]: chunkDigestHex(chunkOf(content, 0)) });
    expect(withHeader.body.errorCode).toBe(ERRORS.VALIDATION.code);
    expect(await recordedRows(uploadId)).toEqual([]);
  });

  it("another user's or another tenant's upload id is not found, like a single chunk's", async () => {
    const content = randomContent(CHUNK + 3);
    const { uploadId } = await openStreaming(admin, content.length, 'mine.bin');
    await liftPasswordGate(server, MEMBER.username);
    const member = await loggedInClient(server, MEMBER);
    await addTenantWithUser(server, 'other-range', 'Other@12345');
    const stranger = await loggedInClient(server, { username: 'other-range', password: 'Other@12345' });
    for (const client of [member, stranger]) {
      const single = await client.raw(`${API.chunkUpload}?uploadId=${uploadId}&index=0`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(chunkOf(content, 0)) });
      const range = await putRange(client, `uploadId=${uploadId}&index=0&through=1`, content);
      expect(range.status).toBe(single.status);
      expect(range.body.errorCode).toBe(ERRORS.UPLOAD_NOT_FOUND.code);
    }
    expect(await recordedRows(uploadId)).toEqual([]);
  });
});
