import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ApiOk } from '../../common/api/envelope';
import { API } from '../../common/api/paths';
import { callerOf } from '../http/session-guard';
import type { UploadService } from '../services/upload-service';
import { CoalescingWriter } from '../storage/coalescing-writer';
import { HashThreads, type StreamHasher } from '../storage/hash-threads';

/**
 * Test hooks, registered only with DRIVE_TEST_HOOKS=1. `PUT /api/test/raw-sink` streams the raw body
 * to a temp file with a chunk's durability (coalesced writes, fsync), deletes it and answers {bytes}: the plain
 * upload (`curl -T`) a benchmark compares the engine's upload with. With `?keep=1` the file stays (in
 * `<tmp>/raw-sink/`, gone with the data directory), as an upload's blob does. On this VM a buffered
 * write into page cache just freed by a deletion measured 3–5× faster than one into memory not used
 * before (dd, 1 GiB, fsync: 1.1–1.8 GB/s vs 343–975 MB/s; with O_DIRECT 1.7 GB/s either way), so a
 * sink that deletes at once would be timed on warmer memory than the upload it is compared with. With
 * `?digest=1` the sink also computes the protocol's chunk digest (common/transfer/chunk-digest.ts) of
 * the whole body on hash threads of its own, fed by the writer as an upload's chunks are, and answers it
 * as `digest`: a plain upload into a server that digests what it stores, as the upload path must (its
 * streaming sessions record chunk digests the client never computed). `GET /api/test/stats` answers
 * {chunkBytesReceived}: every byte read from chunk upload bodies (kept or not), so tests can measure
 * the bytes a resume sends again. `POST /api/test/sweep[?at=<ms>]` runs one sweeper pass (as if at
 * that time) and answers what it removed (a server in a child process has no other handle on its sweeper).
 */
export function registerTestRoutes(app: FastifyInstance, tmpDir: string, uploads: UploadService): void {
  // The sink's own hash threads (as many as the chunk store's), started by the first ?digest=1 only.
  const hashThreads = new HashThreads();
  app.addHook('onClose', async () => hashThreads.close());
  app.get(API.testStats, async (request): Promise<ApiOk<{ chunkBytesReceived: number }>> => {
    callerOf(request);
    return { data: { chunkBytesReceived: uploads.chunkBytesReceived } };
  });
  // Undeclared on purpose (a test hook): `?at=<ms>` runs the pass as if at that time (what waits an upload session).
  app.post<{ Querystring: { at?: string } }>(API.testSweep, async (request): Promise<ApiOk<Awaited<ReturnType<FastifyInstance['sweeper']['sweepOnce']>>>> => {
    callerOf(request);
    const at = request.query.at === undefined ? Date.now() : Number(request.query.at);
    if (!Number.isSafeInteger(at)) throw new Error('test sweep: at must be ms since the epoch');
    return { data: await app.sweeper.sweepOnce(at) };
  });
  void app.register(async (scope) => {
    const passThrough = (_req: unknown, payload: Readable, done: (err: Error | null, body?: Readable) => void) => done(null, payload);
    scope.addContentTypeParser('*', passThrough);
    // Undeclared on purpose (a test hook, not a product endpoint): typed with Fastify's generics, not validated.
    scope.put<{ Querystring: { keep?: string; digest?: string } }>(API.testRawSink, { bodyLimit: Number.MAX_SAFE_INTEGER }, async (request): Promise<ApiOk<{ bytes: number; digest?: string }>> => {
      callerOf(request);
      const keep = request.query.keep === '1';
      const hasher: StreamHasher | null = request.query.digest === '1' ? hashThreads.create() : null;
      const dir = keep ? path.join(tmpDir, 'raw-sink') : tmpDir;
      if (keep) await fsp.mkdir(dir, { recursive: true });
      const file = path.join(dir, `raw-sink-${randomUUID()}.part`);
      const handle = await fsp.open(file, 'wx');
      let kept = false;
      let bytes = 0;
      let digest: string | undefined;
      try {
        // The request stream itself (the pass-through parser above), or nothing for a request without a body.
        const body = request.body;
        if (body instanceof Readable) {
          // A stream without an encoding yields Buffers.
          const pieces: AsyncIterable<Buffer> = body;
          // The same writer as chunk uploads, so the comparison is of protocols, not of write calls.
          const writer = new CoalescingWriter(handle, 0, hasher ? (data) => hasher.update(data) : undefined);
          try {
            for await (const piece of pieces) {
              await writer.write(piece);
              bytes += piece.length;
            }
            await writer.flush();
          } finally {
            writer.release();
          }
        }
        if (hasher) digest = await hasher.digest();
        await handle.sync();
        kept = keep;
      } finally {
        hasher?.dispose();
        await handle.close();
        if (!kept) await fsp.rm(file, { force: true });
      }
      return { data: digest === undefined ? { bytes } : { bytes, digest } };
    });
  });
}
