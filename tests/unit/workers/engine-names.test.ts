/**
 * Names the rule refuses (issue 44 item 2): failed for good with holdReason 'badName' — at enqueue,
 * before a byte is read, or when the server refuses the name at merge or in a batch — never retried
 * by 重试 / 全部重试, given another name by `rename` (the upload goes on from what the server holds),
 * and taken off the list by `remove`.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../../common/api/errors';
import { API } from '../../../common/api/paths';
import type { FetchFn } from '../../../workers/engine/api-client';
import { getUpload } from '../../../workers/queue/repository';
import { FakeUploadServer } from './fake-upload-server';
import { setupEngine, target, testFile, tick, waitForItem } from './engine-test-kit';

const refusedJson = (code: string, message: string) => new Response(JSON.stringify({ errorCode: code, errorMessage: message }), { status: 400, headers: { 'content-type': 'application/json' } });
const bodyName = (init: RequestInit): string | undefined => (JSON.parse(String(init.body)) as { name?: string }).name;

describe('names the rule refuses', () => {
  it('fails a bad name at enqueue without a request for it; the others are checked and sent; retry leaves it', async () => {
    const server = new FakeUploadServer();
    const { engine, db } = setupEngine(server);
    const ids = await engine.enqueueUploads([testFile('方案[草稿],v1.docx', 2).file, testFile('ok.bin', 2).file], target);
    await waitForItem(engine, ids[1]!, (i) => i.state === 'done');
    const bad = (await engine.getSnapshot()).items.find((i) => i.id === ids[0])!;
    expect(bad).toMatchObject({ state: 'failed', holdReason: 'badName', lastError: ERRORS.NAME_INVALID_CHARS.message, bytesDone: 0 });
    // Its name never reached the server: the one check asked only about the other file.
    const checked = server.requestsTo(API.multipleFileCheck).map((r) => (r.body as { items: Array<{ name: string }> }).items.map((i) => i.name));
    expect(checked).toEqual([['ok.bin']]);
    expect(await getUpload(db, ids[0]!)).toMatchObject({ state: 'failed', holdReason: 'badName' });
    await engine.retry(ids[0]!);
    await engine.retryAll();
    await tick();
    expect((await engine.getSnapshot()).items.find((i) => i.id === ids[0])!.state).toBe('failed');
    expect(server.requestsTo(API.chunkExist)).toHaveLength(1);
  });

  it('rename refuses a name the rule refuses too, with the reason, and uploads under a good one', async () => {
    const server = new FakeUploadServer();
    const { engine, db } = setupEngine(server);
    const [id] = await engine.enqueueUploads([testFile('a,b.bin', 2).file], target);
    await waitForItem(engine, id!, (i) => i.state === 'failed');
    await expect(engine.rename(id!, 'a[1].bin')).rejects.toThrow(ERRORS.NAME_INVALID_CHARS.message);
    await engine.rename(id!, ' a，b.bin ');
    const done = await waitForItem(engine, id!, (i) => i.state === 'done');
    expect(done).toMatchObject({ name: 'a，b.bin', holdReason: null, lastError: null });
    expect(server.requestsTo(API.chunkMerge).map((r) => (r.body as { name: string }).name)).toEqual(['a，b.bin']);
    expect(await getUpload(db, id!)).toMatchObject({ name: 'a，b.bin', state: 'done' });
  });

  it('a merge the server refuses for the name fails as badName after every byte; rename merges without sending them again', async () => {
    const server = new FakeUploadServer();
    const fetch: FetchFn = async (input, init) =>
      input.startsWith(API.chunkMerge) && bodyName(init) === 'refused.bin' ? refusedJson(ERRORS.NAME_RESERVED.code, ERRORS.NAME_RESERVED.message) : server.fetch(input, init);
    const { engine } = setupEngine(server, { fetch });
    const { file } = testFile('refused.bin', 3);
    const [id] = await engine.enqueueUploads([file], target);
    const failed = await waitForItem(engine, id!, (i) => i.state === 'failed');
    expect(failed).toMatchObject({ holdReason: 'badName', lastError: ERRORS.NAME_RESERVED.message, bytesDone: file.size });
    const sent = server.uploadedChunks.length;
    expect(sent).toBe(3);
    await engine.rename(id!, 'accepted.bin');
    expect(await waitForItem(engine, id!, (i) => i.state === 'done')).toMatchObject({ name: 'accepted.bin' });
    expect(server.uploadedChunks).toHaveLength(sent);
  });

  it('a batch item the server refuses for the name fails as badName; a folder item renamed keeps its folder', async () => {
    const server = new FakeUploadServer();
    server.batchRefusals.set('x.txt', ERRORS.NAME_INVALID_CHARS.code);
    const { engine } = setupEngine(server, { smallFileBatches: true });
    const [id] = await engine.enqueueFolder([{ file: new File([randomBytes(100)], 'x.txt'), relativePath: 'docs/x.txt' }], target);
    expect(await waitForItem(engine, id!, (i) => i.state === 'failed')).toMatchObject({ holdReason: 'badName', relativePath: 'docs/x.txt' });
    await engine.rename(id!, 'y.txt');
    expect(await waitForItem(engine, id!, (i) => i.state === 'done')).toMatchObject({ name: 'y.txt', relativePath: 'docs/y.txt' });
  });

  it('remove takes an item off the list and out of the queue', async () => {
    const server = new FakeUploadServer();
    const { engine, db } = setupEngine(server);
    const [id] = await engine.enqueueUploads([testFile('a|b.bin', 2).file], target);
    await waitForItem(engine, id!, (i) => i.state === 'failed');
    await engine.remove(id!);
    expect((await engine.getSnapshot()).items).toEqual([]);
    expect(await getUpload(db, id!)).toBeUndefined();
  });
});
