import { describe, expect, it } from 'vitest';
import { API } from '../../../common/api/paths';
import { ERRORS } from '../../../common/api/errors';
import { MIN_CHUNK_SIZE } from '../../../common/transfer/chunk-policy';
import type { TransferSnapshot } from '../../../common/transfer/engine-api';
import { ConcurrencyLimit, CONCURRENCY_RAISE_INTERVAL_MS } from '../../../workers/engine/adaptive-pool';
import type { FetchFn } from '../../../workers/engine/api-client';
import { createFetchTransport, type ChunkTransport } from '../../../workers/engine/transport';
import { getUpload } from '../../../workers/queue/repository';
import { FakeUploadServer } from './fake-upload-server';
import { hangUntilAborted } from './engine-test-kit';
import { manualOnline, setupEngine, target, testFile, tick, waitForItem } from './engine-test-kit';

/** Until aborted: like a request whose server never answers. */

describe('byte progress and stall detection', () => {
  it('bytesDone follows byte progress; a stalled chunk is aborted, its partial progress taken back, and it is retried', async () => {
    const server = new FakeUploadServer();
    const base = createFetchTransport(server.fetch);
    let stalls = 0;
    const transport: ChunkTransport = async (req) => {
      if (req.url.includes('index=1') && stalls++ === 0) {
        req.onProgress(1_000); // some bytes go out, then nothing
        return hangUntilAborted(req.signal);
      }
      return base(req);
    };
    const sleeps: number[] = [];
    const snapshots: TransferSnapshot[] = [];
    const sawRetrying = () => snapshots.some((s) => s.items.some((i) => i.state === 'retrying'));
    // The back-off waits until a snapshot has shown the retrying state: snapshots are coalesced, and
    // on a loaded machine a zero-length back-off could otherwise pass between two of them.
    const sleep = async (ms: number) => {
      sleeps.push(ms);
      for (let waited = 0; !sawRetrying() && waited < 5_000; waited += 10) await tick(10);
    };
    const { engine } = setupEngine(server, { transport, stallTimeoutMs: 40, chunkConcurrency: 1, sleep });
    await engine.subscribe((s) => snapshots.push(s));
    const { file } = testFile();
    const [id] = await engine.enqueueUploads([file], target);
    await waitForItem(engine, id!, (i) => i.bytesDone === MIN_CHUNK_SIZE + 1_000);
    await waitForItem(engine, id!, (i) => i.state === 'done');
    const retrying = snapshots.flatMap((s) => s.items).find((i) => i.state === "retrying");
    expect(retrying).toMatchObject({ lastError: '上传长时间没有进展，正在重试', bytesDone: MIN_CHUNK_SIZE });
    expect(stalls).toBe(2);
    expect(sleeps).toHaveLength(1);
    expect(server.uploadedChunks.sort()).toEqual([0, 1, 2, 3]);
  });
});

describe('429: lower concurrency, honour Retry-After', () => {
  it('halves the item chunk concurrency per 429 (min 1), waits Retry-After, and does not fail the item', async () => {
    const server = new FakeUploadServer();
    let limited = 0;
    server.interceptor = (req) =>
      req.path === API.chunkUpload && limited++ < 2 ? new Response('{}', { status: 429, headers: { 'Retry-After': '7' } }) : undefined;
    const sleeps: number[] = [];
    const { engine, db } = setupEngine(server, { chunkConcurrency: 4, now: () => 1_000, sleep: async (ms) => void sleeps.push(ms) });
    const [id] = await engine.enqueueUploads([testFile('r.bin', 6).file], target);
    const done = await waitForItem(engine, id!, (i) => i.state === 'done');
    expect(done.lastError).toBeNull();
    expect(sleeps).toEqual([7_000, 7_000]);
    const record = await getUpload(db, id!);
    expect(record).toMatchObject({ chunkConcurrency: 1, attempts: 0 });
  });

  it('raises the limit back one step per interval after successes', () => {
    let t = 0;
    const limit = new ConcurrencyLimit(4, 4, () => t);
    limit.rateLimited();
    expect(limit.current).toBe(2);
    limit.rateLimited();
    limit.rateLimited();
    expect(limit.current).toBe(1);
    t += CONCURRENCY_RAISE_INTERVAL_MS - 1;
    limit.succeeded();
    expect(limit.current).toBe(1);
    t += 1;
    limit.succeeded();
    expect(limit.current).toBe(2);
    t += CONCURRENCY_RAISE_INTERVAL_MS * 10;
    limit.succeeded();
    limit.succeeded();
    expect(limit.current).toBe(3);
  });
});

describe('offline', () => {
  it('waits in retrying with the offline message without spending attempts, and resumes on its own when online', async () => {
    const server = new FakeUploadServer();
    const online = manualOnline(true);
    let dropped = false;
    server.interceptor = (req) => {
      if (!online.isOnline()) return 'network-error';
      if (req.path === API.chunkUpload && req.query.get('index') === '1' && !dropped) {
        dropped = true;
        online.set(false); // the network drops while chunk 1 is on its way
        return 'network-error';
      }
      return undefined;
    };
    const sleeps: number[] = [];
    const { engine, db } = setupEngine(server, { onlineSignal: online, chunkConcurrency: 1, sleep: async (ms) => void sleeps.push(ms) });
    const [id] = await engine.enqueueUploads([testFile().file], target);
    const waiting = await waitForItem(engine, id!, (i) => i.state === 'retrying');
    expect(waiting.lastError).toBe('网络已断开，恢复后自动继续');
    const requestsWhileOffline = server.requests.length;
    await tick(50);
    expect(server.requests.length).toBe(requestsWhileOffline);
    expect((await getUpload(db, id!))!.attempts).toBe(0);

    // a new item queued while offline does not start either
    const later = testFile('later.bin', 1).file;
    online.set(true);
    await waitForItem(engine, id!, (i) => i.state === 'done');
    expect(sleeps).toEqual([]);
    expect((await getUpload(db, id!))!.attempts).toBe(0);
    online.set(false);
    const [second] = await engine.enqueueUploads([later], target);
    await tick(30);
    expect((await engine.getSnapshot()).items.find((i) => i.id === second)!.state).toBe('waiting');
    online.set(true);
    await waitForItem(engine, second!, (i) => i.state === 'done');
  });
});

describe('an offline spell the online signal never reports', () => {
  it('starts an item queued while offline once the network is back, with no online event (a worker under Chromium emulation)', async () => {
    const server = new FakeUploadServer();
    let up = false;
    // Reads true or false, never tells: what a worker sees when no 'online' event arrives.
    const silent = { isOnline: () => up, subscribe: () => () => undefined };
    const { engine } = setupEngine(server, { onlineSignal: silent, chunkConcurrency: 1 });
    const [id] = await engine.enqueueUploads([testFile().file], target);
    await tick(50);
    expect((await engine.getSnapshot()).items.find((i) => i.id === id)!.state).toBe('waiting');
    up = true;
    await waitForItem(engine, id!, (i) => i.state === 'done');
  });
});

describe('commands for all', () => {
  it('pauseAll aborts every request in flight; resumeAll continues; cancelAll aborts and cancels', async () => {
    const server = new FakeUploadServer();
    const chunkSignals: AbortSignal[] = [];
    let hang = true;
    const fetch: FetchFn = (input, init) => {
      if (hang && input.startsWith(API.chunkUpload)) {
        chunkSignals.push(init.signal!);
        return hangUntilAborted(init.signal!);
      }
      return server.fetch(input, init);
    };
    const { engine } = setupEngine(server, { fetch, fileConcurrency: 2, chunkConcurrency: 2 });
    const ids = await engine.enqueueUploads([testFile('a.bin').file, testFile('b.bin').file, testFile('c.bin').file], target);
    for (const id of ids.slice(0, 2)) await waitForItem(engine, id, (i) => i.state === 'uploading');
    await tick();
    expect(chunkSignals).toHaveLength(4);
    await engine.pauseAll();
    expect(chunkSignals.every((s) => s.aborted)).toBe(true);
    expect((await engine.getSnapshot()).items.map((i) => i.state)).toEqual(['paused', 'paused', 'paused']);

    await engine.resumeAll();
    await waitForItem(engine, ids[0]!, (i) => i.state === 'uploading');
    await tick();
    const inFlight = chunkSignals.filter((s) => !s.aborted);
    expect(inFlight.length).toBeGreaterThan(0);
    await engine.cancelAll();
    expect(inFlight.every((s) => s.aborted)).toBe(true);
    expect((await engine.getSnapshot()).items.map((i) => i.state)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    hang = false;
  });

  it('retryAll sends failed items back to waiting', async () => {
    const server = new FakeUploadServer();
    let failing = true;
    server.interceptor = (req) => (failing && req.path === API.chunkExist ? new Response('{"errorMessage":"x"}', { status: 403 }) : undefined);
    const { engine } = setupEngine(server);
    const ids = await engine.enqueueUploads([testFile('a.bin', 1).file, testFile('b.bin', 1).file], target);
    for (const id of ids) await waitForItem(engine, id, (i) => i.state === 'failed');
    failing = false;
    await engine.retryAll();
    for (const id of ids) await waitForItem(engine, id, (i) => i.state === 'done');
  });
});

describe('access back: resumeAccessHolds', () => {
  it('an upload held by the 手势密码 lock (GESTURE_LOCKED) goes on when access is back; nothing was marked failed', async () => {
    const server = new FakeUploadServer();
    let locked = true;
    server.interceptor = (req) =>
      locked && req.path === API.chunkUpload
        ? new Response(JSON.stringify({ errorCode: ERRORS.GESTURE_LOCKED.code, errorMessage: ERRORS.GESTURE_LOCKED.message }), { status: 400 })
        : undefined;
    const { engine } = setupEngine(server, { chunkConcurrency: 1 });
    const [id] = await engine.enqueueUploads([testFile('held.bin', 3).file], target);
    const held = await waitForItem(engine, id!, (i) => i.state === 'held');
    expect(held.lastError).toBe(ERRORS.GESTURE_LOCKED.message);

    locked = false;
    await engine.resumeAccessHolds();
    const done = await waitForItem(engine, id!, (i) => i.state === 'done');
    expect(done.lastError).toBeNull();
    expect(server.uploadedChunks.sort()).toEqual([0, 1, 2]);
  });

  it('leaves alone what access does not cure: a paused item stays paused', async () => {
    const server = new FakeUploadServer();
    const { engine } = setupEngine(server, { chunkConcurrency: 1, sleep: () => new Promise(() => undefined) });
    const [id] = await engine.enqueueUploads([testFile('p.bin', 3).file], target);
    await engine.pause(id!);
    await engine.resumeAccessHolds();
    await tick(50);
    expect((await engine.getSnapshot()).items.find((i) => i.id === id)?.state).toBe('paused');
  });
});
