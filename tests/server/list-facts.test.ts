import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { FileEntry, FileListResponse } from '../../common/api/types';
import { createGroup, entries, mkdir, text } from './file-kit';
import { type Client, startServerWithMember, type TestServer } from './helpers';

/**
 * What a folder list says beyond its rows, right in the very next list after it changed: the caller's
 * favorites (read by the page query itself, FileRepository.list `favoritesOf`) and the tenant's
 * sensitive keywords (a per-process cache, TenantSettingsCache, dropped by every change). The same
 * across processes: several-processes.test.ts.
 */
let server: TestServer;
let admin: Client;
let member: Client;
beforeAll(async () => {
  ({ server, admin, member } = await startServerWithMember());
});
afterAll(async () => {
  await server.close();
});

const favoriteOf = (items: FileEntry[]) => Object.fromEntries(items.map((e) => [e.name, e.favorite]));
const sensitiveOf = (items: FileEntry[]) => Object.fromEntries(items.map((e) => [e.name, e.sensitive]));

async function favorite(client: Client, ids: string[], on: boolean): Promise<void> {
  const res = await client.post(on ? API.favoriteAdd : API.favoriteRemove, { ids });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function setKeywords(words: string[]): Promise<void> {
  const res = await admin.post(API.fileSecurityUpdate, { sensitiveKeywords: words });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Every page of a folder, pageSize at a time (the cursor's pages read favorites too). */
async function allPages(client: Client, parentId: string | null, pageSize: number, extra: Record<string, unknown> = {}): Promise<FileEntry[]> {
  const items: FileEntry[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; body: { data: FileListResponse } } = await client.post<{ data: FileListResponse }>(API.fileList, { parentId, category: 1, pageSize, cursor, ...extra });
    expect(res.status).toBe(200);
    items.push(...res.body.data.items);
    cursor = res.body.data.nextCursor;
  } while (cursor);
  return items;
}

describe('favorites in the folder list', () => {
  it('a favorite set or unset shows in the next list: root and sub-folder, folders and files, every page', async () => {
    const folder = await mkdir(admin, '收藏夹测试');
    const a = await mkdir(admin, 'a 目录', folder.id);
    const b = await text(admin, 'b.txt', 'b', folder.id);
    const c = await text(admin, 'c.txt', 'c', folder.id);
    const d = await mkdir(admin, 'd 目录', folder.id);
    expect(favoriteOf(await entries(admin, folder.id))).toEqual({ 'a 目录': false, 'd 目录': false, 'b.txt': false, 'c.txt': false });

    await favorite(admin, [folder.id, a.id, c.id], true);
    expect(favoriteOf(await entries(admin, null))['收藏夹测试']).toBe(true);
    expect(favoriteOf(await entries(admin, folder.id))).toEqual({ 'a 目录': true, 'd 目录': false, 'b.txt': false, 'c.txt': true });
    // Pages of one entry: each page's rows carry their own mark (folders' query and files' query).
    expect(favoriteOf(await allPages(admin, folder.id, 1))).toEqual({ 'a 目录': true, 'd 目录': false, 'b.txt': false, 'c.txt': true });

    await favorite(admin, [a.id, folder.id], false);
    await favorite(admin, [b.id, d.id], true);
    expect(favoriteOf(await entries(admin, null))['收藏夹测试']).toBe(false);
    expect(favoriteOf(await allPages(admin, folder.id, 3))).toEqual({ 'a 目录': false, 'd 目录': true, 'b.txt': true, 'c.txt': true });
    // The favorites page agrees with the list.
    const favs = await admin.post<{ data: FileListResponse }>(API.favoriteList, {});
    expect(favs.body.data.items.map((e) => e.name).sort()).toEqual(['b.txt', 'c.txt', 'd 目录']);
  });

  it("in a group folder each member sees their own favorites, never another's", async () => {
    const group = await createGroup(admin, '收藏小组');
    expect((await admin.post(API.groupMemberAdd, { id: group.id, username: 'member' })).status).toBe(200);
    const x = await text(admin, 'x.txt', 'x', null, { spaceId: group.id });
    const y = await text(member, 'y.txt', 'y', null, { spaceId: group.id });
    await favorite(admin, [x.id], true);
    await favorite(member, [y.id], true);
    expect(favoriteOf(await entries(admin, null, { spaceId: group.id }))).toEqual({ 'x.txt': true, 'y.txt': false });
    expect(favoriteOf(await entries(member, null, { spaceId: group.id }))).toEqual({ 'x.txt': false, 'y.txt': true });
    await favorite(admin, [x.id], false);
    await favorite(admin, [y.id], true);
    expect(favoriteOf(await entries(admin, null, { spaceId: group.id }))).toEqual({ 'x.txt': false, 'y.txt': true });
    expect(favoriteOf(await entries(member, null, { spaceId: group.id }))).toEqual({ 'x.txt': false, 'y.txt': true });
  });
});

describe("the tenant's sensitive keywords in the folder list", () => {
  it('a change of the keywords marks entries in the very next list (the cached settings are dropped)', async () => {
    const folder = await mkdir(admin, '敏感词测试');
    await mkdir(admin, '甲方合同', folder.id);
    await mkdir(admin, '乙方报价', folder.id);
    await mkdir(member, '甲方会议');
    // Listed first, so the settings are cached before each change.
    expect(sensitiveOf(await entries(admin, folder.id))).toEqual({ 甲方合同: false, 乙方报价: false });
    expect(sensitiveOf(await entries(member, null))).toEqual({ 甲方会议: false });
    await setKeywords(['甲方']);
    expect(sensitiveOf(await entries(admin, folder.id))).toEqual({ 甲方合同: true, 乙方报价: false });
    // Every user of the tenant sees the change (the cached settings are the tenant's).
    expect(sensitiveOf(await entries(member, null))).toEqual({ 甲方会议: true });
    await setKeywords(['报价']);
    expect(sensitiveOf(await entries(admin, folder.id))).toEqual({ 甲方合同: false, 乙方报价: true });
    expect(sensitiveOf(await entries(member, null))).toEqual({ 甲方会议: false });
    await setKeywords([]);
    expect(sensitiveOf(await entries(admin, folder.id))).toEqual({ 甲方合同: false, 乙方报价: false });
  });
});
