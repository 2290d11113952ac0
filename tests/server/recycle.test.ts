import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { FileListResponse, NameConflict, RecyclePurgeResponse, RecycleRestoreResponse, RemoveFilesResponse } from '../../common/api/types';
import { download, expectError, mkdir, names, text } from './file-kit';
import { type Client, startServerAsAdmin, type TestServer, uploadFile, withDb } from './helpers';
import { isStored } from '../support/test-byte-store';

let server: TestServer;
let admin: Client;
const RETENTION_DAYS = 7;
beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin({ recycleRetentionDays: RETENTION_DAYS }));
});
afterAll(async () => {
  await server.close();
});

const usedSize = () => withDb(server, (db) => (db.prepare("select used_size from users where username = 'admin'").get() as { used_size: number }).used_size);
const blobCount = () => withDb(server, (db) => (db.prepare('select count(*) as n from blobs').get() as { n: number }).n);
const recycle = async () => (await admin.post<{ data: FileListResponse }>(API.recycleList, {})).body.data.items;

describe('recycle bin', () => {
  it('removeFiles moves a folder with its tree to the bin; the name is free again; restore brings it back', async () => {
    const folder = await mkdir(admin, 'rb-folder');
    const inner = await text(admin, 'inner.txt', 'inner', folder.id);
    const res = await admin.post<{ data: RemoveFilesResponse }>(API.removeFiles, { ids: [folder.id] });
    expect(res.body.data.removed).toBe(2);
    expect(await names(admin, null)).not.toContain('rb-folder');
    // Gone for every normal call.
    expectError(await admin.post(API.fileList, { parentId: folder.id, category: 1 }), ERRORS.NOT_FOUND.code, 404);
    expect((await admin.raw(API.downloadPrefix + inner.id)).status).toBe(404);
    const bin = await recycle();
    const entry = bin.find((e) => e.id === folder.id)!;
    expect(entry).toMatchObject({ deleted: true, expired: false, name: 'rb-folder' });
    expect(entry.expiresAt! - entry.deletedAt!).toBe(RETENTION_DAYS * 24 * 3600 * 1000);
    expect(bin.some((e) => e.id === inner.id)).toBe(false); // only the deleted root is listed

    // The name can be used while the old one is in the bin; restoring then asks.
    const twin = await mkdir(admin, 'rb-folder');
    const ask = await admin.post<{ conflicts: NameConflict[] }>(API.recycleRestore, { ids: [folder.id] });
    expectError(ask, ERRORS.CONFLICT_DECISION_REQUIRED.code);
    expect(ask.body.conflicts[0]).toMatchObject({ id: folder.id, existingId: twin.id, suggestedName: 'rb-folder (1)' });
    const restored = await admin.post<{ data: RecycleRestoreResponse }>(API.recycleRestore, { ids: [folder.id], decisions: { [folder.id]: 'rename' } });
    expect(restored.body.data.items[0]).toMatchObject({ id: folder.id, name: 'rb-folder (1)', deleted: false });
    expect(await download(admin, inner.id)).toBe('inner');
    expect(await recycle()).toEqual([]);
  });

  it('restores to the original place, recreating the folders that were purged meanwhile', async () => {
    const a = await mkdir(admin, 'orig-a');
    const b = await mkdir(admin, 'orig-b', a.id);
    const file = await text(admin, 'deep.txt', 'deep', b.id);
    await admin.post(API.removeFiles, { ids: [file.id] });
    await admin.post(API.removeFiles, { ids: [a.id] });
    expect((await admin.post<{ data: RecyclePurgeResponse }>(API.recyclePurge, { ids: [a.id] })).body.data.purged).toBe(2);
    const res = await admin.post<{ data: RecycleRestoreResponse }>(API.recycleRestore, { ids: [file.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const back = res.body.data.items[0]!;
    const catalog = await admin.post<{ data: { path: Array<{ name: string }> } }>(API.fileCatalog, { id: back.parentId });
    expect(catalog.body.data.path.map((p) => p.name)).toEqual(['orig-a', 'orig-b']);
    expect(await download(admin, file.id)).toBe('deep');
  });

  it('purge frees the quota and removes blobs nobody references, keeping shared ones', async () => {
    const shared = Buffer.from('shared content '.repeat(100));
    const own = Buffer.from('only here '.repeat(50));
    const keep = await uploadFile(admin, shared, 'keep.bin');
    const dup = await uploadFile(admin, shared, 'dup.bin');
    const solo = await uploadFile(admin, own, 'solo.bin');
    const blobs = await blobCount();
    const used = await usedSize();
    const soloKey = await withDb(server, (db) =>
      (db.prepare('select b.storage_key as k from blobs b join files f on f.blob_id = b.id where f.id = ?').get(solo.body.data.id) as { k: string }).k,
    );
    expect(await isStored(server.app.byteStore, soloKey)).toBe(true);
    await admin.post(API.removeFiles, { ids: [dup.body.data.id, solo.body.data.id] });
    expect(await usedSize()).toBe(used); // the bin still counts
    const purged = await admin.post<{ data: RecyclePurgeResponse }>(API.recyclePurge, { ids: [dup.body.data.id, solo.body.data.id] });
    expect(purged.body.data.purged).toBe(2);
    expect(await usedSize()).toBe(used - shared.length - own.length);
    expect(await blobCount()).toBe(blobs - 1);
    // Gone from the store (disk or bucket), not only from the table.
    expect(await isStored(server.app.byteStore, soloKey)).toBe(false);
    const res = await admin.raw(API.downloadPrefix + keep.body.data.id);
    expect(Buffer.from(await res.arrayBuffer()).equals(shared)).toBe(true);
  });

  it('the sweeper purges entries older than the retention, not younger ones', async () => {
    const old = await text(admin, 'old.txt', 'old');
    const young = await text(admin, 'young.txt', 'young');
    await admin.post(API.removeFiles, { ids: [old.id, young.id] });
    const day = 24 * 3600 * 1000;
    await withDb(server, (db) => db.prepare('update files set deleted_at = ? where trash_root_id = ?').run(Date.now() - (RETENTION_DAYS + 1) * day, old.id));
    const swept = await server.app.sweeper.sweepOnce();
    expect(swept.recycled).toBe(1);
    const bin = (await recycle()).map((e) => e.id);
    expect(bin).toContain(young.id);
    expect(bin).not.toContain(old.id);
    expectError(await admin.post(API.recycleRestore, { ids: [old.id] }), ERRORS.NOT_FOUND.code, 404);
  });

  it('a group entry goes to the deleter bin and back into the group folder; a member who left cannot restore it', async () => {
    const group = (await admin.post<{ data: { id: string; rootId: string } }>(API.groupCreate, { name: '回收组' })).body.data;
    const folder = await mkdir(admin, 'g-folder', null, { spaceId: group.id });
    const doc = await text(admin, 'g.txt', 'group doc', folder.id);
    await admin.post(API.removeFiles, { ids: [doc.id] });
    expect((await recycle()).map((e) => e.id)).toContain(doc.id);
    const back = await admin.post<{ data: RecycleRestoreResponse }>(API.recycleRestore, { ids: [doc.id] });
    expect(back.body.data.items[0]).toMatchObject({ id: doc.id, parentId: folder.id, spaceId: group.id });
    expectError(await admin.post(API.groupDelete, { id: group.id }), ERRORS.GROUP_NOT_EMPTY.code);
  });

  it('lists 原位置: the page or space and the folders, marked gone once that folder is deleted or purged (issue 44)', async () => {
    const outer = await mkdir(admin, 'o-outer');
    const inner = await mkdir(admin, 'o-inner', outer.id);
    const kept = await text(admin, 'o-kept.txt', 'x', inner.id);
    const lost = await text(admin, 'o-lost.txt', 'x', inner.id);
    const top = await text(admin, 'o-top.txt', 'x');
    const group = (await admin.post<{ data: { id: string } }>(API.groupCreate, { name: '原位置组' })).body.data;
    const inGroup = await text(admin, 'o-group.txt', 'x', null, { spaceId: group.id });
    await admin.post(API.removeFiles, { ids: [kept.id] });
    await admin.post(API.removeFiles, { ids: [top.id] });
    await admin.post(API.removeFiles, { ids: [inGroup.id] });
    const originOf = async (id: string) => (await recycle()).find((e) => e.id === id)?.origin;
    expect(await originOf(kept.id)).toEqual({ path: '个人文件/o-outer/o-inner', gone: false });
    expect(await originOf(top.id)).toEqual({ path: '个人文件', gone: false });
    expect(await originOf(inGroup.id)).toEqual({ path: '原位置组', gone: false });
    // Its folder deleted later: gone; purged: still gone (the names stay).
    await admin.post(API.removeFiles, { ids: [lost.id] });
    await admin.post(API.removeFiles, { ids: [inner.id] });
    expect(await originOf(kept.id)).toEqual({ path: '个人文件/o-outer/o-inner', gone: true });
    await admin.post(API.recyclePurge, { ids: [inner.id] });
    expect(await originOf(lost.id)).toEqual({ path: '个人文件/o-outer/o-inner', gone: true });
  });

  it('purge all empties the bin; restoring or purging a live id is 404', async () => {
    const live = await text(admin, 'live.txt', 'live');
    expectError(await admin.post(API.recyclePurge, { ids: [live.id] }), ERRORS.NOT_FOUND.code, 404);
    expectError(await admin.post(API.recycleRestore, { ids: [live.id] }), ERRORS.NOT_FOUND.code, 404);
    const gone = await text(admin, 'gone.txt', 'gone');
    await admin.post(API.removeFiles, { ids: [gone.id] });
    await admin.post(API.recyclePurge, { all: true });
    expect(await recycle()).toEqual([]);
  });
});
