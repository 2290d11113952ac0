import { describe, expect, it } from 'vitest';
import { API } from '../../../common/api/paths';
import { checkAnswer } from './check-answer';
import { FakeUploadServer } from './fake-upload-server';
import { setupEngine, target, testFile, tick, waitForItem } from './engine-test-kit';
import { getUpload } from '../../../workers/queue/repository';

describe('second upload (proof of ownership)', () => {
  it("'created' finishes the item via 'instant' with zero chunk bytes, after a correct HMAC over the challenged ranges", async () => {
    const server = new FakeUploadServer();
    const { bytes, file, fingerprint } = testFile();
    server.tenantContent.set(fingerprint, bytes);
    const { engine } = setupEngine(server);
    const [id] = await engine.enqueueUploads([file], target);
    const done = await waitForItem(engine, id!, (i) => i.state === 'done');
    expect(done).toMatchObject({ via: 'instant', fileId: `instant-${fingerprint.slice(0, 8)}`, bytesDone: file.size });
    expect(server.requestsTo(API.chunkUpload)).toHaveLength(0);
    expect(server.requestsTo(API.chunkExist)).toHaveLength(0);
    const [claim, answer] = server.requestsTo(API.secondUpload).map((r) => r.body as { proof?: { hmac: string } });
    expect(claim!.proof).toBeUndefined();
    expect(answer!.proof!.hmac).toBe(server.expectedProofs[0]);
  });

  it("'unknown' (content not stored) falls back to the chunked upload, via 'chunks'", async () => {
    const server = new FakeUploadServer();
    const { file } = testFile();
    const { engine } = setupEngine(server);
    const [id] = await engine.enqueueUploads([file], target);
    const done = await waitForItem(engine, id!, (i) => i.state === 'done');
    expect(done.via).toBe('chunks');
    expect(server.requestsTo(API.secondUpload)).toHaveLength(2);
    expect(server.uploadedChunks.sort()).toEqual([0, 1, 2, 3]);
  });

  it('a wrong proof (other bytes with the same claimed fingerprint) is not accepted', async () => {
    const server = new FakeUploadServer();
    const { file, fingerprint } = testFile();
    server.tenantContent.set(fingerprint, testFile().bytes); // the server holds different bytes under that claim
    const { engine } = setupEngine(server);
    const [id] = await engine.enqueueUploads([file], target);
    expect((await waitForItem(engine, id!, (i) => i.state === 'done')).via).toBe('chunks');
  });
});

describe('pre-upload checks and held items', () => {
  it('routes the batch with one multipleFile/check: blocked → failed (intercepted), over quota → failed, locked/sensitive/exists → held', async () => {
    const server = new FakeUploadServer();
    server.checkFindings.set('virus.exe', { blockedType: true });
    server.checkFindings.set('big.bin', { overQuota: true });
    server.checkFindings.set('locked.doc', { locked: true, exists: true });
    server.checkFindings.set('绝密.doc', { sensitive: true });
    server.checkFindings.set('dup.doc', { exists: true });
    const { engine } = setupEngine(server);
    const names = ['virus.exe', 'big.bin', 'locked.doc', '绝密.doc', 'dup.doc', 'ok.bin'];
    const ids = await engine.enqueueUploads(names.map((n) => testFile(n, 1).file), target);
    expect(server.requestsTo(API.multipleFileCheck)).toHaveLength(1);
    expect((server.requestsTo(API.multipleFileCheck)[0]!.body as { items: Array<{ key: string }> }).items.map((i) => i.key)).toEqual(ids);
    await waitForItem(engine, ids[5]!, (i) => i.state === 'done');
    const byName = Object.fromEntries((await engine.getSnapshot()).items.map((i) => [i.name, i]));
    expect(byName['virus.exe']).toMatchObject({ state: 'failed', holdReason: 'blockedType', lastError: '该文件类型禁止上传' });
    expect(byName['big.bin']).toMatchObject({ state: 'failed', lastError: '空间不足，无法上传' });
    expect(byName['locked.doc']).toMatchObject({ state: 'held', holdReason: 'locked' });
    expect(byName['绝密.doc']).toMatchObject({ state: 'held', holdReason: 'sensitive' });
    expect(byName['dup.doc']).toMatchObject({ state: 'held', holdReason: 'exists' });
    for (const n of ['locked.doc', '绝密.doc', 'dup.doc']) expect(byName[n]!.lastError).toMatch(/[\u4e00-\u9fff]/);
    // only ok.bin was ever hashed or sent
    expect(server.requestsTo(API.chunkExist)).toHaveLength(1);
    // intercepted files are never retried; retryAll retries the over-quota one (space may have been freed)
    await engine.retry(ids[0]!);
    await tick();
    expect(server.requestsTo(API.chunkExist)).toHaveLength(1);
    await engine.retryAll();
    await waitForItem(engine, ids[1]!, (i) => i.state === 'done');
    expect((await engine.getSnapshot()).items.find((i) => i.id === ids[0])!.state).toBe('failed');
    expect(server.requestsTo(API.chunkExist)).toHaveLength(2);
  });

  it('decide newVersion / rename: keepOnUpload with key, policy and the client headers, then merge with that policy', async () => {
    const server = new FakeUploadServer();
    server.checkFindings.set('a.doc', { exists: true });
    server.checkFindings.set('b.doc', { exists: true });
    const { engine } = setupEngine(server);
    const [a, b] = await engine.enqueueUploads([testFile('a.doc', 1).file, testFile('b.doc', 1).file], target);
    await waitForItem(engine, b!, (i) => i.state === 'held');
    await engine.decide(a!, 'newVersion');
    await engine.decide(b!, 'rename');
    await waitForItem(engine, a!, (i) => i.state === 'done');
    await waitForItem(engine, b!, (i) => i.state === 'done');
    const keeps = server.requestsTo(API.keepOnUpload);
    expect(keeps.map((r) => [r.method, r.query.get('key'), r.query.get('policy'), r.headers['x-client-platform']])).toEqual([
      ['GET', a, 'newVersion', 'web'],
      ['GET', b, 'rename', 'web'],
    ]);
    const merges = server.requestsTo(API.chunkMerge).map((r) => r.body as { name: string; onConflict: string });
    expect(merges.map((m) => [m.name, m.onConflict]).sort()).toEqual([['a.doc', 'newVersion'], ['b.doc', 'rename']]);
    const claims = server.requestsTo(API.secondUpload).map((r) => (r.body as { onConflict: string }).onConflict);
    expect(new Set(claims)).toEqual(new Set(['newVersion', 'rename']));
  });

  it('decide giveUp calls giveUpUpload and cancels; a locked item cannot become a new version', async () => {
    const server = new FakeUploadServer();
    server.checkFindings.set('x.doc', { exists: true });
    server.checkFindings.set('l.doc', { locked: true });
    const { engine } = setupEngine(server);
    const [x, l] = await engine.enqueueUploads([testFile('x.doc', 1).file, testFile('l.doc', 1).file], target);
    await engine.decide(x!, 'giveUp');
    expect((await engine.getSnapshot()).items.find((i) => i.id === x)!.state).toBe('cancelled');
    expect(server.requestsTo(API.giveUpUpload).map((r) => [r.query.get('key'), r.headers['x-client-platform']])).toEqual([[x, 'web']]);
    await expect(engine.decide(l!, 'newVersion')).rejects.toThrow(/locked/);
    expect((await engine.getSnapshot()).items.find((i) => i.id === l)!.state).toBe('held');
    await engine.retry(l!); // a held-for-decision item is not retried around the decision
    expect((await engine.getSnapshot()).items.find((i) => i.id === l)!.state).toBe('held');
    await engine.decide(l!, 'rename');
    await waitForItem(engine, l!, (i) => i.state === 'done');
    expect(server.requests.filter((r) => r.path === API.uploadConfig)).toHaveLength(1);
  });

  it('enqueueNewVersion uploads under the existing name with the newVersion policy, without asking; a lock still holds it', async () => {
    const server = new FakeUploadServer();
    server.existingFiles.set('报告.doc', 'f1');
    server.existingFiles.set('locked.doc', 'f2');
    server.checkFindings.set('locked.doc', { exists: true, locked: true });
    const { engine, db } = setupEngine(server);
    // the picked file's own name does not matter: it becomes the existing file's next version
    const id = await engine.enqueueNewVersion(testFile('报告-修订稿.doc', 2).file, { fileId: 'f1', name: '报告.doc', parentId: target.parentId, category: target.category });
    const done = await waitForItem(engine, id, (i) => i.state === 'done');
    expect(done.name).toBe('报告.doc');
    expect(server.requestsTo(API.keepOnUpload)).toHaveLength(0);
    const merges = server.requestsTo(API.chunkMerge).map((r) => r.body as { name: string; onConflict: string });
    expect(merges).toEqual([expect.objectContaining({ name: '报告.doc', onConflict: 'newVersion' })]);
    expect((await getUpload(db, id))!.onConflict).toBe('newVersion');

    const locked = await engine.enqueueNewVersion(testFile('x.doc', 1).file, { fileId: 'f2', name: 'locked.doc', parentId: target.parentId, category: target.category });
    expect((await engine.getSnapshot()).items.find((i) => i.id === locked)).toMatchObject({ state: 'held', holdReason: 'locked' });
  });

  it('a clash answered before queueing (enqueue option onConflict) is not held: each file goes with that policy; a lock still holds', async () => {
    const server = new FakeUploadServer();
    server.checkFindings.set('同名.doc', { exists: true });
    server.checkFindings.set('他人.doc', { exists: true, replaceable: false });
    server.checkFindings.set('锁定.doc', { exists: true, locked: true });
    const { engine, db } = setupEngine(server);
    const renamed = await engine.enqueueUploads([testFile('同名.doc', 1).file, testFile('他人.doc', 1).file, testFile('新.doc', 1).file], target, { onConflict: 'rename' });
    for (const id of renamed) await waitForItem(engine, id, (i) => i.state === 'done');
    const merges = server.requestsTo(API.chunkMerge).map((r) => r.body as { name: string; onConflict: string });
    expect(merges.map((m) => [m.name, m.onConflict]).sort()).toEqual([['他人.doc', 'rename'], ['同名.doc', 'rename'], ['新.doc', 'rename']]);
    expect(server.requestsTo(API.keepOnUpload)).toHaveLength(0);

    // a new version cannot be made of another member's file, and a locked file is not replaced: those still ask
    const [mine, notMine, locked] = await engine.enqueueUploads(
      [testFile('同名.doc', 2).file, testFile('他人.doc', 2).file, testFile('锁定.doc', 2).file],
      target,
      { onConflict: 'newVersion' },
    );
    await waitForItem(engine, mine!, (i) => i.state === 'done');
    const byId = new Map((await engine.getSnapshot()).items.map((i) => [i.id, i]));
    expect(byId.get(notMine!)).toMatchObject({ state: 'held', holdReason: 'existsNotYours' });
    expect(byId.get(locked!)).toMatchObject({ state: 'held', holdReason: 'locked' });
    expect((await getUpload(db, mine!))!.onConflict).toBe('newVersion');
    expect(server.requestsTo(API.chunkMerge).map((r) => (r.body as { onConflict: string }).onConflict).at(-1)).toBe('newVersion');
  });

  it("the page's answers given with the files (enqueue option checked) are taken as they are: no second multipleFile/check", async () => {
    const server = new FakeUploadServer();
    const { engine } = setupEngine(server);
    const files = [testFile('锁定.doc', 1).file, testFile('新.bin', 1).file, testFile('未问.bin', 1).file];
    const ids = await engine.enqueueUploads(files, target, { checked: [checkAnswer({ key: '0', locked: true, exists: true, existingFileId: 'f1' }), checkAnswer({ key: '1' }), undefined] });
    // Only the file without an answer is asked about.
    const asked = server.requestsTo(API.multipleFileCheck).map((r) => (r.body as { items: Array<{ name: string }> }).items.map((i) => i.name));
    expect(asked).toEqual([['未问.bin']]);
    await waitForItem(engine, ids[1]!, (i) => i.state === 'done');
    await waitForItem(engine, ids[2]!, (i) => i.state === 'done');
    expect((await engine.getSnapshot()).items.find((i) => i.id === ids[0])).toMatchObject({ state: 'held', holdReason: 'locked' });
  });

  it('a name conflict at merge holds the item for a decision instead of failing it', async () => {
    const server = new FakeUploadServer();
    let conflicts = 0;
    server.interceptor = (req) =>
      req.path === API.chunkMerge && conflicts++ === 0
        ? new Response(JSON.stringify({ errorCode: 'FILE-3004', errorMessage: '当前目录下已存在同名文件或文件夹' }), { status: 400 })
        : undefined;
    const { engine, db } = setupEngine(server);
    const [id] = await engine.enqueueUploads([testFile('n.doc', 2).file], target);
    await waitForItem(engine, id!, (i) => i.state === 'held' && i.holdReason === 'exists');
    await engine.decide(id!, 'rename');
    await waitForItem(engine, id!, (i) => i.state === 'done');
    expect((await getUpload(db, id!))!.onConflict).toBe('rename');
  });
});

describe('folder uploads', () => {
  it('creates the distinct folders once (parents first), then queues each file into its folder keeping relativePath', async () => {
    const server = new FakeUploadServer();
    const { engine } = setupEngine(server);
    const entries = [
      { file: new Blob(['a']), relativePath: 'photos/2024/a.jpg' },
      { file: new Blob(['b']), relativePath: 'photos/2024/b.jpg' },
      { file: new Blob(['c']), relativePath: 'photos/c.jpg' },
      { file: new Blob(['d']), relativePath: 'docs/x/y/d.txt' },
      { file: new Blob(['e']), relativePath: 'top.txt' },
    ];
    const ids = await engine.enqueueFolder(entries, target);
    const creates = server.requestsTo(API.relativePathDirCreate);
    expect(creates).toHaveLength(1);
    expect(creates[0]!.body).toEqual({ parentId: 'folder-1', category: 1, relativePaths: ['docs', 'photos', 'docs/x', 'photos/2024', 'docs/x/y'] });
    for (const id of ids) await waitForItem(engine, id, (i) => i.state === 'done');
    const views = (await engine.getSnapshot()).items;
    expect(views.map((v) => [v.name, v.relativePath, v.target.parentId])).toEqual([
      ['a.jpg', 'photos/2024/a.jpg', 'dir-photos/2024'],
      ['b.jpg', 'photos/2024/b.jpg', 'dir-photos/2024'],
      ['c.jpg', 'photos/c.jpg', 'dir-photos'],
      ['d.txt', 'docs/x/y/d.txt', 'dir-docs/x/y'],
      ['top.txt', 'top.txt', 'folder-1'],
    ]);
    const exported = await engine.exportQueue();
    expect(exported).toMatchObject({ format: 'cloud-drive-queue', version: 1 });
    expect(exported.items.map((i) => [i.relativePath, i.state, i.direction])).toEqual(views.map((v) => [v.relativePath, 'done', 'upload']));
    expect(exported.items[0]!.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('batches folder creation by 1,000 paths per call', async () => {
    const server = new FakeUploadServer();
    server.checkFindings.clear();
    const { engine } = setupEngine(server, { fileConcurrency: 0 }); // queue only: nothing needs to run
    const entries = Array.from({ length: 1_500 }, (_, i) => ({ file: new Blob(['x']), relativePath: `d${i}/f.txt` }));
    await engine.enqueueFolder(entries, target);
    expect(server.requestsTo(API.relativePathDirCreate).map((r) => (r.body as { relativePaths: string[] }).relativePaths.length)).toEqual([1000, 500]);
  });
});

describe('server-side enforcement of the checks', () => {
  it('a type the server blocks at chunk/exist ends intercepted (not retryable); a lock at merge holds for rename/give up', async () => {
    const server = new FakeUploadServer();
    server.interceptor = (req) => {
      const name = (req.body as { name?: string } | undefined)?.name;
      if (req.path === API.chunkExist && name === 'evil.exe') {
        return new Response(JSON.stringify({ errorCode: 'UPL-4008', errorMessage: '不允许上传该类型的文件' }), { status: 400 });
      }
      if (req.path === API.chunkMerge && name === 'locked.doc') {
        return new Response(JSON.stringify({ errorCode: 'FILE-3010', errorMessage: '文件已被他人锁定，无法覆盖' }), { status: 400 });
      }
      return undefined;
    };
    const { engine } = setupEngine(server);
    const [evil, locked] = await engine.enqueueUploads([testFile('evil.exe', 1).file, testFile('locked.doc', 1).file], target);
    expect(await waitForItem(engine, evil!, (i) => i.state === 'failed')).toMatchObject({ holdReason: 'blockedType', lastError: '该文件类型禁止上传' });
    expect((await waitForItem(engine, locked!, (i) => i.state === 'held')).holdReason).toBe('locked');
    await engine.retry(evil!);
    await tick();
    expect((await engine.getSnapshot()).items.find((i) => i.id === evil)!.state).toBe('failed');
  });
});
