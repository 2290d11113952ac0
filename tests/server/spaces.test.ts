import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type {
  FileListResponse,
  GroupMemberListResponse,
  IdsResponse,
  SearchResponse,
  SpaceInfo,
  VersionListResponse,
} from '../../common/api/types';
import { PUBLIC_SPACE_ID } from '../../common/api/types';
import { createGroup, download, expectError, mkdir, names, text } from './file-kit';
import type { MultipleFileCheckResponse } from '../../common/transfer/checks';
import { addTenantWithUser, type Client, liftPasswordGate, loggedInClient, MEMBER, startServerAsAdmin, type TestServer, uploadFile } from './helpers';

let server: TestServer;
let admin: Client;
let member: Client;
let stranger: Client;
let memberId: string;
beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
  await liftPasswordGate(server, MEMBER.username);
  member = await loggedInClient(server, MEMBER);
  await addTenantWithUser(server, 'stranger', 'Stranger@2024');
  stranger = await loggedInClient(server, { username: 'stranger', password: 'Stranger@2024' });
  memberId = ((await member.post<{ data: { id: string } }>(API.userDetails, {})).body.data).id;
});
afterAll(async () => {
  await server.close();
});

describe('group spaces and roles', () => {
  it('creates a group (second §5 name rule), lists it with the role, and lists files inside', async () => {
    expectError(await admin.post(API.groupCreate, { name: '项目 组' }), ERRORS.NAME_IDENT_INVALID.code);
    expectError(await admin.post(API.groupCreate, { name: 'a-b' }), ERRORS.NAME_IDENT_INVALID.code);
    const group = await createGroup(admin, '研发_一组');
    expect(group).toMatchObject({ kind: 'group', name: '研发_一组', myRole: 'owner', memberCount: 1 });
    expectError(await admin.post(API.groupCreate, { name: '研发_一组' }), ERRORS.GROUP_NAME_CONFLICT.code);
    const doc = await text(admin, 'plan.txt', 'plan', null, { spaceId: group.id });
    expect(doc).toMatchObject({ spaceId: group.id, parentId: group.rootId, category: 0 });
    expect(await names(admin, null, { spaceId: group.id })).toEqual(['plan.txt']);
    const list = await admin.post<{ data: SpaceInfo[] }>(API.groupList, {});
    expect(list.body.data.map((g) => g.name)).toContain('研发_一组');
  });

  it('a non-member sees nothing (404), a member reads and writes, but modifies only own entries; a manager modifies any', async () => {
    const group = await createGroup(admin, '市场组');
    const adminDoc = await text(admin, 'admin.txt', 'by admin', null, { spaceId: group.id });
    expectError(await member.post(API.fileList, { parentId: null, category: 1, spaceId: group.id }), ERRORS.NOT_FOUND.code, 404);
    expect((await member.raw(API.downloadPrefix + adminDoc.id)).status).toBe(404);
    expect((await member.post<{ data: SpaceInfo[] }>(API.groupList, {})).body.data.map((g) => g.id)).not.toContain(group.id);

    const added = await admin.post<{ data: GroupMemberListResponse }>(API.groupMemberAdd, { id: group.id, username: 'member' });
    expect(added.body.data.members.map((m) => [m.username, m.role])).toEqual([
      ['admin', 'owner'],
      ['member', 'member'],
    ]);
    expect(await download(member, adminDoc.id)).toBe('by admin');
    const own = await text(member, 'mine.txt', 'by member', null, { spaceId: group.id });
    expectError(await member.post(API.rename, { id: adminDoc.id, name: 'x.txt' }), ERRORS.FORBIDDEN.code);
    expectError(await member.post(API.removeFiles, { ids: [adminDoc.id] }), ERRORS.FORBIDDEN.code);
    expect((await member.post(API.rename, { id: own.id, name: 'mine2.txt' })).status).toBe(200);
    // Names are unique per group folder across owners.
    const clash = await member.post<{ data: { status: string } }>(API.createTxt, { parentId: null, spaceId: group.id, category: 1, name: 'admin.txt', content: '' });
    expect(clash.body.data.status).toBe('held');
    // Members cannot manage members; a manager can modify anybody's entry.
    expectError(await member.post(API.groupMemberAdd, { id: group.id, username: 'admin', role: 'member' }), ERRORS.FORBIDDEN.code);
    await admin.post(API.groupMemberSetRole, { id: group.id, userId: memberId, role: 'manager' });
    expect((await member.post(API.rename, { id: adminDoc.id, name: 'renamed-by-manager.txt' })).status).toBe(200);
    // ...but not hand out ownership, and the last owner stays.
    expectError(await member.post(API.groupMemberSetRole, { id: group.id, userId: memberId, role: 'owner' }), ERRORS.FORBIDDEN.code);
    const adminId = (await admin.post<{ data: { id: string } }>(API.userDetails, {})).body.data.id;
    expectError(await admin.post(API.groupMemberRemove, { id: group.id, userId: adminId }), ERRORS.GROUP_LAST_OWNER.code);
    // Each row of the space's list says who uploaded it (上传者), looked up once per page; personal rows do not.
    const rows = (await member.post<{ data: FileListResponse }>(API.fileList, { parentId: null, category: 1, spaceId: group.id })).body.data.items;
    expect(Object.fromEntries(rows.map((r) => [r.name, r.owner]))).toEqual({ 'renamed-by-manager.txt': { id: adminId, nickName: '管理员' }, 'mine2.txt': { id: memberId, nickName: '张三' } });
    expect((await member.post<{ data: FileListResponse }>(API.fileList, { parentId: null, category: 1 })).body.data.items.every((r) => r.owner === undefined)).toBe(true);
    // Not empty → cannot be deleted; the root folder itself is not a file to delete.
    expectError(await admin.post(API.groupDelete, { id: group.id }), ERRORS.GROUP_NOT_EMPTY.code);
    expectError(await admin.post(API.removeFiles, { ids: [group.rootId] }), ERRORS.FORBIDDEN.code);
  });

  it('moves a file from personal files into a group and copies it back', async () => {
    const group = await createGroup(admin, '搬运组');
    const file = await text(admin, 'travel.txt', 'travel');
    const moved = await admin.post<{ data: { items: Array<{ spaceId: string | null; category: number }> } }>(API.move, {
      ids: [file.id],
      targetParentId: null,
      targetCategory: 1,
      targetSpaceId: group.id,
    });
    expect(moved.body.data.items[0]).toMatchObject({ spaceId: group.id, category: 0 });
    expect(await names(admin, null)).not.toContain('travel.txt');
    const copied = await admin.post<{ data: { items: Array<{ spaceId: string | null; category: number; id: string }> } }>(API.copy, {
      ids: [file.id],
      targetParentId: null,
      targetCategory: 1,
    });
    expect(copied.body.data.items[0]).toMatchObject({ spaceId: null, category: 1 });
    expect(await download(admin, copied.body.data.items[0]!.id)).toBe('travel');
  });

  it('a manager taking a member\'s group file into personal files takes its quota over', async () => {
    const group = await createGroup(admin, '配额组');
    await admin.post(API.groupMemberAdd, { id: group.id, username: 'member' });
    const used = (client: Client) => client.post<{ data: { usedSize: number } }>(API.userDetails, {}).then((r) => r.body.data.usedSize);
    const doc = await text(member, 'quota-move.txt', '0123456789', null, { spaceId: group.id });
    const [memberBefore, adminBefore] = [await used(member), await used(admin)];
    const moved = await admin.post(API.move, { ids: [doc.id], targetParentId: null, targetCategory: 1 });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await used(member)).toBe(memberBefore - 10);
    expect(await used(admin)).toBe(adminBefore + 10);
    expect((await member.raw(API.downloadPrefix + doc.id)).status).toBe(404);
  });

  it('the public space is shared by the tenant, not by another tenant', async () => {
    const space = (await member.post<{ data: SpaceInfo }>(API.publicSpace, {})).body.data;
    expect(space).toMatchObject({ kind: 'public', myRole: null });
    const doc = await text(member, 'notice.txt', '公告', null, { spaceId: PUBLIC_SPACE_ID });
    expect(await names(admin, null, { spaceId: PUBLIC_SPACE_ID })).toContain('notice.txt');
    // Other members may read but not change it; the tenant admin may.
    expect((await admin.post(API.rename, { id: doc.id, name: 'notice2.txt' })).status).toBe(200);
    const theirs = (await stranger.post<{ data: SpaceInfo }>(API.publicSpace, {})).body.data;
    expect(theirs.id).not.toBe(space.id);
    expect(await names(stranger, null, { spaceId: PUBLIC_SPACE_ID })).toEqual([]);
    expect((await stranger.raw(API.downloadPrefix + doc.id)).status).toBe(404);
  });
});

describe('another tenant answers 404 for every id', () => {
  it('list, catalog, rename, move, copy, delete, favorite, lock, versions, preview, zip, group calls', async () => {
    const folder = await mkdir(admin, 'secret-folder');
    const file = await text(admin, 'secret.txt', 'secret', folder.id);
    const group = await createGroup(admin, '机要组');
    const calls: Array<Promise<{ status: number; body: unknown }>> = [
      stranger.post(API.fileList, { parentId: folder.id, category: 1 }),
      stranger.post(API.fileCatalog, { id: folder.id }),
      stranger.post(API.dirList, { parentId: folder.id, category: 1 }),
      stranger.post(API.rename, { id: file.id, name: 'mine.txt' }),
      stranger.post(API.move, { ids: [file.id], targetParentId: null, targetCategory: 1 }),
      stranger.post(API.copy, { ids: [file.id], targetParentId: null, targetCategory: 1 }),
      stranger.post(API.removeFiles, { ids: [file.id] }),
      stranger.post(API.favoriteAdd, { ids: [file.id] }),
      stranger.post(API.lock, { ids: [file.id] }),
      stranger.post(API.versionList, { id: file.id }),
      stranger.post(API.mkdir, { parentId: folder.id, category: 1, name: 'x' }),
      stranger.post(API.createTxt, { parentId: folder.id, category: 1, name: 'x.txt', content: '' }),
      stranger.post(API.groupMemberList, { id: group.id }),
      stranger.post(API.fileList, { parentId: null, category: 1, spaceId: group.id }),
      stranger.get(`${API.previewPrefix}${file.id}`),
      stranger.get(`${API.zipDownload}?ids=${file.id}`),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body).toMatchObject({ errorCode: ERRORS.NOT_FOUND.code });
    }
    // Moving one's own file into another tenant's folder is refused the same way.
    const theirs = await text(stranger, 'theirs.txt', 'x');
    expectError(await stranger.post(API.move, { ids: [theirs.id], targetParentId: folder.id, targetCategory: 1 }), ERRORS.NOT_FOUND.code, 404);
    expect(await download(admin, file.id)).toBe('secret');
  });
});

describe('favorites, locks and versions', () => {
  it('favorites add, list (newest first) and remove', async () => {
    const a = await text(admin, 'fav-a.txt', 'a');
    const b = await mkdir(admin, 'fav-b');
    const added = await admin.post<{ data: IdsResponse }>(API.favoriteAdd, { ids: [a.id, b.id] });
    expect(added.body.data.items.every((i) => i.favorite)).toBe(true);
    const listed = await admin.post<{ data: FileListResponse }>(API.favoriteList, {});
    expect(listed.body.data.items.map((i) => i.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    expect((await admin.post<{ data: FileListResponse }>(API.fileList, { parentId: null, category: 1, pageSize: 500 })).body.data.items.find((i) => i.id === a.id)?.favorite).toBe(true);
    await admin.post(API.favoriteRemove, { ids: [a.id] });
    expect((await admin.post<{ data: FileListResponse }>(API.favoriteList, {})).body.data.items.map((i) => i.id)).not.toContain(a.id);
  });

  it('a locked file cannot be renamed, moved, deleted or new-versioned by others; the locker or an admin unlocks', async () => {
    const group = await createGroup(admin, '锁定组');
    await admin.post(API.groupMemberAdd, { id: group.id, username: 'member', role: 'manager' });
    const doc = await text(member, 'locked.txt', 'v1', null, { spaceId: group.id });
    const locked = await member.post<{ data: IdsResponse }>(API.lock, { ids: [doc.id] });
    expect(locked.body.data.items[0]).toMatchObject({ locked: true, lockedBy: { id: memberId } });
    expectError(await admin.post(API.rename, { id: doc.id, name: 'x.txt' }), ERRORS.LOCKED_BY_OTHER.code);
    expectError(await admin.post(API.removeFiles, { ids: [doc.id] }), ERRORS.LOCKED_BY_OTHER.code);
    const dst = await mkdir(admin, 'lock-dst', null, { spaceId: group.id });
    expectError(await admin.post(API.move, { ids: [doc.id], targetParentId: dst.id, targetCategory: 1 }), ERRORS.LOCKED_BY_OTHER.code);
    expectError(await admin.post(API.lock, { ids: [doc.id] }), ERRORS.LOCKED_BY_OTHER.code);
    // A folder holding someone else's locked file cannot be deleted or moved either.
    const box = await mkdir(member, 'box', null, { spaceId: group.id });
    const inBox = await text(member, 'in-box.txt', 'x', box.id);
    await member.post(API.lock, { ids: [inBox.id] });
    expectError(await admin.post(API.removeFiles, { ids: [box.id] }), ERRORS.LOCKED_BY_OTHER.code);
    // New version by another user: refused through createTxt's newVersion decision.
    const held = await admin.post<{ data: { status: string; holdId: string } }>(API.createTxt, { parentId: null, spaceId: group.id, category: 1, name: 'locked.txt', content: 'v2' });
    expectError(await admin.post(API.keepOnCreateTxt, { holdId: held.body.data.holdId, decision: 'newVersion' }), ERRORS.LOCKED_BY_OTHER.code);
    expect(await download(member, doc.id)).toBe('v1');
    // The locker changes it freely; a member who is not the locker cannot unlock; an admin can.
    expect((await member.post(API.rename, { id: doc.id, name: 'locked2.txt' })).status).toBe(200);
    await admin.post(API.groupMemberSetRole, { id: group.id, userId: memberId, role: 'member' });
    const other = await text(admin, 'admin-locked.txt', 'x', null, { spaceId: group.id });
    await admin.post(API.lock, { ids: [other.id] });
    expectError(await member.post(API.unlock, { ids: [other.id] }), ERRORS.UNLOCK_NOT_ALLOWED.code);
    const unlocked = await admin.post<{ data: IdsResponse }>(API.unlock, { ids: [doc.id] });
    expect(unlocked.body.data.items[0]).toMatchObject({ locked: false, lockedBy: null });
  });

  it('versions: history, restore an old one as the new head, download an old one with Range', async () => {
    const file = await text(admin, 'history.txt', 'first version');
    for (const content of ['second version', 'third version']) {
      const held = await admin.post<{ data: { holdId: string } }>(API.createTxt, { parentId: null, category: 1, name: 'history.txt', content });
      await admin.post(API.keepOnCreateTxt, { holdId: held.body.data.holdId, decision: 'newVersion' });
    }
    const list = await admin.post<{ data: VersionListResponse }>(API.versionList, { id: file.id });
    expect(list.body.data.versions.map((v) => [v.versionNo, v.current])).toEqual([
      [3, true],
      [2, false],
      [1, false],
    ]);
    const oldest = list.body.data.versions[2]!;
    const part = await admin.raw(API.versionDownloadPrefix + oldest.id, { headers: { range: 'bytes=0-4' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('first');
    await admin.post(API.versionRestore, { id: file.id, versionId: oldest.id });
    expect(await download(admin, file.id)).toBe('first version');
    const after = await admin.post<{ data: VersionListResponse }>(API.versionList, { id: file.id });
    expect(after.body.data.versions).toHaveLength(4);
    expect((await stranger.raw(API.versionDownloadPrefix + oldest.id)).status).toBe(404);
  });
});

describe('search', () => {
  it('keyword search finds names at any depth of a category; unified search spans personal, public and own groups only', async () => {
    const deep = await mkdir(admin, 'search-deep');
    await text(admin, 'Quarterly-REPORT.txt', 'r', deep.id);
    const group = await createGroup(admin, '搜索组');
    await text(admin, 'group-report.txt', 'g', null, { spaceId: group.id });
    await text(member, 'member-report.txt', 'm');
    await text(member, 'public-report.txt', 'p', null, { spaceId: PUBLIC_SPACE_ID });
    await text(stranger, 'stranger-report.txt', 's');

    const kw = await admin.get<{ data: SearchResponse }>(`${API.keywordList}?keyword=report&category=1`);
    expect(kw.body.data.items.map((i) => i.name)).toEqual(['Quarterly-REPORT.txt']);
    expect(kw.body.data.items[0]!.path).toEqual(['search-deep']);
    const all = await admin.get<{ data: SearchResponse }>(`${API.unifiedSearch}?keyword=${encodeURIComponent('report')}`);
    const found = all.body.data.items.map((i) => [i.name, i.spaceName]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['Quarterly-REPORT.txt', null],
        ['group-report.txt', '搜索组'],
        ['public-report.txt', '公共空间'],
      ]),
    );
    expect(found.map((f) => f[0])).not.toContain('member-report.txt');
    expect(found.map((f) => f[0])).not.toContain('stranger-report.txt');
    const memberAll = await member.get<{ data: SearchResponse }>(`${API.unifiedSearch}?keyword=report`);
    expect(memberAll.body.data.items.map((i) => i.name)).not.toContain('group-report.txt');
    // LIKE wildcards are literal.
    expect((await admin.get<{ data: SearchResponse }>(`${API.keywordList}?keyword=%25&category=1`)).body.data.items).toEqual([]);
  });
});

describe('uploads into group folders', () => {
  it('a member uploads into a group folder; pre-checks see clashes with other owners; folder uploads create group folders', async () => {
    const group = await createGroup(admin, '上传组');
    await admin.post(API.groupMemberAdd, { id: group.id, username: 'member' });
    const folder = await mkdir(admin, 'uploads', null, { spaceId: group.id });
    await text(admin, 'taken.txt', 'by admin', folder.id);
    const content = Buffer.from('uploaded by member');
    const up = await uploadFile(member, content, 'member.bin', { parentId: folder.id });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.data).toMatchObject({ spaceId: group.id, category: 0, parentId: folder.id });
    expect(await download(admin, up.body.data.id)).toBe('uploaded by member');

    const check = await member.post<{ data: MultipleFileCheckResponse }>(API.multipleFileCheck, {
      items: [{ key: 'k1', name: 'taken.txt', size: 3, parentId: folder.id, category: 1 }],
    });
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(check.body.data.results[0]).toMatchObject({ exists: true, suggestedName: 'taken (1).txt' });

    const dirs = await member.post<{ data: { dirs: Record<string, string> } }>(API.relativePathDirCreate, {
      parentId: folder.id,
      category: 1,
      relativePaths: ['a/b'],
    });
    expect(dirs.status, JSON.stringify(dirs.body)).toBe(200);
    const listed = await admin.post<{ data: FileListResponse }>(API.fileList, { parentId: dirs.body.data.dirs['a/b'], category: 1 });
    expect(listed.status).toBe(200);
    const catalog = await admin.post<{ data: { path: Array<{ name: string }> } }>(API.fileCatalog, { id: dirs.body.data.dirs['a/b'] });
    expect(catalog.body.data.path.map((p) => p.name)).toEqual(['上传组', 'uploads', 'a', 'b']);
    // A stranger's upload into that folder is refused as unknown.
    expect((await uploadFile(stranger, content, 'x.bin', { parentId: folder.id })).status).toBe(404);
  });
});
