import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import { createGroup, entries, names } from './file-kit';
import { type Client, type TestServer } from './helpers';
import { oneRowOf } from './action-log-kit';
import { startDav, type DavClient, encodePath, parseMultistatus } from './dav-kit';

let server: TestServer;
let admin: Client;
let dav: DavClient;

beforeAll(async () => {
  ({ server, admin, dav } = await startDav());
  await createGroup(admin, '项目组');
});
afterAll(async () => server?.close());

const dest = (path: string) => `${server.baseUrl}${encodePath(path)}`;
const listing = async (path: string) => parseMultistatus((await dav.propfind(path, '1')).text).slice(1).map((r) => r.path);

describe('MKCOL', () => {
  it('creates a folder (201, file.mkdir by webdav); 405 when it exists, 409 without a parent, 415 with a body, 400 for a bad name', async () => {
    const row = await oneRowOf(server, async () => expect((await dav.request('MKCOL', '/dav/个人文件/新建')).status).toBe(201));
    expect(row.action).toBe('file.mkdir');
    expect(row.platform).toBe('webdav');
    expect(await names(admin, null)).toContain('新建');
    expect((await dav.request('MKCOL', '/dav/个人文件/新建')).status).toBe(405);
    expect((await dav.request('MKCOL', '/dav/个人文件/无/子')).status).toBe(409);
    expect((await dav.request('MKCOL', '/dav/个人文件/带体', { body: '<x/>', headers: { 'content-type': 'application/xml' } })).status).toBe(415);
    const bad = await dav.request('MKCOL', '/dav/个人文件/a|b');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('名称');
    expect((await dav.request('MKCOL', '/dav/项目组/组内')).status).toBe(201);
    expect(await listing('/dav/项目组/')).toEqual(['/dav/项目组/组内/']);
  });
});

describe('DELETE', () => {
  it('moves to the recycle bin (204, file.delete); the root and spaces are refused; gone is 404', async () => {
    await dav.request('MKCOL', '/dav/个人文件/删我');
    await dav.put('/dav/个人文件/删我/f.txt', 'x');
    const row = await oneRowOf(server, async () => expect((await dav.request('DELETE', '/dav/个人文件/删我')).status).toBe(204));
    expect(row.action).toBe('file.delete');
    expect((await dav.propfind('/dav/个人文件/删我', '0')).status).toBe(404);
    const trash = await admin.post<{ data: { items: Array<{ name: string }> } }>(API.recycleList, {});
    expect(trash.body.data.items.map((i) => i.name)).toContain('删我');
    expect((await dav.request('DELETE', '/dav/个人文件/删我')).status).toBe(404);
    expect((await dav.request('DELETE', '/dav/项目组')).status).toBe(403);
    expect((await dav.request('DELETE', '/dav/')).status).toBe(403);
  });
});

describe('COPY and MOVE', () => {
  beforeAll(async () => {
    await dav.request('MKCOL', '/dav/个人文件/源');
    await dav.put('/dav/个人文件/源/a.txt', 'aaa');
    await dav.request('MKCOL', '/dav/个人文件/源/内');
    await dav.put('/dav/个人文件/源/内/b.txt', 'bbb');
  });

  it('COPY a file under a new name (201), then again with Overwrite: F (412) and T (204, a new version)', async () => {
    const headers = (d: string, extra: Record<string, string> = {}) => ({ headers: { destination: dest(d), ...extra } });
    expect((await dav.request('COPY', '/dav/个人文件/源/a.txt', headers('/dav/个人文件/源/c.txt'))).status).toBe(201);
    expect((await dav.get('/dav/个人文件/源/c.txt')).text).toBe('aaa');
    expect((await dav.request('COPY', '/dav/个人文件/源/a.txt', headers('/dav/个人文件/源/c.txt', { overwrite: 'F' }))).status).toBe(412);
    await dav.put('/dav/个人文件/源/d.txt', 'ddd');
    expect((await dav.request('COPY', '/dav/个人文件/源/d.txt', headers('/dav/个人文件/源/c.txt'))).status).toBe(204);
    expect((await dav.get('/dav/个人文件/源/c.txt')).text).toBe('ddd');
  });

  it('COPY a folder: Depth infinity takes its tree, Depth 0 the folder alone, Depth 1 is refused', async () => {
    expect((await dav.request('COPY', '/dav/个人文件/源/', { headers: { destination: dest('/dav/个人文件/全/') } })).status).toBe(201);
    expect((await dav.get('/dav/个人文件/全/内/b.txt')).text).toBe('bbb');
    expect((await dav.request('COPY', '/dav/个人文件/源/', { headers: { destination: dest('/dav/个人文件/空/'), depth: '0' } })).status).toBe(201);
    expect(await listing('/dav/个人文件/空/')).toEqual([]);
    expect((await dav.request('COPY', '/dav/个人文件/源/', { headers: { destination: dest('/dav/个人文件/一/'), depth: '1' } })).status).toBe(400);
    expect((await dav.request('COPY', '/dav/个人文件/源/', { headers: { destination: dest('/dav/个人文件/源/内/里/') } })).status).toBe(403);
  });

  it('MOVE renames in place (file.rename), moves across spaces (file.move), 409 without the destination\'s parent', async () => {
    const renamed = await oneRowOf(server, async () =>
      expect((await dav.request('MOVE', '/dav/个人文件/全/a.txt', { headers: { destination: dest('/dav/个人文件/全/改名.txt') } })).status).toBe(201),
    );
    expect(renamed.action).toBe('file.rename');
    const moved = await oneRowOf(server, async () =>
      expect((await dav.request('MOVE', '/dav/个人文件/全/内/', { headers: { destination: dest('/dav/项目组/内/') } })).status).toBe(201),
    );
    expect(moved.action).toBe('file.move');
    expect((await dav.get('/dav/项目组/内/b.txt')).text).toBe('bbb');
    expect((await dav.propfind('/dav/个人文件/全/内/', '0')).status).toBe(404);
    expect((await dav.request('MOVE', '/dav/个人文件/全/改名.txt', { headers: { destination: dest('/dav/个人文件/没有/x.txt') } })).status).toBe(409);
    expect((await dav.request('MOVE', '/dav/个人文件/全/改名.txt', { headers: { destination: `http://elsewhere.example${encodePath('/dav/个人文件/x.txt')}` } })).status).toBe(502);
    // Into another folder under another name, replacing a file there (204).
    await dav.put('/dav/个人文件/源/占位.txt', 'old');
    expect((await dav.request('MOVE', '/dav/个人文件/全/改名.txt', { headers: { destination: dest('/dav/个人文件/源/占位.txt') } })).status).toBe(204);
    expect((await dav.get('/dav/个人文件/源/占位.txt')).text).toBe('aaa');
    // Within one folder onto another file (an office app's save): that file's new version.
    await dav.put('/dav/个人文件/源/文档.docx', 'v1');
    await dav.put('/dav/个人文件/源/~tmp.docx', 'v2');
    const row = await oneRowOf(server, async () =>
      expect((await dav.request('MOVE', '/dav/个人文件/源/~tmp.docx', { headers: { destination: dest('/dav/个人文件/源/文档.docx') } })).status).toBe(204),
    );
    expect(row.action).toBe('file.move');
    expect((await dav.get('/dav/个人文件/源/文档.docx')).text).toBe('v2');
    expect((await dav.propfind('/dav/个人文件/源/~tmp.docx', '0')).status).toBe(404);
    const folder = (await entries(admin, null)).find((e) => e.name === '源')!;
    expect((await entries(admin, folder.id)).find((e) => e.name === '文档.docx')!.versionCount).toBeGreaterThanOrEqual(1);
  });
});
