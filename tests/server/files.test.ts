import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { FileCatalogResponse, FileEntry, FileListResponse } from '../../common/api/types';
import { FORBIDDEN_NAME_CHARS } from '../../common/validation/names';
import { type Client, startServerAsAdmin, type TestServer } from './helpers';

let server: TestServer;
let admin: Client;
beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
});
afterAll(async () => {
  await server.close();
});

async function mkdir(name: string, parentId: string | null = null, category = 1): Promise<FileEntry> {
  const res = await admin.post<{ data: FileEntry }>(API.mkdir, { parentId, category, name });
  if (res.status !== 200) throw new Error(`mkdir ${name}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function list(parentId: string | null, extra: Record<string, unknown> = {}, category = 1) {
  return admin.post<{ data: FileListResponse }>(API.fileList, { parentId, category, ...extra });
}

describe('folders: list, mkdir, rename', () => {
  it('creates a folder (trimmed name) and lists it', async () => {
    const root = await mkdir('  项目资料  ');
    expect(root).toMatchObject({ name: '项目资料', isDir: true, parentId: null, kind: 'folder', size: 0, category: 1 });
    const res = await list(null);
    expect(res.status).toBe(200);
    expect(res.body.data.items.map((i) => i.name)).toContain('项目资料');
    // Another category does not see it.
    const synced = await list(null, {}, 4);
    expect(synced.body.data.items.map((i) => i.name)).not.toContain('项目资料');
  });

  it('refuses every forbidden character, empty and too long names', async () => {
    for (const ch of FORBIDDEN_NAME_CHARS) {
      const res = await admin.post(API.mkdir, { parentId: null, category: 1, name: `bad${ch}name` });
      expect(res.status, ch).toBe(400);
      expect(res.body, ch).toEqual({ errorCode: ERRORS.NAME_INVALID_CHARS.code, errorMessage: ERRORS.NAME_INVALID_CHARS.message });
    }
    expect(FORBIDDEN_NAME_CHARS).toHaveLength(10);
    expect((await admin.post(API.mkdir, { parentId: null, category: 1, name: '   ' })).body).toMatchObject({
      errorCode: ERRORS.NAME_EMPTY.code,
    });
    expect((await admin.post(API.mkdir, { parentId: null, category: 1, name: 'a'.repeat(256) })).body).toMatchObject({
      errorCode: ERRORS.NAME_TOO_LONG.code,
    });
    const names = (await list(null)).body.data.items.map((i) => i.name);
    expect(names.some((n) => n.startsWith('bad'))).toBe(false);
  });

  it('refuses schema-invalid bodies with 400 REQ-2001', async () => {
    const res = await admin.post(API.mkdir, { parentId: null, category: 'one', name: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: ERRORS.VALIDATION.code });
    expect(typeof (res.body as { errorMessage: string }).errorMessage).toBe('string');
    const missing = await admin.post(API.fileList, { category: 1 });
    expect(missing.body).toMatchObject({ errorCode: ERRORS.VALIDATION.code });
  });

  it('refuses duplicate names in a folder, case-insensitively', async () => {
    await mkdir('Reports');
    for (const name of ['Reports', 'reports', ' REPORTS ']) {
      const res = await admin.post(API.mkdir, { parentId: null, category: 1, name });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ errorCode: ERRORS.NAME_CONFLICT.code });
    }
    // Same name in a different folder is fine.
    const parent = await mkdir('Archive');
    await expect(mkdir('Reports', parent.id)).resolves.toMatchObject({ name: 'Reports', parentId: parent.id });
  });

  it('renames; renaming onto a sibling name changes nothing; same name is a no-op', async () => {
    const a = await mkdir('alpha');
    const b = await mkdir('beta');
    const renamed = await admin.post<{ data: FileEntry }>(API.rename, { id: a.id, name: 'alpha-2' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ id: a.id, name: 'alpha-2' });

    const clash = await admin.post(API.rename, { id: b.id, name: 'ALPHA-2' });
    expect(clash.status).toBe(400);
    expect(clash.body).toMatchObject({ errorCode: ERRORS.NAME_CONFLICT.code });
    const names = (await list(null, { pageSize: 500 })).body.data.items.map((i) => i.name);
    expect(names).toContain('beta');
    expect(names).toContain('alpha-2');

    const same = await admin.post<{ data: FileEntry }>(API.rename, { id: b.id, name: 'beta' });
    expect(same.status).toBe(200);
    expect(same.body.data).toMatchObject({ id: b.id, name: 'beta', updatedAt: b.updatedAt });

    const bad = await admin.post(API.rename, { id: b.id, name: 'be/ta' });
    expect(bad.body).toMatchObject({ errorCode: ERRORS.NAME_INVALID_CHARS.code });
    const unknown = await admin.post(API.rename, { id: 'AAAAAAAAAAAAAAAAAAAAAA', name: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ errorCode: ERRORS.NOT_FOUND.code });
  });

  it('answers 404 for a parentId that is not the caller’s folder', async () => {
    const res = await list('AAAAAAAAAAAAAAAAAAAAAA');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ errorCode: ERRORS.NOT_FOUND.code, errorMessage: ERRORS.NOT_FOUND.message });
  });

  it('pages through 250 folders with a keyset cursor: sorted, no duplicates, no gaps', async () => {
    const parent = await mkdir('many');
    const names = Array.from({ length: 250 }, (_, i) => `dir-${String(i).padStart(3, '0')}`);
    // Created in a shuffled order so the sort is the server's doing.
    const shuffled = [...names].sort(() => Math.random() - 0.5);
    for (let i = 0; i < shuffled.length; i += 25) await Promise.all(shuffled.slice(i, i + 25).map((n) => mkdir(n, parent.id)));

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: Awaited<ReturnType<typeof list>> = await list(parent.id, { pageSize: 100, cursor });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.items.map((i) => i.name));
      cursor = res.body.data.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(names);

    // Descending by name, pages of 100.
    const desc: string[] = [];
    cursor = null;
    do {
      const res: Awaited<ReturnType<typeof list>> = await list(parent.id, { pageSize: 100, cursor, sortOrder: 'desc' });
      desc.push(...res.body.data.items.map((i) => i.name));
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(desc).toEqual([...names].reverse());

    // A cursor from one sort is refused for another.
    const first = await list(parent.id, { pageSize: 100 });
    const other = await list(parent.id, { pageSize: 100, sortOrder: 'desc', cursor: first.body.data.nextCursor });
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ errorCode: ERRORS.VALIDATION.code });
    expect((await list(parent.id, { pageSize: 501 })).status).toBe(400);
  });

  it('returns the folder path root first', async () => {
    const a = await mkdir('level-a');
    const b = await mkdir('level-b', a.id);
    const c = await mkdir('level-c', b.id);
    const res = await admin.post<{ data: FileCatalogResponse }>(API.fileCatalog, { id: c.id });
    expect(res.status).toBe(200);
    expect(res.body.data.path).toEqual([
      { id: a.id, name: 'level-a' },
      { id: b.id, name: 'level-b' },
      { id: c.id, name: 'level-c' },
    ]);
    expect((await admin.post<{ data: FileCatalogResponse }>(API.fileCatalog, { id: null })).body.data.path).toEqual([]);
    expect((await admin.post(API.fileCatalog, { id: 'AAAAAAAAAAAAAAAAAAAAAA' })).status).toBe(404);
  });
});
