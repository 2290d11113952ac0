/**
 * A download's read buffers are read into again only once the response has written them: over a real
 * socket to a client that reads slowly (writes left pending in the socket) and one that goes away, the
 * bytes come out exact and the stream reuses a few buffers instead of one per MiB.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, promises as fsp, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reclaimAfterWrite } from '../../../server/http/reclaim-after-write';
import { chunkSpans, LARGE_READ_BYTES, SpansReadStream } from '../../../server/storage/chunked-read-stream';

const CHUNK = 4 * LARGE_READ_BYTES;
const SIZE = 6 * CHUNK; // 24 MiB: 24 reads
let dir: string;
let content: Buffer;
let server: http.Server;
let url: string;
/** What each response's stream pushed, by memory (the pieces written). */
const served: Array<{ memories: Set<ArrayBufferLike>; pieces: number; closed: Promise<void> }> = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'reclaim-'));
  content = randomBytes(SIZE);
  for (let i = 0; i * CHUNK < SIZE; i++) await fsp.writeFile(path.join(dir, String(i)), content.subarray(i * CHUNK, (i + 1) * CHUNK));
  server = http.createServer((_req, res) => {
    const stream = new SpansReadStream(chunkSpans(dir, CHUNK, 0, SIZE - 1));
    const seen = { memories: new Set<ArrayBufferLike>(), pieces: 0, closed: new Promise<void>((resolve) => stream.once('close', resolve)) };
    served.push(seen);
    stream.on('data', (piece: Buffer) => {
      seen.memories.add(piece.buffer);
      seen.pieces++;
    });
    res.setHeader('Content-Length', String(SIZE));
    reclaimAfterWrite(res, stream);
    stream.pipe(res);
    res.once('close', () => stream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** GETs the file, pausing `pauseMs` after every `every` bytes, and stopping after `stopAfter` bytes. */
function download(pauseMs: number, every: number, stopAfter = Infinity): Promise<{ sha256: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        const hash = createHash('sha256');
        let bytes = 0;
        let sincePause = 0;
        res.on('data', (piece: Buffer) => {
          hash.update(piece);
          bytes += piece.length;
          sincePause += piece.length;
          if (bytes >= stopAfter) {
            res.destroy();
            resolve({ sha256: '', bytes });
            return;
          }
          if (sincePause >= every) {
            sincePause = 0;
            res.pause();
            setTimeout(() => res.resume(), pauseMs);
          }
        });
        res.on('end', () => resolve({ sha256: hash.digest('hex'), bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

describe('reclaimAfterWrite', () => {
  it('sends every byte to a slow reader while reusing a few read buffers', async () => {
    const got = await download(5, 512 * 1024);
    const seen = served.at(-1)!;
    expect(got.bytes).toBe(SIZE);
    expect(got.sha256).toBe(createHash('sha256').update(content).digest('hex'));
    expect(seen.pieces).toBe(SIZE / LARGE_READ_BYTES);
    expect(seen.memories.size).toBeLessThan(seen.pieces / 2);
  });

  it('sends every byte to a fast reader', async () => {
    const got = await download(0, Infinity);
    expect(got.sha256).toBe(createHash('sha256').update(content).digest('hex'));
  });

  it('stops cleanly when the reader goes away', async () => {
    const got = await download(1, 256 * 1024, 5 * LARGE_READ_BYTES);
    expect(got.bytes).toBeGreaterThanOrEqual(5 * LARGE_READ_BYTES);
    await served.at(-1)!.closed;
    // The server still answers the next download in full.
    const again = await download(0, Infinity);
    expect(again.sha256).toBe(createHash('sha256').update(content).digest('hex'));
  });
});
