/**
 * Small files in batches (common/transfer/batch-upload.ts, workers/engine/batch-driver.ts): many
 * files per request, every outcome written per item, a lost answer repeated without a second copy,
 * a command on one item leaving the others to the next batch, and a backend without the route.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../../common/api/errors';
import { API } from '../../../common/api/paths';
import { BATCH_MAX_FILES } from '../../../common/transfer/batch-upload';
import type { TransferSnapshot } from '../../../common/transfer/engine-api';
import { NOTIFY_INTERVAL_MS } from '../../../workers/engine/notifier';
import type { FetchFn } from '../../../workers/engine/api-client';
import { getUpload } from '../../../workers/queue/repository';
import { FakeUploadServer } from './fake-upload-server';
import { hangUntilAborted, setupEngine, target, waitForItem } from './engine-test-kit';

const small = (name: string, size = 4096) => {
  const bytes = new Uint8Array(randomBytes(size));
  return { bytes, file: new File([bytes], name) };
};

const settled = (state: string) => state === 'done' || state === 'held' || state === 'failed' || state === 'paused';

/** The items' views once every one of them has settled (one snapshot per poll, not one per item). */
async function allSettled(engine: ReturnType<typeof setupEngine>['engine'], ids: string[]) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const byId = new Map((await engine.getSnapshot()).items.map((i) => [i.id, i]));
    const views = ids.map((id) => byId.get(id)!);
    if (views.every((v) => v && settled(v.state))) return views;
    if (Date.now() > deadline) throw new Error(`not settled: ${views.filter((v) => !v || !settled(v.state)).map((v) => v?.state).join(',')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('small files in batches', () => {
  it('sends a folder of small files in as few requests as the batch limits allow, each file once', { timeout: 20_000 }, async () => {
    const server = new FakeUploadServer();
    const { engine } = setupEngine(server, { smallFileBatches: true });
    const files = Array.from({ length: BATCH_MAX_FILES + 50 }, (_, i) => small(`f${i}.txt`, 1 + (i % 7) * 100));
    const ids = await engine.enqueueUploads(files.map((f) => f.file), target);
    const views = await allSettled(engine, ids);
    expect(views.map((v) => v.state)).toEqual(ids.map(() => 'done'));
    expect(server.requestsTo(API.batchUpload)).toHaveLength(2);
    expect(server.requestsTo(API.chunkExist)).toHaveLength(0);
    ids.forEach((id, i) => expect(Buffer.from(server.batchFiles.get(id)!)).toEqual(Buffer.from(files[i]!.bytes)));
    expect(views.every((v, i) => v.fileId === `file-b-${ids[i]}` && v.bytesDone === files[i]!.bytes.length)).toBe(true);
  });

  it('answers each refused item as the single-file path would: a clash is held, a blocked type fails', async () => {
    const server = new FakeUploadServer();
    server.batchRefusals.set('same.txt', ERRORS.NAME_CONFLICT.code);
    server.batchRefusals.set('tool.exe', ERRORS.FILE_TYPE_BLOCKED.code);
    const { engine, db } = setupEngine(server, { smallFileBatches: true });
    const ids = await engine.enqueueUploads([small('ok.txt').file, small('same.txt').file, small('tool.exe').file], target);
    const [ok, same, tool] = await allSettled(engine, ids);
    expect(ok).toMatchObject({ state: 'done' });
    expect(same).toMatchObject({ state: 'held', holdReason: 'exists' });
    expect(tool).toMatchObject({ state: 'failed', holdReason: 'blockedType' });
    // Persisted the same way (a reload shows what the snapshot showed).
    expect(await getUpload(db, ids[1]!)).toMatchObject({ state: 'held', holdReason: 'exists' });
  });

  it('a batch whose answer was lost is sent again and answered with the files it created, none twice', async () => {
    const server = new FakeUploadServer();
    server.loseNextAnswer.add(API.batchUpload);
    const { engine } = setupEngine(server, { smallFileBatches: true });
    const ids = await engine.enqueueUploads([small('a.txt').file, small('b.txt').file], target);
    const views = await allSettled(engine, ids);
    expect(views.map((v) => v.state)).toEqual(['done', 'done']);
    expect(server.requestsTo(API.batchUpload)).toHaveLength(2);
    expect(server.batchFiles.size).toBe(2);
  });

  it('pausing one item stops the batch; the others go again in the next one and finish', async () => {
    const server = new FakeUploadServer();
    let hold = true;
    const fetch: FetchFn = (input, init) => (input.startsWith(API.batchUpload) && hold ? hangUntilAborted(init.signal!) : server.fetch(input, init));
    const { engine } = setupEngine(server, { smallFileBatches: true, fetch });
    const ids = await engine.enqueueUploads([small('p1.txt').file, small('p2.txt').file, small('p3.txt').file], target);
    await waitForItem(engine, ids[1]!, (i) => i.state === 'uploading');
    hold = false;
    await engine.pause(ids[1]!);
    const [first, paused, third] = await allSettled(engine, ids);
    expect([first!.state, paused!.state, third!.state]).toEqual(['done', 'paused', 'done']);
    await engine.resume(ids[1]!);
    expect((await waitForItem(engine, ids[1]!, (i) => i.state === 'done')).fileId).toBe(`file-b-${ids[1]}`);
  });

  it('a backend without the batch route (404) gets the files one by one through the chunked protocol', async () => {
    const server = new FakeUploadServer();
    server.batchRoute = false;
    const { engine } = setupEngine(server, { smallFileBatches: true });
    const ids = await engine.enqueueUploads([small('x.txt').file, small('y.txt').file], target);
    const views = await allSettled(engine, ids);
    expect(views.map((v) => v.state)).toEqual(['done', 'done']);
    expect(server.requestsTo(API.batchUpload)).toHaveLength(1);
    expect(server.requestsTo(API.chunkMerge)).toHaveLength(2);
  });

  it('a batch that starts is not written (the queue keeps saying waiting); a reload while it runs sends it again, none twice', async () => {
    const server = new FakeUploadServer();
    let hold = true;
    const fetch: FetchFn = (input, init) => (input.startsWith(API.batchUpload) && hold ? hangUntilAborted(init.signal!) : server.fetch(input, init));
    const first = setupEngine(server, { smallFileBatches: true, fetch });
    const ids = await first.engine.enqueueUploads([small('r1.txt').file, small('r2.txt').file], target);
    await waitForItem(first.engine, ids[1]!, (i) => i.state === 'uploading');
    const stored = await first.db.uploads.bulkGet(ids);
    expect(stored.map((r) => [r?.state, r?.lastError])).toEqual([
      ['waiting', null],
      ['waiting', null],
    ]);
    // The page goes away mid-request; the next one loads the queue and sends the batch again.
    await first.engine.dispose();
    first.db.close();
    hold = false;
    const second = setupEngine(server, { smallFileBatches: true, fetch }, first.dbName);
    await second.engine.start();
    const views = await allSettled(second.engine, ids);
    expect(views.map((v) => v.state)).toEqual(['done', 'done']);
    expect(server.batchFiles.size).toBe(2);
    expect((await second.db.uploads.bulkGet(ids)).map((r) => r?.state)).toEqual(['done', 'done']);
  });

  it('a file that cannot be read is held; the rest of its batch goes', async () => {
    const server = new FakeUploadServer();
    const { engine } = setupEngine(server, { smallFileBatches: true });
    const broken = small('gone.txt');
    Object.defineProperty(broken.file, 'arrayBuffer', { value: () => Promise.reject(new DOMException('gone', 'NotReadableError')) });
    const ids = await engine.enqueueUploads([small('fine.txt').file, broken.file], target);
    const [fine, gone] = await allSettled(engine, ids);
    expect(fine!.state).toBe('done');
    expect(gone).toMatchObject({ state: 'held', holdReason: 'fileMissing' });
  });
});

describe('small files: what the page is told, with the real notification interval', () => {
  it('new rows and a batch’s 已完成 reach a subscriber at once (PROMPT_NOTIFY_MS), not with the next progress interval', async () => {
    const server = new FakeUploadServer();
    const { engine } = setupEngine(server, { smallFileBatches: true, notifyIntervalMs: NOTIFY_INTERVAL_MS });
    const seen: { at: number; items: TransferSnapshot['items'] }[] = [];
    await engine.subscribe((snapshot) => void seen.push({ at: Date.now(), items: snapshot.items }));
    const started = Date.now();
    const ids = await engine.enqueueUploads([small('a.txt').file, small('b.txt').file], target);
    await allSettled(engine, ids);
    const doneAt = Date.now();
    // Listed within the prompt spacing of the enqueue (plus the test's own turns), not up to a second later.
    await expect.poll(() => seen.find((s) => s.items.length === 2)?.at, { timeout: NOTIFY_INTERVAL_MS / 2, interval: 5 }).toBeDefined();
    expect(seen.find((s) => s.items.length === 2)!.at - started).toBeLessThan(NOTIFY_INTERVAL_MS / 2);
    const allDone = (s: { items: TransferSnapshot['items'] }) => s.items.length === 2 && s.items.every((i) => i.state === 'done');
    await expect.poll(() => seen.find(allDone)?.at, { timeout: NOTIFY_INTERVAL_MS / 2, interval: 5 }).toBeDefined();
    expect(seen.find(allDone)!.at - doneAt).toBeLessThan(NOTIFY_INTERVAL_MS / 2);
  });
});
