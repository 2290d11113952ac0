/**
 * Finished uploads (common/transfer/protocol.ts): a request repeated with the client key of an item
 * whose file exists already creates nothing — chunk/exist answers `finished`, merge and second upload
 * answer that file — so a reload during the merge, or an answer cut on the way, never makes a second
 * file or a name clash with the item's own copy. Real HTTP, real SQLite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { FileEntry, FileListResponse } from '../../common/api/types';
import type { ChunkExistResponse } from '../../common/transfer/protocol';
import type { SecondUploadResponse } from '../../common/transfer/second-upload';
import { type Client, describeFile, putChunk, randomContent, startServerAsAdmin, type TestServer, withDb } from './helpers';

const CHUNK = 256 * 1024;
let server: TestServer;
let admin: Client;

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin({ chunkSize: CHUNK, uploadExpiryMs: 60_000 }));
});
afterAll(async () => {
  await server.close();
});

function exist(content: Buffer, name: string, clientKey: string) {
  const { chunkDigests, fingerprint } = describeFile(content, CHUNK);
  return admin.post<{ data: ChunkExistResponse }>(API.chunkExist, { fingerprint, chunkDigests, size: content.length, chunkSize: CHUNK, name, parentId: null, category: 1, clientKey });
}

async function sendAll(content: Buffer, session: ChunkExistResponse): Promise<void> {
  for (let i = 0; i < session.chunkCount; i++) {
    if (!session.existingChunks.includes(i)) expect((await putChunk(admin, session.uploadId, i, content.subarray(i * CHUNK, (i + 1) * CHUNK))).status).toBe(200);
  }
}

const merge = (uploadId: string, name: string, clientKey: string) =>
  admin.post<{ data: FileEntry; errorCode?: string }>(API.chunkMerge, { uploadId, name, parentId: null, category: 1, clientKey });

async function namesAtRoot(prefix: string): Promise<string[]> {
  const res = await admin.post<{ data: FileListResponse }>(API.fileList, { parentId: null, category: 1, keyword: prefix });
  return res.body.data.items.map((e) => e.name).filter((n) => n.startsWith(prefix)).sort();
}

describe('finished uploads', () => {
  it('after a merge, chunk/exist with the same key answers finished, and a repeated merge answers the same file', async () => {
    const content = randomContent(2 * CHUNK + 77);
    const open = await exist(content, 'fin-a.bin', 'key-a');
    await sendAll(content, open.body.data);
    const first = await merge(open.body.data.uploadId, 'fin-a.bin', 'key-a');
    expect(first.status).toBe(200);

    const again = await exist(content, 'fin-a.bin', 'key-a');
    expect(again.status).toBe(200);
    expect(again.body.data.finished).toEqual({ fileId: first.body.data.id });
    expect(again.body.data.existingChunks).toEqual([0, 1, 2]);
    const repeated = await merge(open.body.data.uploadId, 'fin-a.bin', 'key-a');
    expect(repeated.body.data.id).toBe(first.body.data.id);
    expect(await namesAtRoot('fin-a')).toEqual(['fin-a.bin']);
  });

  it('a second session of the same item racing the first: its merge answers the first file and leaves nothing behind', async () => {
    const content = randomContent(CHUNK + 5);
    const a = await exist(content, 'fin-race.bin', 'key-race');
    await sendAll(content, a.body.data);
    // The "reloaded page" opens its own session before the first merge commits (another key would
    // find the first session by fingerprint; a fresh server-side session needs the first one gone).
    await withDb(server, (db) => db.prepare('update uploads set fingerprint = ? where id = ?').run('0'.repeat(64), a.body.data.uploadId));
    const b = await exist(content, 'fin-race.bin', 'key-race');
    expect(b.body.data.uploadId).not.toBe(a.body.data.uploadId);
    await sendAll(content, b.body.data);
    await withDb(server, (db) => db.prepare('update uploads set fingerprint = (select fingerprint from uploads where id = ?) where id = ?').run(b.body.data.uploadId, a.body.data.uploadId));
    const first = await merge(a.body.data.uploadId, 'fin-race.bin', 'key-race');
    expect(first.status).toBe(200);
    const second = await merge(b.body.data.uploadId, 'fin-race.bin', 'key-race');
    expect(second.status).toBe(200);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(await namesAtRoot('fin-race')).toEqual(['fin-race.bin']);
    const left = await withDb(server, (db) => db.prepare('select count(*) as n from uploads where id = ?').get(b.body.data.uploadId) as { n: number });
    expect(left.n).toBe(0);
  });

  it('two sessions of one item merged at the same moment make one file, and both answers name it', async () => {
    const content = randomContent(CHUNK + 11);
    const a = await exist(content, 'fin-both.bin', 'key-both');
    await sendAll(content, a.body.data);
    await withDb(server, (db) => db.prepare('update uploads set fingerprint = ? where id = ?').run('1'.repeat(64), a.body.data.uploadId));
    const b = await exist(content, 'fin-both.bin', 'key-both');
    await sendAll(content, b.body.data);
    await withDb(server, (db) => db.prepare('update uploads set fingerprint = (select fingerprint from uploads where id = ?) where id = ?').run(b.body.data.uploadId, a.body.data.uploadId));
    const [ra, rb] = await Promise.all([merge(a.body.data.uploadId, 'fin-both.bin', 'key-both'), merge(b.body.data.uploadId, 'fin-both.bin', 'key-both')]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(rb.body.data.id).toBe(ra.body.data.id);
    expect(await namesAtRoot('fin-both')).toEqual(['fin-both.bin']);
  });

  it('a second upload repeated with the key of its item answers the file it created, without a challenge', async () => {
    const content = randomContent(CHUNK + 9);
    const open = await exist(content, 'fin-src.bin', 'key-src');
    await sendAll(content, open.body.data);
    const created = await merge(open.body.data.uploadId, 'fin-src.bin', 'key-src');
    const { fingerprint } = describeFile(content, CHUNK);
    const claim = { fingerprint, size: content.length, name: 'fin-src.bin', parentId: null, category: 1, clientKey: 'key-src' };
    const res = await admin.post<{ data: SecondUploadResponse }>(API.secondUpload, claim);
    expect(res.body.data).toEqual({ status: 'created', file: expect.objectContaining({ id: created.body.data.id }) });
  });

  it('keys are per user and forgotten with expired uploads; without a key nothing changes', async () => {
    const content = randomContent(100);
    const open = await exist(content, 'fin-old.bin', 'key-old');
    await sendAll(content, open.body.data);
    await merge(open.body.data.uploadId, 'fin-old.bin', 'key-old');
    await withDb(server, (db) => db.prepare('update finished_uploads set finished_at = finished_at - 120000 where client_key = ?').run('key-old'));
    await server.app.sweeper.sweepOnce();
    const after = await exist(content, 'fin-old.bin', 'key-old');
    expect(after.body.data.finished).toBeUndefined();
    // A fresh session for the same name: its merge meets the earlier file as a clash, as before.
    await sendAll(content, after.body.data);
    const clash = await merge(after.body.data.uploadId, 'fin-old.bin', 'key-old');
    expect(clash.body.errorCode).toBe(ERRORS.NAME_CONFLICT.code);
  });
});
