import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type {
  CreateTxtResponse,
  DirListResponse,
  FileCatalogResponse,
  FileListResponse,
  FileMultiListResponse,
  KeepOnCreateTxtResponse,
  NameConflict,
  CopyMoveResponse,
} from '../../common/api/types';
import { download, entries, expectError, mkdir, names, text } from './file-kit';
import { type Client, startServerAsAdmin, type TestServer, withDb } from './helpers';

let server: TestServer;
let admin: Client;
beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
});
afterAll(async () => {
  await server.close();
});

describe('createTxt and keepOnCreateTxt', () => {
  it('creates a text file whose content downloads back, adding .txt when the name has no extension', async () => {
    const folder = await mkdir(admin, 'txt-home');
    const file = await text(admin, '说明', '你好，世界', folder.id);
    expect(file).toMatchObject({ name: '说明.txt', isDir: false, kind: 'txt', size: Buffer.byteLength('你好，世界'), parentId: folder.id });
    expect(await download(admin, file.id)).toBe('你好，世界');
  });

  it('holds a clashing text until keepOnCreateTxt decides: rename, newVersion or giveUp', async () => {
    const folder = await mkdir(admin, 'txt-held');
    const first = await text(admin, 'a.txt', 'one', folder.id);
    const held = await admin.post<{ data: CreateTxtResponse }>(API.createTxt, { parentId: folder.id, category: 1, name: 'a.txt', content: 'two' });
    expect(held.body.data).toMatchObject({ status: 'held', conflict: { existingId: first.id, existingIsDir: false, suggestedName: 'a (1).txt' } });
    if (held.body.data.status !== 'held') throw new Error('not held');
    const renamed = await admin.post<{ data: KeepOnCreateTxtResponse }>(API.keepOnCreateTxt, { holdId: held.body.data.holdId, decision: 'rename' });
    expect(renamed.body.data).toMatchObject({ status: 'created', file: { name: 'a (1).txt' } });
    // A hold is used once.
    expectError(await admin.post(API.keepOnCreateTxt, { holdId: held.body.data.holdId, decision: 'rename' }), ERRORS.TXT_HOLD_NOT_FOUND.code);

    const again = await admin.post<{ data: CreateTxtResponse }>(API.createTxt, { parentId: folder.id, category: 1, name: 'A.TXT', content: 'three' });
    if (again.body.data.status !== 'held') throw new Error('not held');
    const version = await admin.post<{ data: KeepOnCreateTxtResponse }>(API.keepOnCreateTxt, { holdId: again.body.data.holdId, decision: 'newVersion' });
    expect(version.body.data).toMatchObject({ status: 'created', file: { id: first.id, versionCount: 1 } });
    expect(await download(admin, first.id)).toBe('three');

    const dropped = await admin.post<{ data: CreateTxtResponse }>(API.createTxt, { parentId: folder.id, category: 1, name: 'a.txt', content: 'four' });
    if (dropped.body.data.status !== 'held') throw new Error('not held');
    expect((await admin.post<{ data: KeepOnCreateTxtResponse }>(API.keepOnCreateTxt, { holdId: dropped.body.data.holdId, decision: 'giveUp' })).body.data).toEqual({
      status: 'givenUp',
    });
    expect((await names(admin, folder.id)).sort()).toEqual(['a (1).txt', 'a.txt']);
  });

  it('refuses bad names with the §5 codes and too large texts', async () => {
    expectError(await admin.post(API.createTxt, { parentId: null, category: 1, name: 'a|b.txt', content: '' }), ERRORS.NAME_INVALID_CHARS.code);
    expectError(await admin.post(API.createTxt, { parentId: null, category: 1, name: 'big.txt', content: 'x'.repeat(1024 * 1024 + 1) }), ERRORS.TEXT_TOO_LARGE.code);
  });
});

describe('copy and move', () => {
  it('moves entries, and asks (coded error listing every clash, nothing changed) when names are taken', async () => {
    const src = await mkdir(admin, 'mv-src');
    const dst = await mkdir(admin, 'mv-dst');
    const a = await text(admin, 'a.txt', 'A-src', src.id);
    const b = await text(admin, 'b.txt', 'B-src', src.id);
    const c = await text(admin, 'c.txt', 'C-src', src.id);
    const existingA = await text(admin, 'a.txt', 'A-dst', dst.id);
    await text(admin, 'b.txt', 'B-dst', dst.id);

    const ask = await admin.post<{ conflicts: NameConflict[] }>(API.move, { ids: [a.id, b.id, c.id], targetParentId: dst.id, targetCategory: 1 });
    expectError(ask, ERRORS.CONFLICT_DECISION_REQUIRED.code);
    expect(ask.body.conflicts.map((x) => [x.id, x.existingIsDir, x.suggestedName])).toEqual([
      [a.id, false, 'a (1).txt'],
      [b.id, false, 'b (1).txt'],
    ]);
    expect((await names(admin, src.id)).sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);

    const done = await admin.post<{ data: CopyMoveResponse }>(API.move, {
      ids: [a.id, b.id, c.id],
      targetParentId: dst.id,
      targetCategory: 1,
      decisions: { [a.id]: 'overwrite', [b.id]: 'skip' },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.skipped).toEqual([b.id]);
    expect(done.body.data.items.map((i) => i.id)).toEqual([existingA.id, c.id]);
    // Overwrite: the existing file keeps its id, gets the content as a new version.
    expect(await download(admin, existingA.id)).toBe('A-src');
    expect(done.body.data.items[0]!.versionCount).toBe(1);
    expect((await names(admin, dst.id)).sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(await names(admin, src.id)).toEqual(['b.txt']);
  });

  it('renames on request and never puts a folder into itself or a descendant', async () => {
    const top = await mkdir(admin, 'cycle-top');
    const mid = await mkdir(admin, 'mid', top.id);
    const low = await mkdir(admin, 'low', mid.id);
    for (const target of [top.id, mid.id, low.id]) {
      expectError(await admin.post(API.move, { ids: [top.id], targetParentId: target, targetCategory: 1 }), ERRORS.MOVE_INTO_SELF.code);
      expectError(await admin.post(API.copy, { ids: [top.id], targetParentId: target, targetCategory: 1 }), ERRORS.MOVE_INTO_SELF.code);
    }
    // Moving into its own parent is a no-op, not a clash with itself.
    const same = await admin.post<{ data: CopyMoveResponse }>(API.move, { ids: [low.id], targetParentId: mid.id, targetCategory: 1 });
    expect(same.body.data.items.map((i) => i.id)).toEqual([low.id]);
    // A folder may move up next to a same-named folder when renamed.
    await mkdir(admin, 'low', top.id);
    const renamed = await admin.post<{ data: CopyMoveResponse }>(API.move, {
      ids: [low.id],
      targetParentId: top.id,
      targetCategory: 1,
      decisions: { [low.id]: 'rename' },
    });
    expect(renamed.body.data.items[0]).toMatchObject({ id: low.id, name: 'low (1)', parentId: top.id });
    // Folders cannot be overwritten.
    const other = await mkdir(admin, 'mid', null);
    expectError(
      await admin.post(API.move, { ids: [mid.id], targetParentId: null, targetCategory: 1, decisions: { [mid.id]: 'overwrite' } }),
      ERRORS.FOLDER_OVERWRITE_UNSUPPORTED.code,
    );
    expect(other.isDir).toBe(true);
  });

  it('copies a folder tree (shared contents, charged to quota) and the copy is independent', async () => {
    const tree = await mkdir(admin, 'copy-tree');
    const sub = await mkdir(admin, 'sub', tree.id);
    await text(admin, 'x.txt', 'xxxx', tree.id);
    await text(admin, 'y.txt', 'yy', sub.id);
    const usedBefore = await withDb(server, (db) => (db.prepare("select used_size from users where username = 'admin'").get() as { used_size: number }).used_size);
    const blobsBefore = await withDb(server, (db) => (db.prepare('select count(*) as n from blobs').get() as { n: number }).n);
    const dst = await mkdir(admin, 'copy-dst');
    const res = await admin.post<{ data: CopyMoveResponse }>(API.copy, { ids: [tree.id], targetParentId: dst.id, targetCategory: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const copy = res.body.data.items[0]!;
    expect(copy).toMatchObject({ name: 'copy-tree', isDir: true, parentId: dst.id });
    expect(copy.id).not.toBe(tree.id);
    expect((await names(admin, copy.id)).sort()).toEqual(['sub', 'x.txt']);
    const copiedSub = (await entries(admin, copy.id)).find((e) => e.name === 'sub')!;
    const y = (await entries(admin, copiedSub.id))[0]!;
    expect(await download(admin, y.id)).toBe('yy');
    // Blobs shared, not copied; the quota counts the copy.
    expect(await withDb(server, (db) => (db.prepare('select count(*) as n from blobs').get() as { n: number }).n)).toBe(blobsBefore);
    const usedAfter = await withDb(server, (db) => (db.prepare("select used_size from users where username = 'admin'").get() as { used_size: number }).used_size);
    expect(usedAfter - usedBefore).toBe(6);
    // Copying again into the same place needs a decision; 'rename' gives 'copy-tree (1)'.
    expectError(await admin.post(API.copy, { ids: [tree.id], targetParentId: dst.id, targetCategory: 1 }), ERRORS.CONFLICT_DECISION_REQUIRED.code);
    const again = await admin.post<{ data: CopyMoveResponse }>(API.copy, { ids: [tree.id], targetParentId: dst.id, targetCategory: 1, decisions: { [tree.id]: 'rename' } });
    expect(again.body.data.items[0]!.name).toBe('copy-tree (1)');
  });

  it('refuses a copy beyond the quota and leaves nothing behind', async () => {
    const folder = await mkdir(admin, 'quota-src');
    await text(admin, 'q.txt', 'quota', folder.id);
    await withDb(server, (db) => db.prepare("update users set quota = used_size + 2 where username = 'admin'").run());
    try {
      expectError(await admin.post(API.copy, { ids: [folder.id], targetParentId: null, targetCategory: 4 }), ERRORS.QUOTA_EXCEEDED.code);
      expect(await names(admin, null, { category: 4 })).not.toContain('quota-src');
    } finally {
      await withDb(server, (db) => db.prepare("update users set quota = 10737418240 where username = 'admin'").run());
    }
  });
});

describe('lists: dir tree, multi list, shareFile list, catalog, keyset pages', () => {
  it('dir/list returns folders only, lazily, with hasChildren', async () => {
    const top = await mkdir(admin, 'tree-top');
    const a = await mkdir(admin, 'a', top.id);
    await mkdir(admin, 'b', top.id);
    await mkdir(admin, 'deep', a.id);
    await text(admin, 'file.txt', 'f', top.id);
    const res = await admin.post<{ data: DirListResponse }>(API.dirList, { parentId: top.id, category: 1 });
    expect(res.body.data.items).toEqual([
      { id: a.id, name: 'a', hasChildren: true },
      { id: expect.any(String), name: 'b', hasChildren: false },
    ]);
  });

  it('multi/list answers the visible ids in request order; category 2 is listed by file/list, shareFile/list answers what others share', async () => {
    const x = await mkdir(admin, 'multi-x');
    const y = await text(admin, 'multi-y.txt', 'y');
    const res = await admin.post<{ data: FileMultiListResponse }>(API.fileMultiList, { ids: [y.id, x.id, 'A'.repeat(22)] });
    expect(res.body.data.items.map((i) => i.id)).toEqual([y.id, x.id]);
    const shared = await mkdir(admin, '共享资料', null, { category: 2 });
    const own = await admin.post<{ data: FileListResponse }>(API.fileList, { parentId: null, category: 2 });
    expect(own.body.data.items.map((i) => i.id)).toEqual([shared.id]);
    // Nobody shares anything with the admin here (sharing.test.ts covers what it lists).
    const list = await admin.post<{ data: FileListResponse }>(API.shareFileList, { parentId: null });
    expect(list.body.data.items).toEqual([]);
  });

  it('catalog gives the breadcrumb and pages chain by cursor without repeats', async () => {
    const top = await mkdir(admin, 'pages');
    const mid = await mkdir(admin, '二级', top.id);
    const cat = await admin.post<{ data: FileCatalogResponse }>(API.fileCatalog, { id: mid.id });
    expect(cat.body.data.path.map((p) => p.name)).toEqual(['pages', '二级']);
    for (let i = 0; i < 12; i++) await text(admin, `f${String(i).padStart(2, '0')}.txt`, String(i), mid.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: FileListResponse } } = await admin.post<{ data: FileListResponse }>(API.fileList, {
        parentId: mid.id,
        category: 1,
        pageSize: 5,
        sortField: 'name',
        sortOrder: 'desc',
        cursor,
      });
      seen.push(...page.body.data.items.map((i) => i.name));
      cursor = page.body.data.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(12);
    expect(seen[0]).toBe('f11.txt');
    expect(new Set(seen).size).toBe(12);
  });
});
