import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { API } from '../../../common/api/paths';
import { MIN_CHUNK_SIZE } from '../../../common/transfer/chunk-policy';
import { RETRY_MAX_ATTEMPTS } from '../../../common/transfer/constants';
import type { TransferSnapshot } from '../../../common/transfer/engine-api';
import { createInThreadHashChunk, createSha256Hex } from '../../../workers/hash/sha256';
import { openTransferDb } from '../../../workers/queue/db';
import { addUploads, getUpload, updateUpload } from '../../../workers/queue/repository';
import { newUploadRecord } from '../../../workers/queue/records';
import { setupEngine, target, testFile, waitForItem } from './engine-test-kit';
import { FakeUploadServer } from './fake-upload-server';

describe('transfer engine with an injected fetch', () => {
  it('sends only the chunks the server lacks (server holds {0,2} → sends 1 and 3), then merges', async () => {
    const server = new FakeUploadServer();
    const { file, fingerprint } = testFile();
    server.preStored.set(fingerprint, new Set([0, 2]));
    const { engine, db } = setupEngine(server);

    const [id] = await engine.enqueueUploads([file], target);
    const done = await waitForItem(engine, id!, (i) => i.state === 'done');

    expect(server.uploadedChunks.sort()).toEqual([1, 3]);
    expect(done).toMatchObject({ bytesDone: file.size, fileId: `file-up-${fingerprint.slice(0, 8)}`, lastError: null, name: 'report.bin' });
    expect(server.requests.map((r) => r.path).filter((p, i, a) => a.indexOf(p) === i)).toEqual([API.canBeUploadType, API.multipleFileCheck, API.uploadConfig, API.secondUpload, API.chunkExist, API.chunkUpload, API.chunkMerge]);
    for (const r of server.requests) {
      expect(r.credentials).toBe('include');
      expect(r.headers['x-network-env']).toBe('internal');
    }
    expect(server.requestsTo(API.chunkExist)[0]!.headers['content-type']).toBe('application/json');
    const stored = await getUpload(db, id!);
    expect(stored).toMatchObject({ state: 'done', fingerprint, chunksDone: [0, 1, 2, 3], attempts: 0 });
  });

  it('resumes after a reload: an item left "uploading" goes back to waiting and re-sends only missing chunks', async () => {
    const server = new FakeUploadServer();
    const { file, fingerprint } = testFile();
    const first = setupEngine(server, {}, `engine-reload-${Date.now()}`);

    // First page: stop the network after two chunk uploads, then "close the tab".
    let chunkCalls = 0;
    server.interceptor = (req) => (req.path === API.chunkUpload && ++chunkCalls > 2 ? new Promise<Response>(() => undefined) : undefined);
    const [id] = await first.engine.enqueueUploads([file], target);
    await waitForItem(first.engine, id!, (i) => i.bytesDone > 0 && i.state === 'uploading');
    await new Promise((r) => setTimeout(r, 20));
    const sentBefore = [...server.uploadedChunks];
    expect(sentBefore.length).toBe(2);
    await first.engine.dispose();
    first.db.close();
    expect((await (async () => {
      const db = openTransferDb(first.dbName);
      try { return await getUpload(db, id!); } finally { db.close(); }
    })())?.state).toBe('uploading');

    // Second page: same database, server still holds what it got.
    server.interceptor = undefined;
    const hashed: number[] = [];
    const inThread = createInThreadHashChunk(createSha256Hex());
    const second = setupEngine(server, { hashChunk: (blob, start, end, signal) => (hashed.push(start), inThread(blob, start, end, signal)) }, first.dbName);
    await second.engine.start();
    const done = await waitForItem(second.engine, id!, (i) => i.state === 'done');
    expect(done.fileId).toBe(`file-up-${fingerprint.slice(0, 8)}`);
    const resent = server.uploadedChunks.slice(sentBefore.length);
    expect([...sentBefore, ...resent].sort()).toEqual([0, 1, 2, 3]);
    expect(resent.some((i) => sentBefore.includes(i))).toBe(false);
    // Hashing was not redone: the second page only asked the config, to see that the digests'
    // chunk size is still the server's (chunk-policy.ts).
    expect(hashed).toEqual([]);
    expect(server.requestsTo(API.uploadConfig)).toHaveLength(2);
  });

  /** Records every queue write that grew an item's chunk map (the chunk map it wrote). */
  function recordProgressWrites(db: ReturnType<typeof setupEngine>['db']): number[][] {
    const writes: number[][] = [];
    const put = db.uploads.put.bind(db.uploads);
    db.uploads.put = ((record: Parameters<typeof put>[0], key?: Parameters<typeof put>[1]) => {
      if (record.chunksDone.length > (writes.at(-1)?.length ?? 0)) writes.push([...record.chunksDone]);
      return put(record, key);
    }) as typeof db.uploads.put;
    return writes;
  }

  it('confirmed chunks are saved in batches behind the lanes, and every one arrives', async () => {
    const server = new FakeUploadServer();
    const { file } = testFile('batch.bin', 8);
    // Every chunk request waits until all eight have arrived: their answers then come back together.
    let arrived = 0;
    let releaseAll!: () => void;
    const gate = new Promise<void>((resolve) => (releaseAll = resolve));
    server.interceptor = async (req) => {
      if (req.path !== API.chunkUpload) return undefined;
      if (++arrived === 8) releaseAll();
      await gate;
      return undefined;
    };
    const { engine, db } = setupEngine(server, { chunkConcurrency: 8 });
    const progressWrites = recordProgressWrites(db);

    const [id] = await engine.enqueueUploads([file], target);
    const done = await waitForItem(engine, id!, (i) => i.state === 'done');

    expect(done.bytesDone).toBe(file.size);
    expect(progressWrites).toEqual([[0, 1, 2, 3, 4, 5, 6, 7]]);
    expect(await getUpload(db, id!)).toMatchObject({ state: 'done', chunksDone: [0, 1, 2, 3, 4, 5, 6, 7], bytesDone: file.size });
  });

  it('confirmations one after another are saved at most every CHUNK_PROGRESS_SAVE_MS, and before a pause', async () => {
    const server = new FakeUploadServer();
    const { file } = testFile('spaced.bin', 8);
    // Chunk 5 never answers: the item waits there until it is paused.
    server.interceptor = (req) => (req.path === API.chunkUpload && req.query.get('index') === '5' ? new Promise<Response>(() => undefined) : undefined);
    const { engine, db } = setupEngine(server, { chunkConcurrency: 1 });
    const progressWrites = recordProgressWrites(db);

    const [id] = await engine.enqueueUploads([file], target);
    const waiting = await waitForItem(engine, id!, (i) => i.state === 'uploading' && i.bytesDone === 5 * MIN_CHUNK_SIZE);
    // Five confirmations within a few milliseconds: counted in the view, not one write each.
    expect(waiting.bytesDone).toBe(5 * MIN_CHUNK_SIZE);
    expect(progressWrites.length).toBeLessThanOrEqual(1);
    await engine.pause(id!);

    expect(progressWrites.at(-1)).toEqual([0, 1, 2, 3, 4]);
    expect(await getUpload(db, id!)).toMatchObject({ state: 'paused', chunksDone: [0, 1, 2, 3, 4], bytesDone: 5 * MIN_CHUNK_SIZE });
  });

  it('retries network errors and 5xx (state retrying), then succeeds', async () => {
    const server = new FakeUploadServer();
    const { file } = testFile();
    let failures = 0;
    server.interceptor = (req) => {
      if (req.path !== API.chunkUpload || failures >= 2) return undefined;
      failures++;
      return failures === 1 ? 'network-error' : new Response(JSON.stringify({ errorCode: 'SYS-5000', message: 'boom' }), { status: 503 });
    };
    // The backoff waits happen in state 'retrying'; record them instead of sleeping.
    const waits: Array<{ ms: number; state: string | undefined }> = [];
    const { engine, db } = setupEngine(server, {
      chunkConcurrency: 1, // one failure per attempt, so the attempt count is predictable
      random: () => 0.5,
      sleep: async (ms) => {
        waits.push({ ms, state: (await getUpload(db, id!))?.state });
      },
    });
    const [id] = await engine.enqueueUploads([file], target);
    await waitForItem(engine, id!, (i) => i.state === 'done');
    expect(waits).toEqual([
      { ms: 250, state: 'retrying' }, // 0.5 × 500 ms
      { ms: 500, state: 'retrying' }, // 0.5 × 1000 ms
    ]);
    // Chunks in flight when an attempt failed may be sent twice, never lost.
    expect(new Set(server.uploadedChunks)).toEqual(new Set([0, 1, 2, 3]));
  });

  it('an upload that keeps making progress never runs out of attempts (every other chunk request fails)', async () => {
    const server = new FakeUploadServer();
    // Far more chunks than attempts: counting every failure would give up half-way.
    const { file } = testFile('flaky.bin', RETRY_MAX_ATTEMPTS * 3);
    let chunkRequests = 0;
    server.interceptor = (req) => (req.path === API.chunkUpload && ++chunkRequests % 2 === 0 ? 'network-error' : undefined);
    const { engine } = setupEngine(server, { chunkConcurrency: 3, random: () => 0.5 });
    const [id] = await engine.enqueueUploads([file], target);
    const done = await waitForItem(engine, id!, (i) => i.state === 'done' || i.state === 'failed', 20_000);
    expect(done.state, done.lastError ?? '').toBe('done');
    expect(chunkRequests).toBeGreaterThan(RETRY_MAX_ATTEMPTS * 2);
  });

  it('chunks the server stored but whose answers were lost count as progress too (found by chunk/exist on the next attempt)', async () => {
    const server = new FakeUploadServer();
    const { file } = testFile('lost-answers.bin', RETRY_MAX_ATTEMPTS * 3);
    // Every chunk reaches the server and is stored; every answer is lost on the way back.
    const fetch: typeof server.fetch = async (input, init) => {
      const res = await server.fetch(input, init);
      if (input.includes(API.chunkUpload)) throw new TypeError('Failed to fetch');
      return res;
    };
    const { engine } = setupEngine(server, { fetch, chunkConcurrency: 1, random: () => 0.5 });
    const [id] = await engine.enqueueUploads([file], target);
    const done = await waitForItem(engine, id!, (i) => i.state === 'done' || i.state === 'failed', 20_000);
    expect(done.state, done.lastError ?? '').toBe('done');
  });

  it('waits for a server that cannot be reached longer than RETRY_MAX_ATTEMPTS backoffs (a restart), by time, then carries on', async () => {
    const server = new FakeUploadServer();
    let refused = 0;
    server.interceptor = (req) => (req.path === API.chunkExist && refused++ < RETRY_MAX_ATTEMPTS * 3 ? 'network-error' : undefined);
    const { engine } = setupEngine(server);
    const [id] = await engine.enqueueUploads([testFile().file], target);
    const done = await waitForItem(engine, id!, (i) => i.state === 'done' || i.state === 'failed');
    expect(done.state, done.lastError ?? '').toBe('done');
    expect(refused).toBeGreaterThan(RETRY_MAX_ATTEMPTS * 3);
  });

  it('a 5xx answer still counts attempts (the server is there and failing)', async () => {
    const server = new FakeUploadServer();
    let answered = 0;
    server.interceptor = (req) => (req.path === API.chunkExist ? (answered++, new Response('{}', { status: 500 })) : undefined);
    const { engine } = setupEngine(server);
    const [id] = await engine.enqueueUploads([testFile().file], target);
    expect((await waitForItem(engine, id!, (i) => i.state === 'failed')).state).toBe('failed');
    expect(answered).toBe(RETRY_MAX_ATTEMPTS);
  });

  it('gives up on an unreachable server after UNREACHABLE_PATIENCE_MS and marks the item failed with a Chinese message', async () => {
    const server = new FakeUploadServer();
    server.interceptor = (req) => (req.path === API.chunkExist ? 'network-error' : undefined);
    const { engine } = setupEngine(server);
    const [id] = await engine.enqueueUploads([testFile().file], target);
    const failed = await waitForItem(engine, id!, (i) => i.state === 'failed');
    expect(failed.lastError).toBe('网络连接失败，请检查网络后重试');
    // A manual retry starts over with a fresh attempt count.
    server.interceptor = undefined;
    await engine.retry(id!);
    await waitForItem(engine, id!, (i) => i.state === 'done');
  });

  it('401 holds the item with the re-login message; other 4xx fail with the server message', async () => {
    const server = new FakeUploadServer();
    server.interceptor = (req) => (req.path === API.chunkExist ? new Response('{}', { status: 401 }) : undefined);
    const { engine } = setupEngine(server);
    const [a] = await engine.enqueueUploads([testFile('a.bin').file], target);
    expect((await waitForItem(engine, a!, (i) => i.state === 'held')).lastError).toBe('登录已过期，请重新登录后继续');

    server.interceptor = (req) =>
      req.path === API.chunkExist ? new Response(JSON.stringify({ errorCode: 'UPL-4007', errorMessage: '空间不足，无法上传' }), { status: 400 }) : undefined;
    const [b] = await engine.enqueueUploads([testFile('b.bin').file], target);
    expect((await waitForItem(engine, b!, (i) => i.state === 'failed')).lastError).toBe('空间不足，无法上传');
  });

  it('a digest-mismatch answer retries that chunk once', async () => {
    const server = new FakeUploadServer();
    let mismatches = 0;
    server.interceptor = (req) =>
      req.path === API.chunkUpload && req.query.get('index') === '2' && mismatches++ === 0
        ? new Response(JSON.stringify({ errorCode: 'UPL-4002', errorMessage: '分片校验失败，请重试' }), { status: 400 })
        : undefined;
    const { engine } = setupEngine(server);
    const [id] = await engine.enqueueUploads([testFile().file], target);
    await waitForItem(engine, id!, (i) => i.state === 'done');
    expect(server.requestsTo(API.chunkUpload).filter((r) => r.query.get('index') === '2')).toHaveLength(2);
  });

  it('pause aborts in-flight requests and keeps chunksDone; resume finishes without re-sending them', async () => {
    const server = new FakeUploadServer();
    let release: (() => void) | undefined;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    server.interceptor = async (req) => {
      if (req.path === API.chunkUpload && ++calls > 1) await gate;
      return undefined;
    };
    const { engine, db } = setupEngine(server, { chunkConcurrency: 1 });
    const [id] = await engine.enqueueUploads([testFile().file], target);
    await waitForItem(engine, id!, (i) => i.bytesDone > 0);
    await engine.pause(id!);
    expect((await engine.getSnapshot()).items[0]).toMatchObject({ state: 'paused', speed: 0 });
    release!();
    await new Promise((r) => setTimeout(r, 20));
    expect((await getUpload(db, id!))?.chunksDone).toEqual([0]);
    expect((await getUpload(db, id!))?.state).toBe('paused');

    server.interceptor = undefined;
    await engine.resume(id!);
    await waitForItem(engine, id!, (i) => i.state === 'done');
    expect(server.uploadedChunks.filter((i) => i === 0)).toHaveLength(1);
  });

  it('cancel stops the item for good; clearFinished removes done and cancelled items', async () => {
    const server = new FakeUploadServer();
    server.interceptor = (req) => (req.path === API.chunkUpload ? new Promise<Response>(() => undefined) : undefined);
    const { engine } = setupEngine(server);
    const [id] = await engine.enqueueUploads([testFile().file], target);
    await waitForItem(engine, id!, (i) => i.state === 'uploading');
    await engine.cancel(id!);
    await engine.resume(id!); // no effect on a cancelled item
    expect((await engine.getSnapshot()).items[0]!.state).toBe('cancelled');
    await engine.clearFinished();
    expect((await engine.getSnapshot()).items).toEqual([]);
  });

  it('clearFinished keeps a failed item; clearFailed removes it (issue 44)', async () => {
    const server = new FakeUploadServer();
    server.interceptor = (req) => (req.path === API.chunkUpload ? Promise.resolve(new Response(JSON.stringify({ errorCode: 'AUTH-1005', errorMessage: '没有权限' }), { status: 403, headers: { 'content-type': 'application/json' } })) : undefined);
    const { engine } = setupEngine(server);
    const [id] = await engine.enqueueUploads([testFile().file], target);
    await waitForItem(engine, id!, (i) => i.state === 'failed');
    await engine.clearFinished();
    expect((await engine.getSnapshot()).items.map((i) => i.state)).toEqual(['failed']);
    await engine.clearFailed();
    expect((await engine.getSnapshot()).items).toEqual([]);
  });

  it('runs at most fileConcurrency files at once and keeps queue order', async () => {
    const server = new FakeUploadServer();
    const { engine } = setupEngine(server, { fileConcurrency: 2 });
    let maxActive = 0;
    await engine.subscribe((s: TransferSnapshot) => {
      maxActive = Math.max(maxActive, s.items.filter((i) => ['hashing', 'checking', 'uploading'].includes(i.state)).length);
    });
    const ids = await engine.enqueueUploads([1, 2, 3, 4, 5].map((n) => testFile(`f${n}.bin`).file), target);
    for (const id of ids) await waitForItem(engine, id, (i) => i.state === 'done');
    expect(maxActive).toBeLessThanOrEqual(2);
    expect((await engine.getSnapshot()).items.map((i) => i.name)).toEqual(['f1.bin', 'f2.bin', 'f3.bin', 'f4.bin', 'f5.bin']);
  });

  it('an item whose file was not kept across a reload is held', async () => {
    const server = new FakeUploadServer();
    const name = `engine-nofile-${Date.now()}`;
    const db = openTransferDb(name);
    const now = Date.now();
    await addUploads(db, [
      // As a reload leaves it when the store could not keep the File: a 5-byte item without its bytes.
      { ...newUploadRecord({ id: 'x', file: new Blob(['12345']), target, createdAt: now, relativePath: null, chunkConcurrency: 3 }), name: 'x.bin', file: null },
    ]);
    await updateUpload(db, 'x', { state: 'hashing' }, now);
    db.close();
    const { engine } = setupEngine(server, {}, name);
    const item = await waitForItem(engine, 'x', (i) => i.state === 'held');
    expect(item.lastError).toBe('无法读取文件，请重新选择该文件后继续');
    expect(server.requests).toHaveLength(0);
  });
});

describe('a queue store that will not keep the file', () => {
  it('a file too large for the browser quota still uploads; the queue keeps the item without its bytes', async () => {
    const server = new FakeUploadServer();
    const { file } = testFile();
    const { engine, db } = setupEngine(server);
    // What Chromium does when a stored File would exceed the origin's quota.
    db.sources.bulkAdd = (async () => {
      throw new DOMException('the quota has been exceeded', 'QuotaExceededError');
    }) as unknown as typeof db.sources.bulkAdd;

    const [id] = await engine.enqueueUploads([file], target);
    await waitForItem(engine, id!, (i) => i.state === 'done');
    expect(server.uploadedChunks.length).toBeGreaterThan(0);
    expect(await getUpload(db, id!)).toMatchObject({ state: 'done', file: null });
  });

  it('any other storage failure is not mistaken for it: the enqueue fails and says so', async () => {
    const { engine, db } = setupEngine(new FakeUploadServer());
    db.uploads.bulkAdd = (async () => {
      throw new DOMException('disk gone', 'UnknownError');
    }) as unknown as typeof db.uploads.bulkAdd;
    await expect(engine.enqueueUploads([testFile().file], target)).rejects.toThrow('disk gone');
  });
});
