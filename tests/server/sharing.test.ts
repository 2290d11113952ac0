import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API, downloadUrl, previewUrl, thumbnailUrl, versionDownloadUrl, zipDownloadUrl } from '../../common/api/paths';
import type { CanOperationResponse, MySharesResponse, ShareInfo } from '../../common/api/sharing';
import type { FileCatalogResponse, FileEntry, IdsResponse, VersionListResponse } from '../../common/api/types';
import { createGroup, expectError, mkdir, text } from './file-kit';
import type { Client} from './helpers';
import { addTenantWithUser, ADMIN, liftPasswordGate, loggedInClient, MEMBER, startServer, uploadFile, userIdOf, withDb, type TestServer } from './helpers';
import { department, person, share, sharedList, type Person } from './sharing-kit';

/**
 * Internal shares: the permission is the server's on every path (list, preview, download, ZIP,
 * versions, copy, rename, new version), changes and revocations hold from the next call, shares reach
 * departments with their sub-departments and the members of groups, and nobody else (another
 * tenant least of all) gets anything.
 */
let server: TestServer;
let admin: Client;
let owner: Person; // 'member', the sharer
let carol: Person; // in 研发部/前端组
let dave: Person; // in 市场部
let rd: string;
let frontend: string;

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  await liftPasswordGate(server, MEMBER.username);
  owner = { id: await userIdOf(server, 'member'), account: 'member', client: await loggedInClient(server, MEMBER) };
  rd = await department(admin, '研发部');
  frontend = await department(admin, '前端组', rd);
  const market = await department(admin, '市场部');
  carol = await person(server, admin, 'carol', frontend);
  dave = await person(server, admin, 'dave', market);
});
afterAll(async () => {
  await server.close();
});

async function picture(): Promise<Buffer> {
  return sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 200, g: 60, b: 60 } } }).png().toBuffer();
}

describe('sharing with a person', () => {
  let folder: FileEntry;
  let doc: FileEntry;

  beforeAll(async () => {
    folder = await mkdir(owner.client, '项目资料');
    doc = await text(owner.client, 'plan.txt', 'the plan', folder.id);
    expect((await uploadFile(owner.client, await picture(), 'photo.png', { parentId: folder.id })).status).toBe(200);
    await share(owner.client, [folder.id], [{ type: 'user', id: carol.id }], 'download');
  });

  it('shows in the recipient’s 共享文件 with the sharer and permission, and the folder opens', async () => {
    const root = await sharedList(carol.client);
    expect(root.items.map((i) => [i.name, i.share?.permission, i.share?.sharedBy.id])).toEqual([['项目资料', 'download', owner.id]]);
    expect(root.sharers).toEqual([{ user: { id: owner.id, nickName: expect.any(String) }, count: 1 }]);
    const inside = await sharedList(carol.client, folder.id);
    expect(inside.items.map((i) => i.name).sort()).toEqual(['photo.png', 'plan.txt']);
    expect(inside.grant?.permission).toBe('download');
    // The breadcrumb starts at the shared folder.
    const path = await carol.client.post<{ data: FileCatalogResponse }>(API.fileCatalog, { id: folder.id });
    expect(path.body.data.path.map((p) => p.name)).toEqual(['项目资料']);
    // The sharer's own 共享文件 does not list their own shares; someone else sees nothing.
    expect((await sharedList(owner.client)).items).toEqual([]);
    expect((await sharedList(dave.client)).items).toEqual([]);
  });

  it('download, ZIP and preview work with permission 下载; others get 404', async () => {
    const res = await carol.client.raw(downloadUrl(doc.id));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('the plan');
    expect((await carol.client.raw(zipDownloadUrl([folder.id]))).status).toBe(200);
    expect((await carol.client.raw(previewUrl(doc.id))).status).toBe(200);
    for (const path of [downloadUrl(doc.id), previewUrl(doc.id), zipDownloadUrl([folder.id])]) {
      expect((await dave.client.get(path)).status, path).toBe(404);
    }
    expect((await dave.client.post(API.shareFileList, { parentId: folder.id })).status).toBe(404);
  });

  it('copy out works with 下载; nothing can be created, moved or deleted inside by the recipient', async () => {
    const copied = await carol.client.post(API.copy, { ids: [doc.id], targetParentId: null, targetCategory: 1 });
    expect(copied.status, JSON.stringify(copied.body)).toBe(200);
    expectError(await carol.client.post(API.mkdir, { parentId: folder.id, category: 1, name: 'x' }), ERRORS.SHARE_EDIT_LIMITED.code);
    for (const res of [
      await carol.client.post(API.removeFiles, { ids: [doc.id] }),
      await carol.client.post(API.rename, { id: doc.id, name: 'other.txt' }),
      await carol.client.post(API.lock, { ids: [doc.id] }),
      await carol.client.post(API.move, { ids: [doc.id], targetParentId: null, targetCategory: 1 }),
    ]) {
      expectError(res, ERRORS.FORBIDDEN.code);
    }
  });

  it('preview only: download, ZIP, version download and copy refuse; the picture preview carries a watermark', async () => {
    const note = await text(owner.client, 'secret-plan.txt', 'v1');
    // A second version, so there is an old one to (not) download.
    const held = await owner.client.post<{ data: { status: string; holdId: string } }>(API.createTxt, { parentId: null, category: 1, name: 'secret-plan.txt', content: 'v2' });
    await owner.client.post(API.keepOnCreateTxt, { holdId: held.body.data.holdId, decision: 'newVersion' });
    const photo = (await uploadFile(owner.client, await picture(), 'poster.png')).body.data;
    await share(owner.client, [note.id, photo.id], [{ type: 'user', id: carol.id }], 'preview');

    expectError(await carol.client.get(downloadUrl(note.id)), ERRORS.SHARE_PREVIEW_ONLY.code);
    expectError(await carol.client.get(zipDownloadUrl([note.id])), ERRORS.SHARE_PREVIEW_ONLY.code);
    const versions = await carol.client.post<{ data: VersionListResponse }>(API.versionList, { id: note.id });
    expect(versions.status).toBe(200);
    const old = versions.body.data.versions.find((v) => !v.current)!;
    expectError(await carol.client.get(versionDownloadUrl(old.id)), ERRORS.SHARE_PREVIEW_ONLY.code);
    expectError(await carol.client.post(API.copy, { ids: [note.id], targetParentId: null, targetCategory: 1 }), ERRORS.SHARE_PREVIEW_ONLY.code);

    const text2 = await carol.client.raw(previewUrl(note.id));
    expect(text2.status).toBe(200);
    expect(await text2.text()).toBe('v2');
    const original = await (await owner.client.raw(previewUrl(photo.id))).arrayBuffer();
    const marked = await carol.client.raw(previewUrl(photo.id));
    expect(marked.status).toBe(200);
    expect(marked.headers.get('content-type')).toBe('image/webp');
    expect(marked.headers.get('cache-control')).toContain('no-store');
    const bytes = Buffer.from(await marked.arrayBuffer());
    expect(bytes.equals(Buffer.from(original))).toBe(false);
    // Same size as the picture, pixels changed by the burnt-in text.
    const meta = await sharp(bytes).metadata();
    expect([meta.width, meta.height]).toEqual([320, 240]);
    const stats = await sharp(bytes).stats();
    expect(stats.channels[0]!.min).toBeLessThan(200);
    expect((await carol.client.raw(thumbnailUrl(photo.id))).status).toBe(200);
  });

  it('a change or a revocation holds from the next call', async () => {
    const f = await text(owner.client, 'changing.txt', 'content');
    const [s] = (await share(owner.client, [f.id], [{ type: 'user', id: carol.id }], 'preview')).shares;
    expectError(await carol.client.get(downloadUrl(f.id)), ERRORS.SHARE_PREVIEW_ONLY.code);
    const up = await owner.client.post<{ data: ShareInfo }>(API.shareUpdate, { id: s!.id, permission: 'download' });
    expect(up.body.data.permission).toBe('download');
    expect((await carol.client.raw(downloadUrl(f.id))).status).toBe(200);
    // Someone else's share is unknown to them.
    expectError(await carol.client.post(API.shareRevoke, { ids: [s!.id] }), ERRORS.SHARE_NOT_FOUND.code, 404);
    expect((await owner.client.post(API.shareRevoke, { ids: [s!.id] })).body).toEqual({ data: { revoked: 1 } });
    expect((await carol.client.get(downloadUrl(f.id))).status).toBe(404);
    expect((await sharedList(carol.client)).items.map((i) => i.name)).not.toContain('changing.txt');
    const mine = await owner.client.post<{ data: MySharesResponse }>(API.shareMine, { states: ['revoked'] });
    expect(mine.body.data.items.map((i) => [i.file.name, i.state])).toContainEqual(['changing.txt', 'revoked']);
  });

  it('an expired share gives nothing from the moment it ends', async () => {
    const f = await text(owner.client, 'expiring.txt', 'soon gone');
    const [s] = (await share(owner.client, [f.id], [{ type: 'user', id: carol.id }], 'download', 1)).shares;
    expect(s!.expiresAt).toBeGreaterThan(Date.now());
    expect((await carol.client.raw(downloadUrl(f.id))).status).toBe(200);
    await withDb(server, (db) => db.prepare('update shares set expires_at = ? where id = ?').run(Date.now() - 1000, s!.id));
    expect((await carol.client.get(downloadUrl(f.id))).status).toBe(404);
    const mine = await owner.client.post<{ data: MySharesResponse }>(API.shareMine, { keyword: 'expiring' });
    expect(mine.body.data.items.map((i) => i.state)).toEqual(['expired']);
  });
});

describe('departments, groups and who may share what', () => {
  it('a department share reaches its sub-departments and nobody else', async () => {
    const f = await text(owner.client, 'for-rd.txt', 'rd');
    await share(owner.client, [f.id], [{ type: 'dept', id: rd }], 'download');
    expect((await sharedList(carol.client)).items.map((i) => i.name)).toContain('for-rd.txt');
    expect((await sharedList(dave.client)).items.map((i) => i.name)).not.toContain('for-rd.txt');
    expect((await carol.client.raw(downloadUrl(f.id))).status).toBe(200);
    expect((await dave.client.get(downloadUrl(f.id))).status).toBe(404);
  });

  it('a group share reaches its members; one entry shared several ways shows once, with the strongest permission', async () => {
    const group = await createGroup(owner.client, 'share_group');
    expect((await owner.client.post(API.groupMemberAdd, { id: group.id, username: 'dave' })).status).toBe(200);
    const f = await text(owner.client, 'for-group.txt', 'g');
    await share(owner.client, [f.id], [{ type: 'group', id: group.id }], 'preview');
    await share(owner.client, [f.id], [{ type: 'user', id: dave.id }], 'download');
    const items = (await sharedList(dave.client)).items.filter((i) => i.name === 'for-group.txt');
    expect(items.map((i) => i.share?.permission)).toEqual(['download']);
    expect((await dave.client.raw(downloadUrl(f.id))).status).toBe(200);
  });

  it('only what the sharer may change is shared; not to oneself; unknown recipients look unknown', async () => {
    const f = await text(owner.client, 'mine.txt', 'x');
    const adminFile = await text(admin, 'admins.txt', 'x');
    expectError(await owner.client.post(API.shareCreate, { fileIds: [adminFile.id], recipients: [{ type: 'user', id: carol.id }], permission: 'download', validityDays: 0 }), ERRORS.NOT_FOUND.code, 404);
    expectError(await owner.client.post(API.shareCreate, { fileIds: [f.id], recipients: [{ type: 'user', id: owner.id }], permission: 'download', validityDays: 0 }), ERRORS.SHARE_TO_SELF.code);
    expectError(await owner.client.post(API.shareCreate, { fileIds: [f.id], recipients: [{ type: 'user', id: 'no-such-user-000000000' }], permission: 'download', validityDays: 0 }), ERRORS.USER_NOT_FOUND.code, 404);
    expectError(await owner.client.post(API.shareCreate, { fileIds: [f.id], recipients: [{ type: 'dept', id: 'no-such-dept-000000000' }], permission: 'download', validityDays: 0 }), ERRORS.DEPT_NOT_FOUND.code, 404);
    // A recipient may not pass a share on.
    await share(owner.client, [f.id], [{ type: 'user', id: carol.id }], 'edit');
    expectError(await carol.client.post(API.shareCreate, { fileIds: [f.id], recipients: [{ type: 'user', id: dave.id }], permission: 'preview', validityDays: 0 }), ERRORS.SHARE_NOT_ALLOWED.code);
  });
});

describe('permission 编辑', () => {
  it('rename inside and new content (upload a new version, restore a version); never the shared folder itself, never new entries', async () => {
    const folder = await mkdir(owner.client, '协作');
    const doc = await text(owner.client, 'draft.txt', 'one', folder.id);
    await share(owner.client, [folder.id], [{ type: 'user', id: carol.id }], 'edit');

    const renamed = await carol.client.post<{ data: FileEntry }>(API.rename, { id: doc.id, name: 'draft-v2.txt' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expectError(await carol.client.post(API.rename, { id: folder.id, name: '改名' }), ERRORS.SHARE_EDIT_LIMITED.code);
    // Moving, deleting and locking stay the owner's, with 编辑 too.
    for (const res of [
      await carol.client.post(API.removeFiles, { ids: [doc.id] }),
      await carol.client.post(API.lock, { ids: [doc.id] }),
      await carol.client.post(API.move, { ids: [doc.id], targetParentId: null, targetCategory: 1 }),
    ]) {
      expectError(res, ERRORS.SHARE_EDIT_LIMITED.code);
    }

    // A new version through the upload protocol: the file keeps its owner, carol's content is the current one.
    const up = await uploadFile(carol.client, Buffer.from('two, by carol'), 'draft-v2.txt', { parentId: folder.id, onConflict: 'newVersion' });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.data.id).toBe(doc.id);
    expect(up.body.data.ownerId).toBe(owner.id);
    const got = await owner.client.raw(downloadUrl(doc.id));
    expect(await got.text()).toBe('two, by carol');
    // A new file in someone else's folder is refused, whatever the name.
    const fresh = await uploadFile(carol.client, Buffer.from('new'), 'new-file.txt', { parentId: folder.id, onConflict: 'newVersion' });
    expect(fresh.status).toBe(400);
    expect([ERRORS.SHARE_EDIT_LIMITED.code, ERRORS.FORBIDDEN.code]).toContain(fresh.body.errorCode);

    const versions = await carol.client.post<{ data: VersionListResponse }>(API.versionList, { id: doc.id });
    const first = versions.body.data.versions.find((v) => !v.current)!;
    const restored = await carol.client.post<{ data: IdsResponse }>(API.versionRestore, { id: doc.id, versionId: first.id });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(await (await owner.client.raw(downloadUrl(doc.id))).text()).toBe('one');

    const can = await carol.client.get<{ data: CanOperationResponse }>(`${API.canOperationForShare}?id=${doc.id}`);
    expect(can.body.data).toMatchObject({ canEdit: true, reason: null, editorAvailable: false });
    // A single file shared alone with 编辑: its new version goes into a folder carol cannot see.
    const alone = await text(owner.client, 'alone.txt', 'a', folder.id);
    const other = await mkdir(owner.client, 'hidden');
    const moved = await owner.client.post(API.move, { ids: [alone.id], targetParentId: other.id, targetCategory: 1 });
    expect(moved.status).toBe(200);
    await share(owner.client, [alone.id], [{ type: 'user', id: dave.id }], 'edit');
    const v = await uploadFile(dave.client, Buffer.from('b'), 'alone.txt', { parentId: other.id, onConflict: 'newVersion' });
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    expect((await dave.client.post(API.shareFileList, { parentId: other.id })).status).toBe(404);
    const viewer = await dave.client.get<{ data: CanOperationResponse }>(`${API.canOperationForShare}?id=${doc.id}`);
    expect(viewer.status).toBe(404);
  });
});

describe('another tenant', () => {
  it('never reaches a share: its admin gets 404 for every shared id and its 共享文件 stays empty', async () => {
    const f = await text(owner.client, 'tenant-one.txt', 'one');
    const [s] = (await share(owner.client, [f.id], [{ type: 'user', id: carol.id }], 'download')).shares;
    await addTenantWithUser(server, 'foreign', 'Foreign@2024');
    await withDb(server, (db) => db.prepare("update users set role = 'admin' where username = 'foreign'").run());
    const foreign = await loggedInClient(server, { username: 'foreign', password: 'Foreign@2024' });
    expect((await sharedList(foreign)).items).toEqual([]);
    for (const path of [downloadUrl(f.id), previewUrl(f.id)]) expect((await foreign.get(path)).status).toBe(404);
    expect((await foreign.post(API.shareFileList, { parentId: f.id })).status).toBe(404);
    expectError(await foreign.post(API.shareUpdate, { id: s!.id, permission: 'edit' }), ERRORS.SHARE_NOT_FOUND.code, 404);
    expectError(await foreign.post(API.shareRevoke, { ids: [s!.id] }), ERRORS.SHARE_NOT_FOUND.code, 404);
    expectError(await foreign.post(API.shareCreate, { fileIds: [f.id], recipients: [{ type: 'user', id: carol.id }], permission: 'download', validityDays: 0 }), ERRORS.NOT_FOUND.code, 404);
    const theirs = await text(foreign, 'theirs.txt', 'x');
    expectError(await foreign.post(API.shareCreate, { fileIds: [theirs.id], recipients: [{ type: 'user', id: carol.id }], permission: 'download', validityDays: 0 }), ERRORS.USER_NOT_FOUND.code, 404);
  });
});
