/**
 * The pre-upload checks of spec §4 beyond multipleFile/check: canBeUploadType (the tenant's blocked
 * types, kept for offline picks), the checks of a pick queued offline (asked before the first byte),
 * and a new version of a known file (fileVersion/check + checkFileSensitiveOrLock).
 */
import { describe, expect, it } from 'vitest';
import { API } from '../../../common/api/paths';
import { getUpload } from '../../../workers/queue/repository';
import { FakeUploadServer } from './fake-upload-server';
import { manualOnline, setupEngine, target, testFile, tick, waitForItem } from './engine-test-kit';

const namesAsked = (server: FakeUploadServer) => server.requestsTo(API.canBeUploadType).map((r) => (r.body as { names: string[] }).names);

describe('canBeUploadType: the blocked types', () => {
  it('is asked once per pick with one name per extension; a blocked type fails naming it, and the list is kept', async () => {
    const server = new FakeUploadServer();
    server.blockedExtensions = ['exe', 'bat'];
    const { engine, db } = setupEngine(server);
    const names = ['安装包.exe', 'b.EXE', 'run.bat', 'a.txt', 'b.txt', 'README'];
    const ids = await engine.enqueueUploads(names.map((n) => testFile(n, 1).file), target);
    expect(namesAsked(server)).toEqual([['安装包.exe', 'run.bat', 'a.txt']]);
    for (const id of ids.slice(3)) await waitForItem(engine, id, (i) => i.state === 'done');
    const byName = Object.fromEntries((await engine.getSnapshot()).items.map((i) => [i.name, i]));
    expect(byName['安装包.exe']).toMatchObject({ state: 'failed', holdReason: 'blockedType', lastError: '管理员禁止上传 .exe 类型的文件' });
    expect(byName['b.EXE']).toMatchObject({ state: 'failed', lastError: '管理员禁止上传 .exe 类型的文件' });
    expect(byName['run.bat']).toMatchObject({ state: 'failed', lastError: '管理员禁止上传 .bat 类型的文件' });
    expect((await db.meta.get('canBeUploadTypeData'))!.value).toMatchObject({ blockedExtensions: ['exe', 'bat'] });
    // nothing of a blocked file was hashed or sent
    expect(server.requestsTo(API.chunkExist)).toHaveLength(3);
  });

  it('a server without the call lets the pick through to multipleFile/check as before', async () => {
    const server = new FakeUploadServer();
    server.interceptor = (req) => (req.path === API.canBeUploadType ? new Response('{}', { status: 404 }) : undefined);
    server.checkFindings.set('virus.exe', { blockedType: true });
    const { engine } = setupEngine(server);
    const [exe, ok] = await engine.enqueueUploads([testFile('virus.exe', 1).file, testFile('ok.txt', 1).file], target);
    await waitForItem(engine, ok!, (i) => i.state === 'done');
    expect((await engine.getSnapshot()).items.find((i) => i.id === exe)).toMatchObject({ state: 'failed', lastError: '该文件类型禁止上传' });
  });
});

describe('a pick queued offline', () => {
  it('fails a type the kept list blocks at once; the rest waits, sends nothing, and is checked in one round when the network is back', async () => {
    const server = new FakeUploadServer();
    server.blockedExtensions = ['exe'];
    const online = manualOnline(true);
    server.interceptor = () => (online.isOnline() ? undefined : 'network-error');
    const first = setupEngine(server, { onlineSignal: online });
    // an earlier pick, online: the tenant's list is kept
    const [earlier] = await first.engine.enqueueUploads([testFile('earlier.txt', 1).file], target);
    await waitForItem(first.engine, earlier!, (i) => i.state === 'done');
    await first.dispose();

    const { engine, db } = setupEngine(server, { onlineSignal: online }, first.dbName);
    online.set(false);
    server.checkFindings.set('绝密.docx', { sensitive: true });
    const before = server.requests.length;
    const ids = await engine.enqueueUploads([testFile('tool.exe', 1).file, testFile('绝密.docx', 1).file, testFile('ok.txt', 1).file], target);
    const [exe, secret, ok] = ids as [string, string, string];
    const view = (id: string) => engine.getSnapshot().then((s) => s.items.find((i) => i.id === id)!);
    expect(await view(exe)).toMatchObject({ state: 'failed', holdReason: 'blockedType', lastError: '管理员禁止上传 .exe 类型的文件' });
    expect(await view(ok)).toMatchObject({ state: 'waiting', lastError: '离线中：联网后先完成上传检查，再开始上传' });
    expect((await getUpload(db, ok))!.checksPending).toBe(true);
    await tick(50);
    // offline, only the checks were tried (and failed): no byte, no session
    expect(server.requests.slice(before).map((r) => r.path).filter((p) => p !== API.multipleFileCheck && p !== API.canBeUploadType)).toEqual([]);

    const checksBefore = server.requestsTo(API.multipleFileCheck).length;
    online.set(true);
    await waitForItem(engine, ok, (i) => i.state === 'done');
    expect(await view(secret)).toMatchObject({ state: 'held', holdReason: 'sensitive' });
    // one round for both waiting items, before any of their bytes
    const rounds = server.requestsTo(API.multipleFileCheck).slice(checksBefore);
    expect(rounds).toHaveLength(1);
    expect((rounds[0]!.body as { items: Array<{ key: string }> }).items.map((i) => i.key).sort()).toEqual([secret, ok].sort());
    const firstCheck = server.requests.findIndex((r, i) => i >= before && r.path === API.multipleFileCheck && online.isOnline());
    expect(server.requests.slice(before, firstCheck).some((r) => r.path === API.chunkExist)).toBe(false);
    expect((await getUpload(db, ok))!.checksPending).toBe(false);
  });

  it('items whose checks were pending when the page closed are checked after the reload, before they start', async () => {
    const server = new FakeUploadServer();
    const online = manualOnline(false);
    server.interceptor = () => (online.isOnline() ? undefined : 'network-error');
    const first = setupEngine(server, { onlineSignal: online });
    server.checkFindings.set('dup.txt', { exists: true });
    const [dup] = await first.engine.enqueueUploads([testFile('dup.txt', 1).file], target);
    await first.dispose();
    online.set(true);
    const { engine } = setupEngine(server, { onlineSignal: online }, first.dbName);
    expect(await waitForItem(engine, dup!, (i) => i.state === 'held')).toMatchObject({ holdReason: 'exists' });
    expect(server.requestsTo(API.chunkExist)).toHaveLength(0);
  });
});

describe('上传新版本: fileVersion/check and checkFileSensitiveOrLock', () => {
  const version = (fileId: string, name: string) => ({ fileId, name, parentId: target.parentId, category: target.category });

  it('asks both (not multipleFile/check) and uploads the next version when the file is still there', async () => {
    const server = new FakeUploadServer();
    server.existingFiles.set('报告.doc', 'f1');
    const { engine } = setupEngine(server);
    const id = await engine.enqueueNewVersion(testFile('报告-修订稿.doc', 1).file, version('f1', '报告.doc'));
    await waitForItem(engine, id, (i) => i.state === 'done');
    expect(server.requestsTo(API.multipleFileCheck)).toHaveLength(0);
    // The file is addressed by its id on every call (a file shared at its owner's top level has no parentId the caller could name).
    expect(server.requestsTo(API.fileVersionCheck).map((r) => r.body)).toEqual([{ name: '报告.doc', parentId: target.parentId, category: target.category, versionOf: 'f1' }]);
    expect(server.requestsTo(API.checkFileSensitiveOrLock).map((r) => (r.body as { items: Array<{ key: string; name: string }> }).items)).toEqual([[expect.objectContaining({ key: id, name: '报告.doc', versionOf: 'f1' })]]);
    expect(server.requestsTo(API.chunkExist).map((r) => (r.body as { versionOf?: string }).versionOf)).toEqual(['f1']);
    expect(server.requestsTo(API.chunkMerge).map((r) => r.body as { onConflict: string; versionOf?: string })).toEqual([expect.objectContaining({ onConflict: 'newVersion', versionOf: 'f1' })]);
    // Never in a batch: a batch item has only a place.
    expect(server.requestsTo(API.batchUpload)).toHaveLength(0);
  });

  it('a file renamed or moved meanwhile still gets the version: it is addressed by id, not by name', async () => {
    const server = new FakeUploadServer();
    server.existingFiles.set('改名后.doc', 'f9');
    const { engine } = setupEngine(server);
    const id = await engine.enqueueNewVersion(testFile('新内容.doc', 1).file, version('f9', '改名前.doc'));
    await waitForItem(engine, id, (i) => i.state === 'done');
    expect(server.requestsTo(API.chunkMerge).map((r) => (r.body as { versionOf?: string }).versionOf)).toEqual(['f9']);
  });

  it('a file the caller may no longer change (a share narrowed to download) fails with the reason, nothing sent', async () => {
    const server = new FakeUploadServer();
    server.existingFiles.set('只读.doc', 'f7');
    server.notEditable.add('f7');
    const { engine } = setupEngine(server);
    const id = await engine.enqueueNewVersion(testFile('x.doc', 1).file, version('f7', '只读.doc'));
    expect((await engine.getSnapshot()).items.find((i) => i.id === id)).toMatchObject({ state: 'failed', lastError: '您对原文件没有编辑权限，无法上传新版本' });
    expect(server.requestsTo(API.chunkExist)).toHaveLength(0);
  });

  it('a file deleted, or no longer shared, meanwhile fails the upload without a byte sent; 重试 does not revive it', async () => {
    const server = new FakeUploadServer();
    server.existingFiles.set('换了.doc', 'someone-else');
    const { engine } = setupEngine(server);
    const gone = await engine.enqueueNewVersion(testFile('x.doc', 1).file, version('f1', '删了.doc'));
    const replaced = await engine.enqueueNewVersion(testFile('y.doc', 1).file, version('f2', '换了.doc'));
    for (const id of [gone, replaced]) {
      expect((await engine.getSnapshot()).items.find((i) => i.id === id)).toMatchObject({ state: 'failed', holdReason: 'versionGone', lastError: '原文件已被删除或不再与您共享，无法上传为它的新版本' });
    }
    await engine.retry(gone);
    await engine.retryAll();
    await tick();
    expect((await engine.getSnapshot()).items.find((i) => i.id === gone)!.state).toBe('failed');
    expect(server.requestsTo(API.chunkExist)).toHaveLength(0);
  });

  it('a file locked by someone else is held (rename or give up); a sensitive name is held for confirmation', async () => {
    const server = new FakeUploadServer();
    server.existingFiles.set('locked.doc', 'f1');
    server.existingFiles.set('绝密.doc', 'f2');
    server.checkFindings.set('locked.doc', { locked: true });
    server.checkFindings.set('绝密.doc', { sensitive: true });
    const { engine } = setupEngine(server);
    const locked = await engine.enqueueNewVersion(testFile('a.doc', 1).file, version('f1', 'locked.doc'));
    const secret = await engine.enqueueNewVersion(testFile('b.doc', 1).file, version('f2', '绝密.doc'));
    const items = (await engine.getSnapshot()).items;
    expect(items.find((i) => i.id === locked)).toMatchObject({ state: 'held', holdReason: 'locked', lastError: expect.stringContaining('原文件已被他人锁定') });
    expect(items.find((i) => i.id === secret)).toMatchObject({ state: 'held', holdReason: 'sensitive' });
    await engine.decide(secret, 'rename');
    await waitForItem(engine, secret, (i) => i.state === 'done');
    expect(server.requestsTo(API.keepOnUpload).map((r) => r.query.get('key'))).toEqual([secret]);
  });
});
