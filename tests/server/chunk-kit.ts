/**
 * Chunk requests in server tests beyond putChunk: a body sent piece by piece over its own connection
 * (to cut it, hold it open or pace it), the rest of a chunk from an offset, the server's count of
 * chunk body bytes read, and a merge checked byte for byte.
 */
import http from 'node:http';
import { expect } from 'vitest';
import { API, downloadUrl } from '../../common/api/paths';
import type { FileEntry } from '../../common/api/types';
import { chunkDigestHex } from '../support/chunk-digest';
import type { Client, TestServer } from './helpers';

/** Every chunk body byte the server has read so far (test hook). */
export async function bytesReceived(client: Client): Promise<number> {
  const res = await client.get<{ data: { chunkBytesReceived: number } }>(API.testStats);
  expect(res.status).toBe(200);
  return res.body.data.chunkBytesReceived;
}

/** Waits until the server has read `bytes` chunk body bytes in all. */
export async function untilBytesReceived(client: Client, bytes: number): Promise<void> {
  await expect.poll(() => bytesReceived(client), { timeout: 10_000, interval: 20 }).toBe(bytes);
}

export interface OpenChunkRequest {
  /** Writes the next bytes of the body; resolves once the socket took them. */
  send(bytes: Uint8Array): Promise<void>;
  /** The status of the answer, or 'cut' when the connection ended without one. */
  answer: Promise<number | 'cut'>;
  /** Destroys the connection (a reload, a dropped network). */
  destroy(): void;
}

/**
 * A chunk request on a connection of its own that announces the whole of `chunk` from `offset`, with
 * no body sent yet: the test sends it piece by piece, and may leave it open or destroy it.
 */
export function openChunkRequest(s: TestServer, client: Client, uploadId: string, index: number, chunk: Buffer, offset = 0): OpenChunkRequest {
  const url = new URL(`${s.baseUrl}${API.chunkUpload}?uploadId=${uploadId}&index=${index}${offset ? `&offset=${offset}` : ''}`);
  const req = http.request(url, {
    method: 'POST',
    agent: false,
    headers: {
      cookie: client.cookie,
      'content-type': 'application/octet-stream',
      'content-length': String(chunk.length - offset),
      'x-chunk-sha256': chunkDigestHex(chunk),
    },
  });
  const answer = new Promise<number | 'cut'>((resolve) => {
    req.on('error', () => resolve('cut'));
    req.on('close', () => resolve('cut'));
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
  });
  return {
    send: (bytes) => new Promise<void>((resolve, reject) => req.write(bytes, (err) => (err ? reject(err) : resolve()))),
    answer,
    destroy: () => {
      req.socket?.destroy();
      req.destroy();
    },
  };
}

/** The rest of `chunk` from `offset` (or `body` instead), with the whole chunk's digest. */
export async function putRest(client: Client, uploadId: string, index: number, chunk: Buffer, offset: number, body = chunk.subarray(offset)) {
  const res = await client.raw(`${API.chunkUpload}?uploadId=${uploadId}&index=${index}&offset=${offset}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', 'x-chunk-sha256': chunkDigestHex(chunk) },
    body: new Uint8Array(body),
  });
  return { status: res.status, body: (await res.json()) as { data?: unknown; errorCode?: string; errorMessage?: string } };
}

/** Merges the upload at the root under `name` and checks the file's bytes are `content`. */
export async function mergeAndCheck(client: Client, uploadId: string, name: string, content: Buffer): Promise<void> {
  const merged = await client.post<{ data: FileEntry }>(API.chunkMerge, { uploadId, name, parentId: null, category: 1 });
  expect(merged.status).toBe(200);
  const res = await client.raw(downloadUrl(merged.body.data.id));
  expect(Buffer.from(await res.arrayBuffer()).equals(content)).toBe(true);
}
