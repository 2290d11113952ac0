import 'fake-indexeddb/auto';
import { createHash, randomBytes } from 'node:crypto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../../common/api/errors';
import { API, downloadUrl } from '../../../common/api/paths';
import type { FetchFn } from '../../../workers/engine/api-client';
import { openTransferDb, TRANSFER_DB_VERSION } from '../../../workers/queue/db';
import { getUpload } from '../../../workers/queue/repository';
import { FakeUploadServer } from './fake-upload-server';
import { hangUntilAborted } from './engine-test-kit';
import { setupEngine, target, testFile, tick, waitForItem } from './engine-test-kit';


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
    await db.uploads.update(id!, { file: null });
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
    expect(await db.downloadPieces.count()).toBe(0);
    db.close();
  });
});

describe('downloads', () => {
  const PIECE = 16 * 1024;

  async function downloadInterrupted(server: FakeUploadServer, fileId: string) {
    let answered = 0;
    const fetch: FetchFn = (input, init) =>
      input.startsWith(downloadUrl(fileId)) && ++answered > 3 ? hangUntilAborted(init.signal!) : server.fetch(input, init);
    const first = setupEngine(server, { fetch, downloadPieceSize: PIECE });
    const size = server.downloads.get(fileId)!.bytes.length;
    const id = await first.engine.enqueueDownload({ fileId, name: 'report.pdf', size });
    await waitForItem(first.engine, id, (i) => i.bytesDone === 3 * PIECE && i.state === 'uploading');
    expect(await first.engine.getDownloadedFile(id)).toBeNull(); // not finished
    await first.dispose(); // the page goes away mid-download
    const requestsBefore = server.requests.length;
    const second = setupEngine(server, { downloadPieceSize: PIECE }, first.dbName);
    return { id, second, requestsBefore };
  }

  it('fetches in Range pieces and resumes after a reload from the last stored byte (If-Range with the ETag)', async () => {
    const server = new FakeUploadServer();
    const bytes = new Uint8Array(randomBytes(5 * PIECE + 100));
    server.downloads.set('file-9', { bytes, etag: '"v1"' });
    const { id, second, requestsBefore } = await downloadInterrupted(server, 'file-9');
    const done = await waitForItem(second.engine, id, (i) => i.state === 'done');
    expect(done).toMatchObject({ direction: 'download', bytesDone: bytes.length, size: bytes.length });
    const resumed = server.requests.slice(requestsBefore).filter((r) => r.path === downloadUrl('file-9'));
    expect(resumed[0]!.headers.range).toBe(`bytes=${3 * PIECE}-${4 * PIECE - 1}`);
    expect(resumed[0]!.headers['if-range']).toBe('"v1"');
    expect(resumed).toHaveLength(3);
    const file = await second.engine.getDownloadedFile(id);
    expect(file!.name).toBe('report.pdf');
    expect(Buffer.from(await file!.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  it('a file changed meanwhile (another ETag) restarts from byte 0 instead of mixing old and new bytes', async () => {
    const server = new FakeUploadServer();
    server.downloads.set('file-7', { bytes: new Uint8Array(randomBytes(5 * PIECE)), etag: '"v1"' });
    const { id, second } = await downloadInterrupted(server, 'file-7');
    // Same size: only the validator can tell the stored prefix is stale.
    const changed = new Uint8Array(randomBytes(5 * PIECE));
    server.downloads.set('file-7', { bytes: changed, etag: '"v2"' });
    const requestsBefore = server.requests.length;
    const done = await waitForItem(second.engine, id, (i) => i.state === 'done');
    expect(done.size).toBe(changed.length);
    const resumed = server.requests.slice(requestsBefore).filter((r) => r.path === downloadUrl('file-7'));
    expect(resumed[0]!.headers['if-range']).toBe('"v1"');
    const file = await second.engine.getDownloadedFile(id);
    expect(Buffer.from(await file!.arrayBuffer()).equals(Buffer.from(changed))).toBe(true);
  });

  it('pause, resume and cancel work on downloads; cancel forgets the stored pieces', async () => {
    const server = new FakeUploadServer();
    server.downloads.set('file-5', { bytes: new Uint8Array(randomBytes(8 * PIECE)), etag: '"v1"' });
    let gate: Promise<void> = new Promise(() => undefined);
    const fetch: FetchFn = async (input, init) => {
      if (input.includes('file-5') && (init.headers as Record<string, string>).Range !== `bytes=0-${PIECE - 1}`) {
        await Promise.race([gate, hangUntilAborted(init.signal!)]);
      }
      return server.fetch(input, init);
    };
    const { engine, db } = setupEngine(server, { fetch, downloadPieceSize: PIECE });
    const id = await engine.enqueueDownload({ fileId: 'file-5', name: 'x.bin', size: 8 * PIECE });
    await waitForItem(engine, id, (i) => i.bytesDone === PIECE);
    await engine.pause(id);
    expect((await engine.getSnapshot()).items[0]!.state).toBe('paused');
    gate = Promise.resolve();
    await engine.resume(id);
    await waitForItem(engine, id, (i) => i.state === 'done');
    expect(await db.downloadPieces.where('itemId').equals(id).count()).toBe(8);
    await engine.clearFinished();
    expect(await db.downloadPieces.count()).toBe(0);
    await tick();
  });

  it('a download of a missing file fails with the server message (no retry on 404)', async () => {
    const server = new FakeUploadServer();
    const { engine } = setupEngine(server);
    const id = await engine.enqueueDownload({ fileId: 'nope', name: 'x.bin', size: 10 });
    const failed = await waitForItem(engine, id, (i) => i.state === 'failed');
    expect(failed.lastError).toBe('文件不存在或已被删除');
  });
});

describe('resume inside a chunk (partialChunks)', () => {
  const CHUNK = 262_144;
  const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

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
