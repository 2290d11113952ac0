/**
 * The server's CHUNK_SIZE may change while items wait in the queue: digests computed at the old size
 * describe nothing the server accepts (chunk/exist refuses another size, CHUNK_SIZE_CHANGED) and would
 * not find stored content. The engine hashes such a file again at the announced size
 * (common/transfer/chunk-policy.ts) instead of failing it.
 */
import { describe, expect, it } from 'vitest';
import { API } from '../../../common/api/paths';
import { MIN_CHUNK_SIZE } from '../../../common/transfer/chunk-policy';
import type { ChunkExistRequest } from '../../../common/api/endpoints/uploads';
import type { FetchFn } from '../../../workers/engine/api-client';
import { getUpload } from '../../../workers/queue/repository';
import { chunkDigestHex } from '../../support/chunk-digest';
import { FakeUploadServer } from './fake-upload-server';
import { hangUntilAborted, setupEngine, target, testFile, waitForItem } from './engine-test-kit';

const NEW_SIZE = 2 * MIN_CHUNK_SIZE;
const digestsAt = (bytes: Uint8Array, size: number) =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => chunkDigestHex(bytes.subarray(i * size, (i + 1) * size)));
const exists = (server: FakeUploadServer) => server.requestsTo(API.chunkExist).map((r) => r.body as ChunkExistRequest);

describe('the server changes its chunk size', () => {
  it('an item hashed and half sent at the old size is hashed again at the new one after a reload', async () => {
    const server = new FakeUploadServer();
    const { file, bytes } = testFile('queued.bin', 5);
    const fetch: FetchFn = (input, init) =>
      input.startsWith(API.chunkUpload) && server.uploadedChunks.length >= 2 ? hangUntilAborted(init.signal!) : server.fetch(input, init);
    const first = setupEngine(server, { fetch, chunkConcurrency: 1 });
    const [id] = await first.engine.enqueueUploads([file], target);
    await waitForItem(first.engine, id!, (i) => i.bytesDone === 2 * MIN_CHUNK_SIZE);
    await first.dispose();

    server.chunkSize = NEW_SIZE;
    const second = setupEngine(server, {}, first.dbName);
    const done = await waitForItem(second.engine, id!, (i) => i.state === 'done' || i.state === 'failed');
    expect(done.state, done.lastError ?? '').toBe('done');
    const last = exists(server).at(-1)!;
    expect(last.chunkSize).toBe(NEW_SIZE);
    expect(last.chunkDigests).toEqual(digestsAt(bytes, NEW_SIZE));
    expect((await getUpload(second.db, id!))).toMatchObject({ chunkSize: NEW_SIZE, chunkDigests: digestsAt(bytes, NEW_SIZE) });
  });

  it('a refusal of the cached size (CHUNK_SIZE_CHANGED) makes the engine ask again and hash at the new size', async () => {
    const server = new FakeUploadServer();
    const { engine } = setupEngine(server);
    const before = testFile('before.bin', 3);
    const [a] = await engine.enqueueUploads([before.file], target);
    expect((await waitForItem(engine, a!, (i) => i.state === 'done' || i.state === 'failed')).state).toBe('done');

    // The engine holds the config with the old size (asked at most once a minute); the server restarts with another.
    server.chunkSize = NEW_SIZE;
    const after = testFile('after.bin', 3);
    const [b] = await engine.enqueueUploads([after.file], target);
    const done = await waitForItem(engine, b!, (i) => i.state === 'done' || i.state === 'failed');
    expect(done.state, done.lastError ?? '').toBe('done');
    const forB = exists(server).filter((r) => r.name === 'after.bin');
    expect(forB.map((r) => r.chunkSize)).toEqual([MIN_CHUNK_SIZE, NEW_SIZE]);
    expect(forB[1]!.chunkDigests).toEqual(digestsAt(after.bytes, NEW_SIZE));
    expect(server.requestsTo(API.uploadConfig)).toHaveLength(2);
  });
});
