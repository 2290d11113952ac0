import { describe, expect, it } from 'vitest';
import { API } from '../../../common/api/paths';
import type { FetchFn } from '../../../workers/engine/api-client';
import { getUpload } from '../../../workers/queue/repository';
import { FakeUploadServer } from './fake-upload-server';
import { hangUntilAborted, setupEngine, target, testFile, waitForItem } from './engine-test-kit';

/**
 * An installer for 客户端版本 (EnqueueOptions.purpose 'clientInstaller'): the purpose goes with every
 * request that opens, feeds or merges its upload, also after a reload from the queue database; the
 * local type verdicts do not hold it (the server judges the purpose with the caller's right), and it
 * takes neither second upload nor the batch path, which do not carry it.
 */
function tenantBlockingExe(): FakeUploadServer {
  const server = new FakeUploadServer();
  server.blockedExtensions = ['exe', 'msi'];
  server.checkFindings.set('DriveSetup.exe', { blockedType: true });
  return server;
}

const purposeOf = (r: { body?: unknown; query: URLSearchParams }, inBody: boolean) =>
  inBody ? (r.body as { purpose?: string }).purpose : r.query.get('purpose') ?? undefined;

describe('client installer uploads carry their purpose', () => {
  it('chunk/exist, every chunk and merge carry it; no second upload; a blocked type does not hold it', async () => {
    const server = tenantBlockingExe();
    const { engine, db } = setupEngine(server, { smallFileBatches: true });
    const { file } = testFile('DriveSetup.exe');
    const [id] = await engine.enqueueUploads([file], target, { onConflict: 'rename', purpose: 'clientInstaller' });
    expect((await getUpload(db, id!))?.purpose).toBe('clientInstaller');
    await waitForItem(engine, id!, (i) => i.state === 'done');

    const exists = server.requestsTo(API.chunkExist);
    const chunks = server.requestsTo(API.chunkUpload);
    const merges = server.requestsTo(API.chunkMerge);
    expect([exists.length > 0, chunks.length > 0, merges.length]).toEqual([true, true, 1]);
    expect([...exists, ...merges].map((r) => purposeOf(r, true))).toEqual([...exists, ...merges].map(() => 'clientInstaller'));
    expect(chunks.map((r) => purposeOf(r, false))).toEqual(chunks.map(() => 'clientInstaller'));
    expect(server.requestsTo(API.secondUpload)).toEqual([]);
    expect(server.requestsTo(API.batchUpload)).toEqual([]);
  });

  it('an ordinary upload of the same name is still failed as a blocked type and sends no purpose', async () => {
    const server = tenantBlockingExe();
    const { engine } = setupEngine(server);
    const [id] = await engine.enqueueUploads([testFile('DriveSetup.exe').file], target);
    expect(await waitForItem(engine, id!, (i) => i.state === 'failed')).toMatchObject({ holdReason: 'blockedType' });
    expect(server.requestsTo(API.chunkExist)).toEqual([]);
  });

  it('after a reload the resumed upload still sends it (chunk/exist, the remaining chunks, merge)', async () => {
    const server = tenantBlockingExe();
    const original = testFile('DriveSetup.exe');
    // First page: two chunks reach the server, the third hangs; then the page goes away.
    const fetch: FetchFn = (input, init) =>
      input.startsWith(API.chunkUpload) && server.uploadedChunks.length >= 2 ? hangUntilAborted(init.signal!) : server.fetch(input, init);
    const first = setupEngine(server, { fetch, chunkConcurrency: 1 });
    const [id] = await first.engine.enqueueUploads([original.file], target, { purpose: 'clientInstaller' });
    await waitForItem(first.engine, id!, (i) => i.bytesDone >= 2 * 262_144);
    await first.dispose();

    const before = server.requests.length;
    const second = setupEngine(server, {}, first.dbName);
    await waitForItem(second.engine, id!, (i) => i.state === 'done');
    const after = server.requests.slice(before);
    const exists = after.filter((r) => r.path === API.chunkExist);
    const chunks = after.filter((r) => r.path === API.chunkUpload);
    const merges = after.filter((r) => r.path === API.chunkMerge);
    expect([exists.length > 0, chunks.length > 0, merges.length]).toEqual([true, true, 1]);
    expect([...exists, ...merges].every((r) => purposeOf(r, true) === 'clientInstaller')).toBe(true);
    expect(chunks.every((r) => purposeOf(r, false) === 'clientInstaller')).toBe(true);
  });
});
