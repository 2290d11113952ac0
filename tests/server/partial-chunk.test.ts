/**
 * Resume inside a chunk: a chunk body cut mid-way is kept as `<index>.part`, chunk/exist lists it in
 * `partialChunks`, and the client sends only the rest with `offset` (protocol.ts, "Partial chunks").
 */
import { promises as fsp } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { ChunkExistResponse } from '../../common/transfer/protocol';
import { type Client, loggedInClient, putChunk, randomContent, startServer, startServerAsAdmin, type TestServer } from './helpers';
import { openUploadSession } from './upload-session';
import { bytesReceived, mergeAndCheck, openChunkRequest, putRest, untilBytesReceived } from './chunk-kit';
import { chunkDigestHex } from '../support/chunk-digest';

const CHUNK = 256 * 1024;
const HALF = CHUNK / 2;

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin({ chunkSize: CHUNK }));
});
afterAll(async () => {
  await server?.close();
});

const chunkOf = (content: Buffer, i: number) => content.subarray(i * CHUNK, (i + 1) * CHUNK);

const open = (client: Client, content: Buffer, name: string) => openUploadSession(client, content, name, CHUNK);

/**
 * Sends the head of a chunk body over a raw connection that announces the whole rest of the chunk,
 * waits until the server has read those bytes, then destroys the socket (a reload, a cut connection).
 */
async function cutChunk(s: TestServer, client: Client, uploadId: string, index: number, chunk: Buffer, sendBytes: number, offset = 0): Promise<void> {
  const before = await bytesReceived(client);
  const request = openChunkRequest(s, client, uploadId, index, chunk, offset);
  await request.send(chunk.subarray(offset, offset + sendBytes));
  await untilBytesReceived(client, before + sendBytes);
  request.destroy();
  await request.answer;
}

/** Polls chunk/exist until the server lists `index` as a partial of `bytes` (the cut is handled async). */
async function expectPartial(client: Client, content: Buffer, name: string, index: number, bytes: number): Promise<ChunkExistResponse> {
  let session: ChunkExistResponse | undefined;
  await expect
    .poll(
      async () => {
        session = await open(client, content, name);
        return session.partialChunks;
      },
      { timeout: 10_000, interval: 20 },
    )
    .toEqual([{ index, bytes }]);
  return session!;
}

const partFiles = async (s: TestServer, uploadId: string): Promise<string[]> =>
  (await fsp.readdir(path.join(s.dataDir, 'uploads', uploadId)).catch(() => [] as string[])).filter((n) => n.endsWith('.part')).sort();

describe('a chunk body cut mid-way', () => {
  it('is kept as a partial, listed by chunk/exist, and resumed with offset (only the rest is sent)', async () => {
    const content = randomContent(2 * CHUNK + 1000);
    const session = await open(admin, content, 'cut.bin');
    expect(session.partialChunks).toEqual([]);
    expect((await putChunk(admin, session.uploadId, 0, chunkOf(content, 0))).status).toBe(200);

    await cutChunk(server, admin, session.uploadId, 1, chunkOf(content, 1), HALF);
    const resumed = await expectPartial(admin, content, 'cut.bin', 1, HALF);
    expect(resumed.existingChunks).toEqual([0]);
    expect(await partFiles(server, session.uploadId)).toEqual(['1.part']);

    const before = await bytesReceived(admin);
    const rest = await putRest(admin, session.uploadId, 1, chunkOf(content, 1), HALF);
    expect(rest).toEqual({ status: 200, body: { data: { index: 1, size: CHUNK } } });
    expect(await bytesReceived(admin)).toBe(before + CHUNK - HALF);
    expect(await partFiles(server, session.uploadId)).toEqual([]);
    const after = await open(admin, content, 'cut.bin');
    expect(after.existingChunks).toEqual([0, 1]);
    expect(after.partialChunks).toEqual([]);

    // A duplicate of a stored chunk (with or without offset) stays a harmless success.
    expect((await putRest(admin, session.uploadId, 1, chunkOf(content, 1), HALF)).status).toBe(200);
    expect((await putChunk(admin, session.uploadId, 2, chunkOf(content, 2))).status).toBe(200);
    await mergeAndCheck(admin, session.uploadId, 'cut.bin', content);
  });

  it('a cut resumed body can be cut again, and resumed from the new length', async () => {
    const content = randomContent(CHUNK);
    const session = await open(admin, content, 'twice.bin');
    await cutChunk(server, admin, session.uploadId, 0, content, 1000);
    await expectPartial(admin, content, 'twice.bin', 0, 1000);
    await cutChunk(server, admin, session.uploadId, 0, content, 50_000, 1000);
    await expectPartial(admin, content, 'twice.bin', 0, 51_000);
    // Resuming from an earlier offset than held is fine: the partial is truncated there.
    expect((await putRest(admin, session.uploadId, 0, content, 30_000)).status).toBe(200);
    await mergeAndCheck(admin, session.uploadId, 'twice.bin', content);
  });

  it('refuses an offset beyond the partial (or without one) with CHUNK_OFFSET_MISMATCH; offset 0 still works', async () => {
    const content = randomContent(CHUNK + 10);
    const session = await open(admin, content, 'offset.bin');
    const none = await putRest(admin, session.uploadId, 0, chunkOf(content, 0), 100);
    expect(none.status).toBe(400);
    expect(none.body.errorCode).toBe(ERRORS.CHUNK_OFFSET_MISMATCH.code);
    expect(none.body.errorMessage).toMatch(/100/);
    expect(Object.keys(none.body).sort()).toEqual(['errorCode', 'errorMessage']);

    await cutChunk(server, admin, session.uploadId, 0, chunkOf(content, 0), HALF);
    await expectPartial(admin, content, 'offset.bin', 0, HALF);
    const beyond = await putRest(admin, session.uploadId, 0, chunkOf(content, 0), HALF + 1);
    expect(beyond.body.errorCode).toBe(ERRORS.CHUNK_OFFSET_MISMATCH.code);
    // Nothing was lost by the refused request.
    await expectPartial(admin, content, 'offset.bin', 0, HALF);
    const outside = await putRest(admin, session.uploadId, 1, chunkOf(content, 1), 10);
    expect(outside.body.errorCode).toBe(ERRORS.CHUNK_OFFSET_MISMATCH.code);

    // Offset 0 starts over (truncating the partial).
    expect((await putChunk(admin, session.uploadId, 0, chunkOf(content, 0))).status).toBe(200);
    expect((await putChunk(admin, session.uploadId, 1, chunkOf(content, 1))).status).toBe(200);
    await mergeAndCheck(admin, session.uploadId, 'offset.bin', content);
  });

  it('a resumed chunk whose bytes are wrong is a digest mismatch and the partial is discarded', async () => {
    const content = randomContent(CHUNK);
    const session = await open(admin, content, 'wrong.bin');
    await cutChunk(server, admin, session.uploadId, 0, content, HALF);
    await expectPartial(admin, content, 'wrong.bin', 0, HALF);
    const wrong = Buffer.from(content.subarray(HALF));
    wrong[10] = wrong[10]! ^ 1;
    const res = await putRest(admin, session.uploadId, 0, content, HALF, wrong);
    expect(res.body.errorCode).toBe(ERRORS.CHUNK_DIGEST_MISMATCH.code);
    expect((await open(admin, content, 'wrong.bin')).partialChunks).toEqual([]);
    expect(await partFiles(server, session.uploadId)).toEqual([]);
    const again = await putRest(admin, session.uploadId, 0, content, HALF);
    expect(again.body.errorCode).toBe(ERRORS.CHUNK_OFFSET_MISMATCH.code);
    expect((await putChunk(admin, session.uploadId, 0, content)).status).toBe(200);
    await mergeAndCheck(admin, session.uploadId, 'wrong.bin', content);
  });

  it('concurrent resumes of one partial are serialized: one stores the chunk, the rest are harmless', async () => {
    const content = randomContent(CHUNK);
    const session = await open(admin, content, 'race.bin');
    await cutChunk(server, admin, session.uploadId, 0, content, HALF);
    await expectPartial(admin, content, 'race.bin', 0, HALF);
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => putRest(admin, session.uploadId, 0, content, HALF)),
      ...Array.from({ length: 2 }, () => putChunk(admin, session.uploadId, 0, content)),
    ]);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect((await fsp.readFile(path.join(server.dataDir, 'uploads', session.uploadId, '0'))).equals(content)).toBe(true);
    expect(await partFiles(server, session.uploadId)).toEqual([]);
    await mergeAndCheck(admin, session.uploadId, 'race.bin', content);
  });

  it('expiring the upload (sweeper) removes its partial files', async () => {
    const content = randomContent(2 * CHUNK);
    const session = await open(admin, content, 'stale.bin');
    await cutChunk(server, admin, session.uploadId, 1, chunkOf(content, 1), 4096);
    await expectPartial(admin, content, 'stale.bin', 1, 4096);
    const swept = await server.app.sweeper.sweepOnce(Date.now() + 48 * 3600 * 1000);
    expect(swept.uploads).toBeGreaterThanOrEqual(1);
    await expect(fsp.access(path.join(server.dataDir, 'uploads', session.uploadId))).rejects.toThrow();
  });

  it('test stats need a login', async () => {
    const res = await fetch(server.baseUrl + API.testStats);
    expect(res.status).toBe(401);
  });
});

describe('partials across a restart', () => {
  it('survive a server restart (recovery keeps them) and the server closes promptly after a cut', async () => {
    const first = await startServer({ chunkSize: CHUNK });
    const dataDir = first.dataDir;
    let client = await loggedInClient(first);
    const content = randomContent(3 * CHUNK + 77);
    const session = await open(client, content, 'restart.bin');
    expect((await putChunk(client, session.uploadId, 0, chunkOf(content, 0))).status).toBe(200);
    await cutChunk(first, client, session.uploadId, 1, chunkOf(content, 1), HALF + 3);
    await cutChunk(first, client, session.uploadId, 2, chunkOf(content, 2), 7);
    await expect
      .poll(async () => (await open(client, content, 'restart.bin')).partialChunks, { timeout: 10_000, interval: 20 })
      .toEqual([
        { index: 1, bytes: HALF + 3 },
        { index: 2, bytes: 7 },
      ]);
    // Stray partials recovery must not keep: an empty one, one of a recorded chunk.
    await fsp.writeFile(path.join(dataDir, 'uploads', session.uploadId, '3.part'), '');
    await fsp.writeFile(path.join(dataDir, 'uploads', session.uploadId, '0.part'), 'x');
    const closing = Date.now();
    await first.app.close();
    expect(Date.now() - closing).toBeLessThan(5000);

    // Same DATA_DIR (startServer's own temp dir stays unused; this test removes dataDir itself).
    const started = await startServer({ chunkSize: CHUNK, dataDir });
    const second: TestServer = { ...started, dataDir };
    try {
      client = await loggedInClient(second);
      expect(await partFiles(second, session.uploadId)).toEqual(['1.part', '2.part']);
      const resumed = await open(client, content, 'restart.bin');
      expect(resumed.uploadId).toBe(session.uploadId);
      expect(resumed.existingChunks).toEqual([0]);
      expect(resumed.partialChunks).toEqual([
        { index: 1, bytes: HALF + 3 },
        { index: 2, bytes: 7 },
      ]);
      expect((await putRest(client, session.uploadId, 1, chunkOf(content, 1), HALF + 3)).status).toBe(200);
      expect((await putRest(client, session.uploadId, 2, chunkOf(content, 2), 7)).status).toBe(200);
      expect((await putChunk(client, session.uploadId, 3, chunkOf(content, 3))).status).toBe(200);
      await mergeAndCheck(client, session.uploadId, 'restart.bin', content);
      expect(await fsp.readdir(path.join(dataDir, 'uploads'))).toEqual([]);
    } finally {
      await started.close();
      await fsp.rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a chunked-encoded chunk body that runs past its length', () => {
  /** Posts `body` with Transfer-Encoding: chunked (no Content-Length), in 16 KiB pieces; resolves with the answer. */
  function postChunked(client: Client, uploadId: string, index: number, chunk: Buffer, body: Buffer): Promise<{ status: number; json: { errorCode?: string } }> {
    const url = new URL(`${server.baseUrl}${API.chunkUpload}?uploadId=${uploadId}&index=${index}`);
    return new Promise((resolve, reject) => {
      const req = http.request(url, {
        method: 'POST',
        headers: { cookie: client.cookie, 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked', 'x-chunk-sha256': chunkDigestHex(chunk) },
      });
      req.on('response', (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(parts).toString() || '{}') as { errorCode?: string } }));
      });
      // The server may close the connection once it has answered: writes after that fail, the answer stands.
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      const timer = setTimeout(() => reject(new Error('no HTTP answer within 10 s')), 10_000);
      req.on('response', () => clearTimeout(timer));
      void (async () => {
        for (let at = 0; at < body.length; at += 16 * 1024) {
          if (req.destroyed) return;
          await new Promise<void>((r) => req.write(body.subarray(at, at + 16 * 1024), () => r()));
        }
        req.end();
      })();
    });
  }

  it('is answered 400 UPL-4003, keeps nothing of it, and the chunk can then be sent right', async () => {
    const content = randomContent(2 * CHUNK);
    const session = await open(admin, content, 'overrun.bin');
    const chunk = chunkOf(content, 0);
    const answer = await postChunked(admin, session.uploadId, 0, chunk, Buffer.concat([chunk, randomContent(64 * 1024)]));
    expect(answer.status).toBe(400);
    expect(answer.json.errorCode).toBe(ERRORS.CHUNK_SIZE_MISMATCH.code);
    expect(await partFiles(server, session.uploadId)).toEqual([]);
    expect((await putChunk(admin, session.uploadId, 0, chunk)).status).toBe(200);
    expect((await putChunk(admin, session.uploadId, 1, chunkOf(content, 1))).status).toBe(200);
    await mergeAndCheck(admin, session.uploadId, 'overrun.bin', content);
  });

  it('an exact chunked body is stored as usual', async () => {
    const content = randomContent(CHUNK + 100);
    const session = await open(admin, content, 'chunked-ok.bin');
    expect((await postChunked(admin, session.uploadId, 0, chunkOf(content, 0), chunkOf(content, 0))).status).toBe(200);
    expect((await postChunked(admin, session.uploadId, 1, chunkOf(content, 1), chunkOf(content, 1))).status).toBe(200);
    await mergeAndCheck(admin, session.uploadId, 'chunked-ok.bin', content);
  });
});

