import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadUrl } from '../../common/api/paths';
import { createGroup, mkdir, text } from './file-kit';
import { type Client, type TestServer } from './helpers';
import { startDav, type DavClient, parseMultistatus } from './dav-kit';

let server: TestServer;
let admin: Client;
let dav: DavClient;
let noteId: string;

beforeAll(async () => {
  ({ server, admin, dav } = await startDav());
  const docs = await mkdir(admin, '文档');
  noteId = (await text(admin, '说明.txt', 'hello', docs.id)).id;
  await createGroup(admin, '研发部');
});
afterAll(async () => server?.close());

describe('OPTIONS', () => {
  it('says WebDAV, the methods it answers, and MS-Author-Via', async () => {
    const res = await dav.request('OPTIONS', '/dav/');
    expect(res.status).toBe(200);
    expect(res.headers.get('dav')).toMatch(/^1\b/);
    expect(res.headers.get('allow')).toContain('PROPFIND');
    expect(res.headers.get('ms-author-via')).toBe('DAV');
  });
});

describe('PROPFIND', () => {
  it('lists the caller\'s spaces at the root, named as in the web app (交换区: the tenant switch is on)', async () => {
    const res = await dav.propfind('/dav/', '1');
    expect(res.status, res.text).toBe(207);
    expect(res.headers.get('content-type')).toMatch(/xml/);
    const list = parseMultistatus(res.text);
    expect(list[0]!.href).toBe('/dav/');
    expect(list.slice(1).map((r) => r.path)).toEqual(['/dav/个人文件/', '/dav/共享文件/', '/dav/同步文件/', '/dav/公共空间/', '/dav/交换区/', '/dav/研发部/']);
    expect(list.every((r) => r.isCollection)).toBe(true);
  });

  it('depth 1 of a folder: its entries with their live properties', async () => {
    const res = await dav.propfind('/dav/个人文件/文档/', '1');
    expect(res.status, res.text).toBe(207);
    const [self, file] = parseMultistatus(res.text);
    expect(self!.path).toBe('/dav/个人文件/文档/');
    expect(self!.props.displayname).toBe('文档');
    expect(file!.path).toBe('/dav/个人文件/文档/说明.txt');
    expect(file!.isCollection).toBe(false);
    expect(file!.props.getcontentlength).toBe('5');
    expect(file!.props.getcontenttype).toMatch(/^text\/plain/);
    // 128 bits of the content fingerprint: strong, and short enough for clients' fixed If buffers (docs/webdav.md).
    expect(file!.props.getetag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(new Date(file!.props.getlastmodified!).toUTCString()).toBe(file!.props.getlastmodified);
    expect(file!.props.creationdate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('an empty body is allprop (Windows Explorer); quota properties only when asked (RFC 4331)', async () => {
    const all = parseMultistatus((await dav.propfind('/dav/个人文件/', '0')).text)[0]!;
    expect(all.props.resourcetype).toBe('');
    expect(all.isCollection).toBe(true);
    expect(all.props['quota-available-bytes']).toBeUndefined();
    const body = `<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:"><D:prop><D:quota-available-bytes/><D:quota-used-bytes/><Z:Win32FileAttributes/></D:prop></D:propfind>`;
    const named = parseMultistatus((await dav.propfind('/dav/个人文件/', '0', body)).text)[0]!;
    expect(Number(named.props['quota-available-bytes'])).toBeGreaterThan(0);
    expect(Number(named.props['quota-used-bytes'])).toBeGreaterThan(0);
    expect(named.missing).toEqual(['Win32FileAttributes']);
  });

  it('propname lists names without values', async () => {
    const res = await dav.propfind('/dav/个人文件/文档/说明.txt', '0', '<?xml version="1.0"?><propfind xmlns="DAV:"><propname/></propfind>');
    const [r] = parseMultistatus(res.text);
    expect(Object.keys(r!.props)).toEqual(expect.arrayContaining(['getetag', 'getcontentlength', 'displayname']));
    expect(r!.props.getcontentlength).toBe('');
  });

  it('Depth: infinity is refused with propfind-finite-depth; a missing path is 404; bad XML is 400', async () => {
    const inf = await dav.propfind('/dav/个人文件/', 'infinity');
    expect(inf.status).toBe(403);
    expect(inf.text).toContain('propfind-finite-depth');
    expect((await dav.propfind('/dav/个人文件/没有这个', '0')).status).toBe(404);
    expect((await dav.propfind('/dav/不存在的空间/', '0')).status).toBe(404);
    expect((await dav.propfind('/dav/个人文件/', '0', '<propfind')).status).toBe(400);
  });

  it('without credentials: 401 with a Basic challenge', async () => {
    const res = await fetch(`${server.baseUrl}/dav/`, { method: 'PROPFIND', headers: { depth: '0' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
  });
});

describe('GET and HEAD', () => {
  it('sends the bytes with the strong ETag PROPFIND gives, Range, and 304 on If-None-Match', async () => {
    const etag = parseMultistatus((await dav.propfind('/dav/个人文件/文档/说明.txt', '0')).text)[0]!.props.getetag!;
    const full = await dav.get('/dav/个人文件/文档/说明.txt');
    expect(full.status).toBe(200);
    expect(full.text).toBe('hello');
    expect(full.headers.get('etag')).toBe(etag);
    // Derived from the content fingerprint the web app's download sends whole: the same content, the same tag.
    const web = await admin.raw(downloadUrl(noteId));
    await web.arrayBuffer();
    expect(web.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
    expect(etag).toBe(`${web.headers.get('etag')!.slice(0, 33)}"`);
    expect(full.headers.get('last-modified')).toMatch(/GMT$/);
    const part = await dav.get('/dav/个人文件/文档/说明.txt', { range: 'bytes=1-3' });
    expect(part.status).toBe(206);
    expect(part.text).toBe('ell');
    // If-Range with the WebDAV ETag continues the range (another validator would send it all).
    const resumed = await dav.get('/dav/个人文件/文档/说明.txt', { range: 'bytes=1-3', 'if-range': etag });
    expect(resumed.status).toBe(206);
    expect(resumed.headers.get('etag')).toBe(etag);
    expect((await dav.get('/dav/个人文件/文档/说明.txt', { range: 'bytes=1-3', 'if-range': '"0123456789abcdef0123456789abcdef"' })).status).toBe(200);
    expect((await dav.get('/dav/个人文件/文档/说明.txt', { 'if-none-match': etag })).status).toBe(304);
    expect((await dav.get('/dav/个人文件/文档/说明.txt', { 'if-match': '"other"' })).status).toBe(412);
    const head = await dav.request('HEAD', '/dav/个人文件/文档/说明.txt');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('5');
    expect(head.headers.get('etag')).toBe(etag);
    expect(head.text).toBe('');
  });

  it('a folder has no bytes (405); a missing file is 404', async () => {
    expect((await dav.get('/dav/个人文件/文档/')).status).toBe(405);
    expect((await dav.get('/dav/个人文件/文档/无.txt')).status).toBe(404);
  });
});
