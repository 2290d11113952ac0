/**
 * PROPPATCH and dead properties (RFC 4918 §9.2): stored per entry with their namespace, all or none
 * per request (403 cannot-modify-protected-property for the server's own, 424 for the rest), returned
 * by PROPFIND (named, allprop, propname), copied with their entry, kept by a move, kept in the recycle
 * bin and gone with the purge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { CopyMoveResponse } from '../../common/api/types';
import { mkdir, text } from './file-kit';
import { type Client, type TestServer, withDb } from './helpers';
import { parseMultistatus, startDav, type DavClient } from './dav-kit';
import { oneRowOf } from './action-log-kit';

let server: TestServer;
let admin: Client;
let dav: DavClient;

const NS = 'http://example.com/ns/';
const update = (inner: string) => `<?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:e="${NS}">${inner}</D:propertyupdate>`;
const propfindNamed = (names: string) => `<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:e="${NS}"><D:prop>${names}</D:prop></D:propfind>`;

beforeAll(async () => {
  ({ server, admin, dav } = await startDav());
});

afterAll(async () => {
  await server?.close();
});

describe('PROPPATCH', () => {
  it('sets and removes in document order, values with their own namespaces; PROPFIND returns them named and in allprop', async () => {
    await text(admin, 'props.txt', 'x');
    let set: Awaited<ReturnType<typeof dav.request>> | null = null;
    const row = await oneRowOf(server, async () => {
      set = await dav.request('PROPPATCH', '/dav/个人文件/props.txt', {
        body: update(
          '<D:set><D:prop><e:color>红色</e:color><e:rich><b xmlns="urn:inner">bold</b> &amp; more</e:rich><plain xmlns="">none</plain><e:gone>1</e:gone></D:prop></D:set>' +
            '<D:remove><D:prop><e:gone/></D:prop></D:remove>',
        ),
      });
    });
    expect(set!.status).toBe(207);
    // On the action log: which properties, not their values.
    expect(row).toMatchObject({ action: 'file.davProperties', outcome: 'ok', platform: 'webdav' });
    expect(row.parsedTargets[0]!.name).toBe('props.txt');
    expect(row.parsedDetail).toMatchObject({ set: [`{${NS}}color`, `{${NS}}rich`, '{}plain', `{${NS}}gone`], removed: [`{${NS}}gone`], count: 5 });
    expect(row.detail).not.toContain('红色');
    expect(set!.text).toContain('HTTP/1.1 200 OK');
    expect(set!.text).not.toMatch(/40\d|424/);

    const named = await dav.propfind('/dav/个人文件/props.txt', '0', propfindNamed('<e:color/><e:rich/><e:gone/><plain xmlns=""/>'));
    expect(named.status).toBe(207);
    expect(named.text).toContain('>红色</');
    expect(named.text).toMatch(/<b xmlns="urn:inner">bold<\/b> &amp; more/);
    expect(named.text).toMatch(/<plain xmlns="">none<\/plain>/);
    // e:gone was set then removed in the same request: 404 in its own propstat.
    expect(named.text).toMatch(/<D:propstat><D:prop><x:gone xmlns:x="http:\/\/example.com\/ns\/"\/><\/D:prop><D:status>HTTP\/1.1 404/);
    const all = await dav.propfind('/dav/个人文件/props.txt', '0');
    expect(all.text).toContain('>红色</');
    expect(all.text).toContain('<D:supportedlock>');
    const names = await dav.propfind('/dav/个人文件/props.txt', '0', '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:propname/></D:propfind>');
    expect(names.text).toMatch(/<x:color xmlns:x="http:\/\/example.com\/ns\/"\/>/);
  });

  it('is all or none: a protected property is 403 and every other change 424, nothing stored', async () => {
    await text(admin, 'atomic.txt', 'x');
    let res: Awaited<ReturnType<typeof dav.request>> | null = null;
    const row = await oneRowOf(server, async () => {
      res = await dav.request('PROPPATCH', '/dav/个人文件/atomic.txt', {
        body: update('<D:set><D:prop><e:a>1</e:a><D:getcontentlength>5</D:getcontentlength><D:lockdiscovery/></D:prop></D:set><D:remove><D:prop><e:b/></D:prop></D:remove>'),
      });
    });
    expect(row).toMatchObject({ action: 'file.davProperties', outcome: 'refused', error_code: 'HTTP-403', platform: 'webdav' });
    res = res!;
    expect(res.status).toBe(207);
    expect(res.text).toMatch(/<D:prop><D:getcontentlength\/><D:lockdiscovery\/><\/D:prop><D:status>HTTP\/1.1 403 Forbidden<\/D:status><D:error><D:cannot-modify-protected-property\/><\/D:error>/);
    expect(res.text).toMatch(/<x:a xmlns:x="http:\/\/example.com\/ns\/"\/><x:b xmlns:x="http:\/\/example.com\/ns\/"\/><\/D:prop><D:status>HTTP\/1.1 424 Failed Dependency/);
    const after = await dav.propfind('/dav/个人文件/atomic.txt', '0', propfindNamed('<e:a/>'));
    expect(after.text).toContain('404 Not Found');
  });

  it("takes Windows Explorer's Win32 times and attributes after a copy (each 200), returns them, leaves the file's own time; a value they cannot hold is 409", async () => {
    expect((await dav.put('/dav/个人文件/explorer.txt', 'copied by Explorer')).status).toBe(201);
    const before = parseMultistatus((await dav.propfind('/dav/个人文件/explorer.txt', '0')).text)[0]!.props.getlastmodified;
    const ms = (inner: string) => `<?xml version="1.0" encoding="utf-8" ?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:"><D:set><D:prop>${inner}</D:prop></D:set></D:propertyupdate>`;
    const times =
      '<Z:Win32CreationTime>Tue, 03 Mar 2020 08:00:00 GMT</Z:Win32CreationTime><Z:Win32LastAccessTime>Mon, 30 Nov 2026 01:00:00 GMT</Z:Win32LastAccessTime>' +
      '<Z:Win32LastModifiedTime>Wed, 04 Mar 2020 09:30:00 GMT</Z:Win32LastModifiedTime><Z:Win32FileAttributes>00000020</Z:Win32FileAttributes>';
    const res = await dav.request('PROPPATCH', '/dav/个人文件/explorer.txt', { body: ms(times) });
    expect(res.status).toBe(207);
    expect(res.text.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 200']);
    const named = await dav.propfind(
      '/dav/个人文件/explorer.txt',
      '0',
      '<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:"><D:prop><Z:Win32LastModifiedTime/><Z:Win32FileAttributes/><D:getlastmodified/></D:prop></D:propfind>',
    );
    expect(named.text).toMatch(/Win32LastModifiedTime xmlns:[a-z0-9]+="urn:schemas-microsoft-com:">Wed, 04 Mar 2020 09:30:00 GMT</);
    expect(named.text).toMatch(/Win32FileAttributes xmlns:[a-z0-9]+="urn:schemas-microsoft-com:">00000020</);
    // The product's modification time is the server's (the web app's 修改时间, the sync's order).
    expect(parseMultistatus(named.text)[0]!.props.getlastmodified).toBe(before);

    const bad = await dav.request('PROPPATCH', '/dav/个人文件/explorer.txt', { body: ms('<Z:Win32LastModifiedTime>yesterday-ish</Z:Win32LastModifiedTime><Z:Win32FileAttributes>00000001</Z:Win32FileAttributes>') });
    expect(bad.text).toMatch(/Win32LastModifiedTime[^>]*\/><\/D:prop><D:status>HTTP\/1.1 409 Conflict/);
    expect(bad.text).toContain('424 Failed Dependency');
    expect((await dav.request('PROPPATCH', '/dav/个人文件/explorer.txt', { body: ms('<Z:Win32FileAttributes>20</Z:Win32FileAttributes>') })).text).toContain('409 Conflict');
    const still = await dav.propfind('/dav/个人文件/explorer.txt', '0', '<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:"><D:prop><Z:Win32FileAttributes/></D:prop></D:propfind>');
    expect(still.text).toContain('>00000020<');
  });

  it('refuses bodies that are not a propertyupdate (400) and targets that do not exist (404)', async () => {
    expect((await dav.request('PROPPATCH', '/dav/个人文件/atomic.txt', { body: '<foo>' })).status).toBe(400);
    expect((await dav.request('PROPPATCH', '/dav/个人文件/atomic.txt', { body: '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"/>' })).status).toBe(400);
    expect((await dav.request('PROPPATCH', '/dav/个人文件/nothing-here.txt', { body: update('<D:set><D:prop><e:a>1</e:a></D:prop></D:set>') })).status).toBe(404);
  });

  it('follows its entry: copied with a copied tree, kept by a move, kept in the recycle bin, gone with the purge', async () => {
    const folder = await mkdir(admin, 'prop-tree');
    const inner = await text(admin, 'inner.txt', 'x', folder.id);
    const target = await mkdir(admin, 'prop-target');
    const body = update('<D:set><D:prop><e:tag>t1</e:tag></D:prop></D:set>');
    expect((await dav.request('PROPPATCH', '/dav/个人文件/prop-tree/', { body })).status).toBe(207);
    expect((await dav.request('PROPPATCH', '/dav/个人文件/prop-tree/inner.txt', { body })).status).toBe(207);

    const copied = await admin.post<{ data: CopyMoveResponse }>(API.copy, { ids: [folder.id], targetParentId: target.id, targetCategory: 1 });
    expect(copied.status, JSON.stringify(copied.body)).toBe(200);
    for (const p of ['/dav/个人文件/prop-target/prop-tree/', '/dav/个人文件/prop-target/prop-tree/inner.txt']) {
      expect((await dav.propfind(p, '0', propfindNamed('<e:tag/>'))).text, p).toContain('>t1</');
    }
    const moved = await admin.post(API.move, { ids: [inner.id], targetParentId: target.id, targetCategory: 1 });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await dav.propfind('/dav/个人文件/prop-target/inner.txt', '0', propfindNamed('<e:tag/>'))).text).toContain('>t1</');

    const count = () => withDb(server, (db) => (db.prepare('select count(*) as n from dav_properties where entry_id = ?').get(inner.id) as { n: number }).n);
    expect(await count()).toBe(1);
    expect((await admin.post(API.removeFiles, { ids: [inner.id] })).status).toBe(200);
    expect(await count()).toBe(1);
    expect((await admin.post(API.recyclePurge, { ids: [inner.id] })).status).toBe(200);
    expect(await count()).toBe(0);
  });
});
