import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API, downloadUrl } from '../../common/api/paths';
import type { FileEntry, VersionListResponse } from '../../common/api/types';
import type { FileVersionCheckResponse } from '../../common/transfer/checks';
import { expectError, mkdir, text } from './file-kit';
import {
  addTenantWithUser,
  ADMIN,
  describeFile,
  liftPasswordGate,
  loggedInClient,
  MEMBER,
  putChunk,
  startServer,
  TEST_CHUNK_SIZE,
  userIdOf,
  withDb,
  type Answer,
  type Client,
  type TestServer,
} from './helpers';
import { secondUpload } from './second-upload-kit';
import { department, person, share, type Person } from './sharing-kit';

/**
 * 上传新版本 addresses the file by its id (versionOf), end to end: fileVersion/check, chunk/exist,
 * chunk/merge and second upload. A file shared with 编辑 at its owner's top level takes a new version
 * (parentId null would name the uploader's own root); preview and download grants are refused with
 * the coded error; another tenant's id answers 404 like an unknown one.
 */
let server: TestServer;
let admin: Client;
let owner: Person;
let carol: Person; // 编辑
let dave: Person; // 下载
let erin: Person; // 预览
let foreign: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  await liftPasswordGate(server, MEMBER.username);
  owner = { id: await userIdOf(server, 'member'), account: 'member', client: await loggedInClient(server, MEMBER) };
  const dept = await department(admin, '协作部');
  carol = await person(server, admin, 'vcarol', dept);
  dave = await person(server, admin, 'vdave', dept);
  erin = await person(server, admin, 'verin', dept);
  await addTenantWithUser(server, 'vforeign', 'Foreign@2024');
  foreign = await loggedInClient(server, { username: 'vforeign', password: 'Foreign@2024' });
});
afterAll(async () => {
  await server.close();
});

/** chunk/exist, the chunks and chunk/merge of `content` as a new version of `versionOf`; the first refusal's answer, or the merge's. */
async function uploadVersion(client: Client, content: Buffer, versionOf: string, name = 'ignored.txt'): Promise<Answer<{ data: FileEntry; errorCode?: string }>> {
  const { chunkDigests, fingerprint } = describeFile(content);
  const place = { name, parentId: null, category: 1 };
  const open = await client.post<{ data: { uploadId: string; chunkCount: number }; errorCode?: string }>(API.chunkExist, {
    fingerprint,
    size: content.length,
    chunkSize: TEST_CHUNK_SIZE,
    chunkDigests,
    ...place,
    versionOf,
  });
  if (open.status !== 200) return open as never;
  for (let i = 0; i < open.body.data.chunkCount; i++) {
    const res = await putChunk(client, open.body.data.uploadId, i, content.subarray(i * TEST_CHUNK_SIZE, (i + 1) * TEST_CHUNK_SIZE));
    expect(res.status).toBe(200);
  }
  return client.post(API.chunkMerge, { uploadId: open.body.data.uploadId, ...place, onConflict: 'newVersion', versionOf });
}

const versionCheck = (client: Client, name: string, versionOf: string) =>
  client.post<{ data: FileVersionCheckResponse }>(API.fileVersionCheck, { name, parentId: null, category: 1, versionOf });

const usedSize = (userId: string) =>
  withDb(server, (db) => Number((db.prepare('select used_size from users where id = ?').get(userId) as { used_size: number }).used_size));

const versionsOf = async (client: Client, id: string) => (await client.post<{ data: VersionListResponse }>(API.versionList, { id })).body.data.versions;

describe('a file shared at its owner’s top level', () => {
  let top: FileEntry;

  beforeAll(async () => {
    top = await text(owner.client, '顶层文档.txt', 'v1 by owner');
    await share(owner.client, [top.id], [{ type: 'user', id: carol.id }], 'edit');
    await share(owner.client, [top.id], [{ type: 'user', id: dave.id }], 'download');
    await share(owner.client, [top.id], [{ type: 'user', id: erin.id }], 'preview');
  });

  it('fileVersion/check by id finds it for an editor (by name it would look in the caller’s own root)', async () => {
    const res = await versionCheck(carol.client, top.name, top.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ exists: true, fileId: top.id, replaceable: true, locked: false });
    // Download-only: the file is there, but the caller may not give it new content.
    const ro = await versionCheck(dave.client, top.name, top.id);
    expect(ro.status, JSON.stringify(ro.body)).toBe(200);
    expect(ro.body.data).toMatchObject({ exists: true, fileId: top.id, replaceable: false });
  });

  it('an editor’s new version lands on the owner’s file: the owner sees 2 versions, the log names it, the uploader is charged as for a shared folder', async () => {
    const carolBefore = await usedSize(carol.id);
    const ownerBefore = await usedSize(owner.id);
    const content = Buffer.from('v2 by carol, through a share at the top level');
    const up = await uploadVersion(carol.client, content, top.id);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.data).toMatchObject({ id: top.id, name: top.name, ownerId: owner.id, parentId: null });
    expect(await (await owner.client.raw(downloadUrl(top.id))).text()).toBe(content.toString());
    const versions = await versionsOf(owner.client, top.id);
    expect(versions).toHaveLength(2);
    expect(versions[0]).toMatchObject({ current: true, size: content.length });
    // Nothing appeared in carol's own root.
    const mine = await carol.client.post<{ data: { items: FileEntry[] } }>(API.fileList, { parentId: null, category: 1, pageSize: 100 });
    expect(mine.body.data.items.map((i) => i.name)).not.toContain(top.name);
    // The action log: one 上传新版本 row by carol on the owner's file.
    const log = await admin.post<{ data: { items: Array<{ action: string; actor: { id: string } | null; targets: Array<{ type: string; id: string }> }> } }>(API.actionLogList, {
      actions: ['file.versionNew'],
    });
    expect(log.body.data.items.filter((r) => r.actor?.id === carol.id && r.targets.some((t) => t.id === top.id))).toHaveLength(1);
    // Quota: the same account pays as when carol adds a version to a file in a folder shared with 编辑 (the uploader).
    expect(await usedSize(carol.id)).toBe(carolBefore + content.length);
    expect(await usedSize(owner.id)).toBe(ownerBefore);
  });

  it('second upload (content the tenant stores) with versionOf also becomes the owner’s file’s next version', async () => {
    const before = (await versionsOf(owner.client, top.id)).length;
    const { answer } = await secondUpload(carol.client, Buffer.from('v1 by owner'), top.name, { onConflict: 'newVersion', extra: { versionOf: top.id } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toMatchObject({ status: 'created', file: { id: top.id, ownerId: owner.id } });
    expect(await versionsOf(owner.client, top.id)).toHaveLength(before + 1);
  });

  it('download-only and preview-only grants are refused with the coded error, before a byte is sent', async () => {
    const before = (await versionsOf(owner.client, top.id)).length;
    for (const who of [dave, erin]) {
      const res = await uploadVersion(who.client, Buffer.from(`not allowed: ${who.account}`), top.id);
      expectError(res, ERRORS.FORBIDDEN.code);
    }
    // And at the merge itself (a session opened the old way, by place, then merged by id).
    const content = Buffer.from('dave tries the merge');
    const { chunkDigests, fingerprint } = describeFile(content);
    const open = await dave.client.post<{ data: { uploadId: string } }>(API.chunkExist, { fingerprint, size: content.length, chunkSize: TEST_CHUNK_SIZE, chunkDigests, name: 'd.txt', parentId: null, category: 1 });
    expect((await putChunk(dave.client, open.body.data.uploadId, 0, content)).status).toBe(200);
    expectError(await dave.client.post(API.chunkMerge, { uploadId: open.body.data.uploadId, name: 'd.txt', parentId: null, category: 1, onConflict: 'newVersion', versionOf: top.id }), ERRORS.FORBIDDEN.code);
    expect(await versionsOf(owner.client, top.id)).toHaveLength(before);
  });

  it('another tenant’s user gets 404 for the id, as for an unknown one', async () => {
    expectError(await versionCheck(foreign, top.name, top.id), ERRORS.NOT_FOUND.code, 404);
    expectError(await uploadVersion(foreign, Buffer.from('foreign'), top.id), ERRORS.NOT_FOUND.code, 404);
    expectError(await uploadVersion(carol.client, Buffer.from('unknown'), 'no-such-file-00000000'), ERRORS.NOT_FOUND.code, 404);
  });

  it('versionOf only with onConflict newVersion, and never a folder', async () => {
    const folder = await mkdir(owner.client, '顶层文件夹');
    await share(owner.client, [folder.id], [{ type: 'user', id: carol.id }], 'edit');
    const res = await uploadVersion(carol.client, Buffer.from('into a folder?'), folder.id);
    expect(res.status).toBe(400);
    const content = Buffer.from('wrong policy');
    const { chunkDigests, fingerprint } = describeFile(content);
    const open = await carol.client.post<{ data: { uploadId: string } }>(API.chunkExist, { fingerprint, size: content.length, chunkSize: TEST_CHUNK_SIZE, chunkDigests, name: 'p.txt', parentId: null, category: 1 });
    expect((await putChunk(carol.client, open.body.data.uploadId, 0, content)).status).toBe(200);
    expectError(await carol.client.post(API.chunkMerge, { uploadId: open.body.data.uploadId, name: 'p.txt', parentId: null, category: 1, onConflict: 'rename', versionOf: top.id }), ERRORS.VALIDATION.code);
  });
});
