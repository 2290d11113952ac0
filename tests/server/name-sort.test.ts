import os from 'node:os';
import path from 'node:path';
import { promises as fsp } from 'node:fs';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { FileEntry, FileListResponse } from '../../common/api/types';
import { nameSortKey } from '../../common/files/name-sort-key';
import { mkdir, text } from './file-kit';
import { type Client, startServerAsAdmin, type TestServer, withDb } from './helpers';
import { insertTenantAndMember, migrate } from './migration-kit';

/**
 * Names sort as people read them (issue 20): Chinese by pinyin, numbers by value, on the server's
 * stored key, so every keyset page follows the order the collator gives, from the first to the last;
 * every way a name changes keeps the key in step; migration 0060 keys rows written before it.
 */
const collator = new Intl.Collator('zh-CN', { numeric: true });
let server: TestServer;
let admin: Client;
beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
});
afterAll(async () => {
  await server.close();
});

async function allPages(parentId: string, sortOrder: 'asc' | 'desc', pageSize = 2): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; body: { data: FileListResponse } } = await admin.post<{ data: FileListResponse }>(API.fileList, {
      parentId,
      category: 1,
      pageSize,
      sortField: 'name',
      sortOrder,
      ...(cursor ? { cursor } : {}),
    });
    expect(res.status).toBe(200);
    out.push(...res.body.data.items.map((i) => i.name));
    cursor = res.body.data.nextCursor;
  } while (cursor);
  return out;
}

describe('name order', () => {
  const folders = ['重要', '阿里巴巴', 'Beta', 'alpha', '第10期', '第2期'];
  const files = ['文件10.txt', '文件2.txt', '文件1.txt', '张三.txt', '报告.txt', '中国.txt', 'apple.txt', 'Zebra.txt', '蓝天.txt', '绿地.txt', 'file (10).txt', 'file (9).txt'];
  let parent: FileEntry;

  beforeAll(async () => {
    parent = await mkdir(admin, '排序');
    for (const f of folders) await mkdir(admin, f, parent.id);
    for (const f of files) await text(admin, f, f, parent.id);
  });

  it('pages through folders, then files, in pinyin and natural order, both ways, in pages of 2', async () => {
    const expected = [...[...folders].sort(collator.compare), ...[...files].sort(collator.compare)];
    expect(await allPages(parent.id, 'asc')).toEqual(expected);
    expect(expected.indexOf('文件2.txt')).toBeLessThan(expected.indexOf('文件10.txt'));
    expect(expected.indexOf('报告.txt')).toBeLessThan(expected.indexOf('张三.txt'));
    const descending = [...[...folders].sort(collator.compare).reverse(), ...[...files].sort(collator.compare).reverse()];
    expect(await allPages(parent.id, 'desc', 3)).toEqual(descending);
  });

  it('gives keyword search results in the same order, page after page', async () => {
    const found: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = new URLSearchParams({ keyword: '文件', pageSize: '2', ...(cursor ? { cursor } : {}) }).toString();
      const res: { status: number; body: { data: FileListResponse } } = await admin.get<{ data: FileListResponse }>(`${API.unifiedSearch}?${query}`);
      expect(res.status).toBe(200);
      found.push(...res.body.data.items.map((i) => i.name));
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(found).toEqual(['文件1.txt', '文件2.txt', '文件10.txt']);
  });

  it('keeps the key in step with every rename, move with a new name, copy and restore', async () => {
    const moved = await text(admin, 'x.txt', 'x');
    const renamedFile = await text(admin, '待改名.txt', 'y', parent.id);
    expect((await admin.post(API.rename, { id: renamedFile.id, name: '啊.txt' })).status).toBe(200);
    // a clash on move answered with 'rename' gives the moved entry a new name
    await text(admin, 'x.txt', 'taken', parent.id);
    expect((await admin.post(API.move, { ids: [moved.id], targetParentId: parent.id, targetCategory: 1, decisions: { [moved.id]: 'rename' } })).status).toBe(200);
    expect((await admin.post(API.copy, { ids: [renamedFile.id], targetParentId: null, targetCategory: 1 })).status).toBe(200);
    expect((await admin.post(API.removeFiles, { ids: [renamedFile.id] })).status).toBe(200);
    expect((await admin.post(API.recycleRestore, { ids: [renamedFile.id] })).status).toBe(200);
    const rows = await withDb(server, (db) => db.prepare('select name, sort_key from files').all() as Array<{ name: string; sort_key: string }>);
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows.filter((r) => !r.name.startsWith('space:'))) expect(row.sort_key, row.name).toBe(nameSortKey(row.name));
    const shown = await allPages(parent.id, 'asc', 50);
    const shownFiles = shown.filter((n) => n.includes('.'));
    expect(shownFiles).toEqual([...shownFiles].sort(collator.compare));
    expect(shownFiles[0]).toBe('啊.txt');
  });
});

describe('migration 0060 on existing rows', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'sort-migration-'));
  });
  afterAll(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('keys every row written before it and lists names through the new index', async () => {
    const file = path.join(dir, 'drive.sqlite');
    await migrate(file, '0041_blob_intents');
    const raw = new SQLite(file);
    insertTenantAndMember(raw);
    const insert = raw.prepare(
      `insert into files (id, tenant_id, owner_id, parent_id, category, name, name_key, is_dir, size, blob_id, created_at, updated_at)
       values (?, 't', 'u', null, 1, ?, ?, 0, 0, null, 1, 1)`,
    );
    const names = ['文件10', '文件2', '张三', '阿里'];
    names.forEach((n, i) => insert.run(`f${i}`, n, n.toLowerCase()));
    raw.close();
    await migrate(file);
    const db = new SQLite(file, { readonly: true });
    try {
      const rows = db.prepare('select name, sort_key from files').all() as Array<{ name: string; sort_key: string }>;
      for (const r of rows) expect(r.sort_key).toBe(nameSortKey(r.name));
      const listed = db.prepare(`select name from files indexed by files_root_sort where tenant_id = 't' and owner_id = 'u' and category = 1 and is_dir = 0 and parent_id is null and deleted_at is null order by sort_key, id`).all() as Array<{ name: string }>;
      expect(listed.map((r) => r.name)).toEqual(['阿里', '文件2', '文件10', '张三']);
      expect(db.prepare("select name from sqlite_master where type = 'index' and name in ('files_root_name', 'files_child_name')").all()).toEqual([]);
    } finally {
      db.close();
    }
  });
});
