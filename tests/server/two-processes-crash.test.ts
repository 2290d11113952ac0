/**
 * Issue 36: a process of several on one PostgreSQL dies (kill -9) or restarts beside live ones. Its
 * locks go with its connection; a merge it left half done is finished by the retry on another process;
 * its restart does not run the startup recovery of the shared data directory under the live ones' feet.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API, downloadUrl } from '../../common/api/paths';
import type { FileEntry } from '../../common/api/types';
import { chunkDigestHex } from '../support/chunk-digest';
import { stopOwnPostgres } from '../support/postgres-database';
import { adminClient, CHILD_CHUNK_SIZE } from './child-server';
import { entries } from './file-kit';
import { Client, postChunkExist, putChunk, randomContent, type Answer } from './helpers';
import { startProcessPair, type ProcessPair } from './process-pair';

const CHUNK = CHILD_CHUNK_SIZE;

let pair: ProcessPair;
let onA: Client;
let onB: Client;

beforeAll(async () => {
  // A kills itself once a merge has moved the chunk directory into place and before it commits.
  pair = await startProcessPair({}, 'merge-after-rename');
  onB = await adminClient(pair.b, pair.dataDir);
  onA = new Client(pair.a.baseUrl);
  onA.cookie = onB.cookie;
});
afterAll(async () => {
  await pair?.close();
  await stopOwnPostgres();
});

const chunkOf = (content: Buffer, index: number): Buffer => content.subarray(index * CHUNK, (index + 1) * CHUNK);

async function openUpload(client: Client, content: Buffer, name: string): Promise<string> {
  const res = await postChunkExist(client, content, name, { chunkSize: CHUNK });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.uploadId;
}

async function expectBytes(client: Client, fileId: string, content: Buffer): Promise<void> {
  const res = await client.raw(downloadUrl(fileId));
  expect(res.status).toBe(200);
  expect(Buffer.from(await res.arrayBuffer()).equals(content)).toBe(true);
}

function merge(client: Client, uploadId: string, name: string, clientKey: string): Promise<Answer<{ data: FileEntry }>> {
  return client.post<{ data: FileEntry }>(API.chunkMerge, { uploadId, name, parentId: null, category: 1, clientKey });
}

it('a merge whose process died after moving the chunks is finished by its retry on another process, byte-exact', async () => {
  const content = randomContent(4 * CHUNK);
  const name = 'crash-merge.bin';
  const uploadId = await openUpload(onB, content, name);
  for (let i = 0; i < 4; i++) expect((await putChunk(i % 2 ? onA : onB, uploadId, i, chunkOf(content, i))).status).toBe(200);
  const clientKey = randomBytes(12).toString('base64url');
  await merge(onA, uploadId, name, clientKey).catch(() => null); // A dies: no answer
  expect(await pair.a.exited).toBe(null); // SIGKILL

  const retried = await merge(onB, uploadId, name, clientKey);
  expect(retried.status, JSON.stringify(retried.body)).toBe(200);
  await expectBytes(onB, retried.body.data.id, content);
  expect((await entries(onB, null)).filter((e) => e.name.startsWith('crash-merge'))).toHaveLength(1);
  const client = new pg.Client({ connectionString: pair.dbUrl });
  await client.connect();
  try {
    expect((await client.query('select id from uploads where id = $1', [uploadId])).rowCount).toBe(0);
  } finally {
    await client.end();
  }
});

it('a process starting beside a live one leaves the chunk that one is receiving alone', async () => {
  const content = randomContent(2 * CHUNK);
  const name = 'restart-beside.bin';
  const uploadId = await openUpload(onB, content, name);
  const chunk = chunkOf(content, 0);
  // Headers only: B opens the chunk's partial file (empty) and waits for the body.
  const req = http.request(`${pair.b.baseUrl}${API.chunkUpload}?uploadId=${uploadId}&index=0`, {
    method: 'POST',
    agent: false,
    headers: { cookie: onB.cookie, 'content-type': 'application/octet-stream', 'content-length': String(chunk.length), 'x-chunk-sha256': chunkDigestHex(chunk) },
  });
  const answer = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  const partial = path.join(pair.dataDir, 'uploads', uploadId, '0.part');
  await expect.poll(() => existsSync(partial), { timeout: 10_000, interval: 20 }).toBe(true);

  const restarted = await pair.another();
  req.end(chunk);
  expect(await answer).toBe(200);
  const onC = new Client(restarted.baseUrl);
  onC.cookie = onB.cookie;
  expect((await putChunk(onC, uploadId, 1, chunkOf(content, 1))).status).toBe(200);
  const merged = await merge(onC, uploadId, name, randomBytes(12).toString('base64url'));
  expect(merged.status, JSON.stringify(merged.body)).toBe(200);
  await expectBytes(onC, merged.body.data.id, content);
});
