/**
 * The desktop sync's server side against the real server: the subtree listing and its token, the
 * tenant's verdicts, deletes guarded by a digest, uploads guarded by ifMatch, the admin's syncTime.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { FileEntry, SynCheckResponse, SynContentResponse, SynRemoveResponse, VersionListResponse } from '../../common/api/types';
import { FILE_CATEGORY } from '../../common/api/types';
import { subtreeOf, treeDigestInput } from '../../common/sync/tree-digest';
import { expectError, mkdir } from './file-kit';
import { secondUpload } from './second-upload-kit';
import type { Client} from './helpers';
import { describeFile, loggedInClient, putChunk, startServer, TEST_CHUNK_SIZE, type Answer, type TestServer } from './helpers';

let server: TestServer;
let admin: Client;
let root: FileEntry;

const synced = { category: FILE_CATEGORY.synced };

async function upload(content: Buffer, name: string, parentId: string, extra: Record<string, unknown> = {}): Promise<Answer<{ data: FileEntry; errorCode?: string }>> {
  const { chunkDigests, fingerprint } = describeFile(content);
  const open = await admin.post<{ data: { uploadId: string; chunkCount: number; existingChunks: number[] } }>(API.chunkExist, {
    fingerprint,
    size: content.length,
    chunkSize: TEST_CHUNK_SIZE,
    chunkDigests,
    name,
    parentId,
    category: FILE_CATEGORY.synced,
  });
  expect(open.status).toBe(200);
  const { uploadId, chunkCount, existingChunks } = open.body.data;
  for (let i = 0; i < chunkCount; i++) {
    if (!existingChunks.includes(i)) expect((await putChunk(admin, uploadId, i, content.subarray(i * TEST_CHUNK_SIZE, (i + 1) * TEST_CHUNK_SIZE))).status).toBe(200);
  }
  return admin.post(API.chunkMerge, { uploadId, name, parentId, category: FILE_CATEGORY.synced, ...extra });
}

const content = (rootId: string, token: string | null = null) => admin.post<{ data: SynContentResponse }>(API.syncContent, { rootId, token });
const digestOf = (id: string, items: SynContentResponse['items']) => createHash('sha256').update(treeDigestInput(subtreeOf(id, items))).digest('hex');

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server);
  root = await mkdir(admin, '笔记本', null, synced);
});

afterAll(async () => {
  await server?.close();
});

describe('POST /api/syn/content', () => {
  it('lists the whole subtree with fingerprints, and answers unchanged while nothing changed', async () => {
    const docs = await mkdir(admin, '文档', root.id, synced);
    const bytes = Buffer.from('第一版内容');
    const file = (await upload(bytes, 'a.txt', docs.id)).body.data;
    const first = await content(root.id);
    expect(first.status).toBe(200);
    const listing = first.body.data;
    expect(listing.unchanged).toBe(false);
    expect(listing.syncTime).toBe(30);
    expect(listing.items.map((e) => [e.name, e.parentId === root.id ? 'root' : e.parentId === docs.id ? 'docs' : '?', e.isDir])).toEqual([
      ['文档', 'root', true],
      ['a.txt', 'docs', false],
    ]);
    const entry = listing.items.find((e) => e.id === file.id)!;
    expect(entry.fingerprint).toBe(describeFile(bytes).fingerprint);
    expect(entry.size).toBe(bytes.length);
    expect(entry.lockedByOther).toBe(false);

    const again = (await content(root.id, listing.token)).body.data;
    expect(again).toMatchObject({ unchanged: true, items: [], token: listing.token });

    // Any change in the subtree changes the token: a rename deep down.
    expect((await admin.post(API.rename, { id: file.id, name: 'b.txt' })).status).toBe(200);
    const after = (await content(root.id, listing.token)).body.data;
    expect(after.unchanged).toBe(false);
    expect(after.items.map((e) => e.name)).toContain('b.txt');
  });

  it('refuses a folder outside 同步文件, and another account\u2019s folder is unknown', async () => {
    const personal = await mkdir(admin, '个人', null, { category: FILE_CATEGORY.personal });
    expectError(await content(personal.id), 'SYN-5002');
    const unknown = await content('no-such-folder');
    expect(unknown.status).toBe(404);
  });
});

describe('POST /api/syn/check', () => {
  it('judges names by the tenant\u2019s rules: blocked type, classification mark, sensitive keyword', async () => {
    const res = await admin.post<{ data: SynCheckResponse }>(API.syncCheck, {
      items: [
        { key: '1', name: '工具.exe', size: 10 },
        { key: '2', name: '机密★五年 计划.docx', size: 10 },
        { key: '3', name: '绝密资料.txt', size: 10 },
        { key: '4', name: '会议纪要.txt', size: 10 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.results.map((r) => [r.key, r.verdict])).toEqual([
      ['1', 'intercepted'],
      ['2', 'secret'],
      ['3', 'sensitive'],
      ['4', 'ok'],
    ]);
    expect(res.body.data.results[2]!.reason).toContain('绝密');
  });
});

describe('POST /api/syn/remove', () => {
  it('removes what is as listed, and leaves alone what changed since', async () => {
    const dir = await mkdir(admin, '待删', root.id, synced);
    const keep = (await upload(Buffer.from('keep'), 'keep.txt', dir.id)).body.data;
    const gone = (await upload(Buffer.from('gone'), 'gone.txt', root.id)).body.data;
    const listing = (await content(root.id)).body.data;
    const dirDigest = digestOf(dir.id, listing.items);
    const goneDigest = digestOf(gone.id, listing.items);
    // Another device adds a file to the folder after the listing: the folder must stay.
    await upload(Buffer.from('new elsewhere'), 'new.txt', dir.id);
    const res = await admin.post<{ data: SynRemoveResponse }>(API.syncRemove, {
      items: [
        { id: gone.id, digest: goneDigest },
        { id: dir.id, digest: dirDigest },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ removed: [gone.id], changed: [dir.id] });
    const after = (await content(root.id)).body.data.items.map((e) => e.id);
    expect(after).not.toContain(gone.id);
    expect(after).toContain(keep.id);
    const bin = await admin.post<{ data: { items: FileEntry[] } }>(API.recycleList, {});
    expect(bin.body.data.items.map((e) => e.id)).toContain(gone.id);
    // Removing it again is not an error: it is gone already.
    expect((await admin.post<{ data: SynRemoveResponse }>(API.syncRemove, { items: [{ id: gone.id, digest: goneDigest }] })).body.data.removed).toEqual([gone.id]);
  });
});

describe('ifMatch on uploads (merge and second upload)', () => {
  it('makes a new version only of that file at that content; otherwise SYN-5001 and nothing changes', async () => {
    const v1 = Buffer.from('version one');
    const file = (await upload(v1, 'v.txt', root.id)).body.data;
    const v1Print = describeFile(v1).fingerprint;

    const stale = await upload(Buffer.from('stale write'), 'v.txt', root.id, { onConflict: 'newVersion', ifMatch: { fileId: file.id, fingerprint: '0'.repeat(64) } });
    expectError(stale, 'SYN-5001', 409);
    const wrongFile = await upload(Buffer.from('stale write'), 'v.txt', root.id, { onConflict: 'newVersion', ifMatch: { fileId: 'other-id', fingerprint: null } });
    expectError(wrongFile, 'SYN-5001', 409);
    let versions = (await admin.post<{ data: VersionListResponse }>(API.versionList, { id: file.id })).body.data.versions;
    expect(versions).toHaveLength(1);

    const v2 = Buffer.from('version two');
    const ok = await upload(v2, 'v.txt', root.id, { onConflict: 'newVersion', ifMatch: { fileId: file.id, fingerprint: v1Print } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.id).toBe(file.id);
    versions = (await admin.post<{ data: VersionListResponse }>(API.versionList, { id: file.id })).body.data.versions;
    expect(versions).toHaveLength(2);

    // Second upload of content the tenant already stores: the same guard.
    const claim = await secondUpload(admin, v1, 'v.txt', { parentId: root.id, onConflict: 'newVersion', extra: { category: FILE_CATEGORY.synced, ifMatch: { fileId: file.id, fingerprint: v1Print } } });
    expectError(claim.answer, 'SYN-5001', 409);
  });
});

describe('syncTime', () => {
  it('comes with each listing: the admin\u2019s minutes between full passes', async () => {
    const set = await admin.raw(API.modifySyncTime, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'syncTime=5' });
    expect(set.status).toBe(200);
    expect((await content(root.id)).body.data.syncTime).toBe(5);
  });
});
