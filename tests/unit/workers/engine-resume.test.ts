import 'fake-indexeddb/auto';
import { randomBytes } from 'node:crypto';
import { chunkDigestHex } from '../../support/chunk-digest';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../../common/api/errors';
import { API } from '../../../common/api/paths';
import type { FetchFn } from '../../../workers/engine/api-client';
import { openTransferDb, TRANSFER_DB_VERSION } from '../../../workers/queue/db';
import { getUpload, listUploads } from '../../../workers/queue/repository';
import { FakeUploadServer } from './fake-upload-server';
import { hangUntilAborted } from './engine-test-kit';
import { setupEngine, target, testFile, waitForItem } from './engine-test-kit';


describe('reattach a file the browser did not keep', () => {
  async function heldAfterReload() {
    const server = new FakeUploadServer();
    const original = testFile('keep.bin');
    // First page: chunks 0 and 1 reach the server, chunk 2 hangs; then the page goes away.
    const fetch: FetchFn = (input, init) =>
      input.startsWith(API.chunkUpload) && server.uploadedChunks.length >= 2 ? hangUntilAborted(init.signal!) : server.fetch(input, init);
    const first = setupEngine(server, { fetch, chunkConcurrency: 1 });
    const [id] = await first.engine.enqueueUploads([original.file], target);
    await waitForItem(first.engine, id!, (i) => i.bytesDone === 2 * 262_144);
    await first.dispose();
    // The browser could not keep the File across the reload.
    const db = openTransferDb(first.dbName);
    await db.sources.delete(id!);
    db.close();
    const second = setupEngine(server, {}, first.dbName);
    const held = await waitForItem(second.engine, id!, (i) => i.state === 'held');
    expect(held.holdReason).toBe('fileMissing');
    return { server, id: id!, original, ...second };
  }

  it('a file with another fingerprint (same size) is refused and the item stays held', async () => {
    const { engine, id, original, db } = await heldAfterReload();
    const other = new File([randomBytes(original.file.size)], 'keep.bin');
    expect(await engine.reattach(id, other)).toBe(false);
    expect(await engine.reattach(id, new File([original.bytes.subarray(1)], 'keep.bin'))).toBe(false);
    expect((await getUpload(db, id))).toMatchObject({ state: 'held', holdReason: 'fileMissing', file: null });
  });

  it('the same content is stored again and the upload resumes from the server chunk list', async () => {
    const { engine, id, original, server } = await heldAfterReload();
    const sentBefore = server.uploadedChunks.length;
    expect(await engine.reattach(id, new File([original.bytes], 'renamed-on-disk.bin'))).toBe(true);
    const done = await waitForItem(engine, id, (i) => i.state === 'done');
    expect(done.holdReason).toBeNull();
    expect(server.uploadedChunks.slice(sentBefore).sort()).toEqual([2, 3]);
  });
});

describe('queue schema v1 → v2', () => {
  it('migrates a v1 record with defaults for the new fields', async () => {
    const name = `migration-${Date.now()}`;
    const v1 = new Dexie(name);
    v1.version(1).stores({ uploads: 'id, state, createdAt' });
    const base = {
      direction: 'upload', name: 'old.bin', size: 5, lastModified: 1, type: '', target: { parentId: null, category: 1 },
      bytesDone: 0, chunkSize: 262_144, chunkDigests: null, fingerprint: null, uploadId: null, chunksDone: [], attempts: 2,
      lastError: '无法读取文件，请重新选择该文件后继续', fileId: null, createdAt: 1, updatedAt: 1,
    };
    await v1.table('uploads').bulkAdd([
      { ...base, id: 'held-v1', state: 'held', file: null },
      { ...base, id: 'done-v1', state: 'done', file: new Blob(['12345']), fileId: 'f-1', lastError: null },
    ]);
    v1.close();

    const db = openTransferDb(name);
    await db.open();
    expect(db.verno).toBe(TRANSFER_DB_VERSION);
    const held = await getUpload(db, 'held-v1');
    expect(held).toMatchObject({
      ...base, state: 'held', relativePath: null, holdReason: 'fileMissing', via: null, chunkConcurrency: 3, onConflict: 'fail', etag: null,
    });
    expect(await getUpload(db, 'done-v1')).toMatchObject({ via: 'chunks', holdReason: null, fileId: 'f-1' });
    db.close();
  });
});

describe('queue schema v2 → v3', () => {
  it('drops the download items and the piece table of the former engine downloads, keeping uploads', async () => {
    const name = `migration-v3-${Date.now()}`;
    const v2 = new Dexie(name);
    v2.version(2).stores({ uploads: 'id, state, createdAt, direction', downloadPieces: '[itemId+offset], itemId' });
    const base = {
      name: 'x.bin', size: 5, lastModified: 1, type: '', file: null, target: { parentId: null, category: 1 }, state: 'paused',
      bytesDone: 0, chunkSize: 0, chunkDigests: null, fingerprint: null, uploadId: null, chunksDone: [], attempts: 0,
      lastError: null, fileId: null, createdAt: 1, updatedAt: 1, relativePath: null, holdReason: null, via: null,
      chunkConcurrency: 3, onConflict: 'fail', etag: null,
    };
    await v2.table('uploads').bulkAdd([
      { ...base, id: 'up', direction: 'upload' },
      { ...base, id: 'down', direction: 'download', fileId: 'f-1', etag: '"v1"' },
    ]);
    await v2.table('downloadPieces').add({ itemId: 'down', offset: 0, data: new Blob(['12345']) });
    v2.close();

    const db = openTransferDb(name);
    await db.open();
    expect(db.verno).toBe(TRANSFER_DB_VERSION);
    expect((await db.uploads.toArray()).map((r) => r.id)).toEqual(['up']);
    expect(db.tables.map((t) => t.name).sort()).toEqual(['meta', 'sources', 'uploads']);
    db.close();
  });
});

describe('queue schema v3 → v4', () => {
  it("moves each item's File out of its record into sources, and the queue still reads it with its file", async () => {
    const name = `migration-v4-${Date.now()}`;
    const v3 = new Dexie(name);
    v3.version(3).stores({ uploads: 'id, state, createdAt, direction' });
    const base = {
      name: 'x.bin', size: 5, lastModified: 1, type: '', target: { parentId: null, category: 1 }, state: 'paused', direction: 'upload',
      bytesDone: 0, chunkSize: 0, chunkDigests: null, fingerprint: null, uploadId: null, chunksDone: [], attempts: 0,
      lastError: null, fileId: null, createdAt: 1, updatedAt: 1, relativePath: null, holdReason: null, via: null,
      chunkConcurrency: 3, onConflict: 'fail', etag: null,
    };
    await v3.table('uploads').bulkAdd([
      { ...base, id: 'with', file: new Blob(['12345']) },
      { ...base, id: 'without', file: null, createdAt: 2 },
    ]);
    v3.close();

    const db = openTransferDb(name);
    await db.open();
    expect(db.verno).toBe(TRANSFER_DB_VERSION);
    expect((await db.uploads.toArray()).map((r) => [r.id, r.file])).toEqual([['with', null], ['without', null]]);
    expect((await db.sources.toArray()).map((s) => s.id)).toEqual(['with']);
    const listed = await listUploads(db);
    expect(await listed[0]!.file?.text()).toBe('12345');
    expect(listed[1]!.file).toBeNull();
    expect(await (await getUpload(db, 'with'))!.file?.text()).toBe('12345');
    db.close();
  });
});

describe('resume inside a chunk (partialChunks)', () => {
  const CHUNK = 262_144;
  const sha = chunkDigestHex;

  it('sends only the rest of a partial chunk, with offset and the whole-chunk digest', async () => {
    const server = new FakeUploadServer();
    const { file, bytes, fingerprint } = testFile('partial.bin', 4);
    const chunk = (i: number) => bytes.subarray(i * CHUNK, Math.min(bytes.length, (i + 1) * CHUNK));
    server.preStored.set(fingerprint, new Set([0]));
    server.prePartial.set(fingerprint, new Map([[1, chunk(1).slice(0, 100_000)], [3, chunk(3).slice(0, 7)]]));
    const { engine, db } = setupEngine(server);
    const [id] = await engine.enqueueUploads([file], target);
    const done = await waitForItem(engine, id!, (i) => i.state === 'done');
    expect(done.bytesDone).toBe(file.size);
    expect((await getUpload(db, id!))!.bytesDone).toBe(file.size);

    const bodies = [...server.chunkBodies].sort((a, b) => a.index - b.index);
    expect(bodies.map(({ index, offset, bytes: n }) => ({ index, offset, bytes: n }))).toEqual([
      { index: 1, offset: 100_000, bytes: CHUNK - 100_000 },
      { index: 2, offset: 0, bytes: CHUNK },
      { index: 3, offset: 7, bytes: chunk(3).length - 7 },
    ]);
    for (const b of bodies) expect(b.digestHeader).toBe(sha(chunk(b.index)));
    const urls = server.requestsTo(API.chunkUpload).map((r) => r.query.get('offset'));
    expect(urls.sort()).toEqual(['100000', '7', null].sort());
    expect(server.uploadedChunks.sort()).toEqual([1, 2, 3]);
  });

  it('CHUNK_OFFSET_MISMATCH: the chunk goes again from offset 0, once', async () => {
    const server = new FakeUploadServer();
    const { file, bytes, fingerprint } = testFile('lost-partial.bin', 2);
    server.prePartial.set(fingerprint, new Map([[0, bytes.slice(0, 5000)]]));
    // The server lost the partial between chunk/exist and the upload.
    server.interceptor = (req) =>
      req.path === API.chunkUpload && req.query.get('offset')
        ? new Response(JSON.stringify({ errorCode: ERRORS.CHUNK_OFFSET_MISMATCH.code, errorMessage: ERRORS.CHUNK_OFFSET_MISMATCH.message }), {
            status: 400,
            headers: { 'Content-Type': 'application/json' },
          })
        : undefined;
    const { engine } = setupEngine(server);
    const [id] = await engine.enqueueUploads([file], target);
    const done = await waitForItem(engine, id!, (i) => i.state === 'done');
    expect(done.bytesDone).toBe(file.size);
    const chunk0 = server.requestsTo(API.chunkUpload).filter((r) => r.query.get('index') === '0');
    expect(chunk0.map((r) => r.query.get('offset'))).toEqual(['5000', null]);
    expect(server.chunkBodies.filter((b) => b.index === 0).map((b) => b.bytes)).toEqual([262_144]);
  });
});

describe('an answer lost is not an upload lost (protocol.ts, "Finished uploads")', () => {
  it('a merge whose answer never arrived ends done with that file, not held as a clash with its own copy', async () => {
    const server = new FakeUploadServer();
    server.loseNextAnswer.add(API.chunkMerge);
    const { engine } = setupEngine(server);
    const [id] = await engine.enqueueUploads([testFile('lost.bin').file], target);
    const done = await waitForItem(engine, id!, (i) => i.state === 'done' || i.state === 'held' || i.state === 'failed', 10_000);
    expect(done).toMatchObject({ state: 'done', holdReason: null });
    // One file was created; the retry learnt of it from chunk/exist and sent no chunk again.
    expect([...server.finished.values()]).toEqual([done.fileId]);
    expect(server.uploadedChunks).toEqual([0, 1, 2, 3]);
    expect(server.requestsTo(API.chunkExist).at(-1)?.body).toMatchObject({ clientKey: id });
  });

  it('after a reload during the merge, the next page finds the file instead of uploading it again', async () => {
    const server = new FakeUploadServer();
    const source = testFile('reloaded.bin');
    // The merge runs on the server, but the page is gone before its answer arrives.
    const fetch: FetchFn = async (input, init) => {
      if (!input.startsWith(API.chunkMerge)) return server.fetch(input, init);
      await server.fetch(input, init);
      return hangUntilAborted(init.signal!);
    };
    const first = setupEngine(server, { fetch });
    const [id] = await first.engine.enqueueUploads([source.file], target);
    await waitForItem(first.engine, id!, () => server.finished.size === 1);
    await first.dispose();
    const sentBefore = server.uploadedChunks.length;
    const second = setupEngine(server, {}, first.dbName);
    const done = await waitForItem(second.engine, id!, (i) => i.state === 'done' || i.state === 'held', 10_000);
    expect(done).toMatchObject({ state: 'done', fileId: server.finished.get(id!) });
    expect(server.uploadedChunks.length).toBe(sentBefore);
  });
});
