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
import { startDav, type DavClient } from './dav-kit';

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
    const set = await dav.request('PROPPATCH', '/dav/个人文件/props.txt', {
      body: update(
        '<D:set><D:prop><e:color>红色</e:color><e:rich><b xmlns="urn:inner">bold</b> &amp; more</e:rich><plain xmlns="">none</plain><e:gone>1</e:gone></D:prop></D:set>' +
          '<D:remove><D:prop><e:gone/></D:prop></D:remove>',
      ),
    });
    expect(set.status).toBe(207);
    expect(set.text).toContain('HTTP/1.1 200 OK');
    expect(set.text).not.toMatch(/40\d|424/);

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
    const res = await dav.request('PROPPATCH', '/dav/个人文件/atomic.txt', {
      body: update('<D:set><D:prop><e:a>1</e:a><D:getcontentlength>5</D:getcontentlength><D:lockdiscovery/></D:prop></D:set><D:remove><D:prop><e:b/></D:prop></D:remove>'),
    });
    expect(res.status).toBe(207);
    expect(res.text).toMatch(/<D:prop><D:getcontentlength\/><D:lockdiscovery\/><\/D:prop><D:status>HTTP\/1.1 403 Forbidden<\/D:status><D:error><D:cannot-modify-protected-property\/><\/D:error>/);
    expect(res.text).toMatch(/<x:a xmlns:x="http:\/\/example.com\/ns\/"\/><x:b xmlns:x="http:\/\/example.com\/ns\/"\/><\/D:prop><D:status>HTTP\/1.1 424 Failed Dependency/);
    const after = await dav.propfind('/dav/个人文件/atomic.txt', '0', propfindNamed('<e:a/>'));
    expect(after.text).toContain('404 Not Found');
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
