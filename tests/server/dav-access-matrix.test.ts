import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { SharePermission } from '../../common/api/sharing';
import { DAV_METHOD_NAMES, DAV_METHODS } from '../../server/dav/registry';
import { createGroup, mkdir, text } from './file-kit';
import { addTenantWithUser, MEMBER, userIdOf, type Client, type TestServer } from './helpers';
import { share } from './sharing-kit';
import { DavClient, encodePath, startDav } from './dav-kit';

/**
 * The WebDAV companion of tests/server/access-matrix.test.ts (whose matrix walks the /api/ routes):
 * every WebDAV method × space kind × grant, as a member of the tenant sees them through /dav/. The
 * admin owns everything here; the member reaches it through the public space, a group they are in,
 * shares of each permission, or not at all (the admin's own files, a group they are not in, another
 * tenant): what is not theirs is simply not there (404, or 409 for a new entry under it, as for any
 * path that never existed). Preview-only grants give no bytes (403, the body says why).
 */
type Who = 'member' | 'otherTenant';

interface Row {
  method: (typeof DAV_METHOD_NAMES)[number];
  /** Where (the member's view), and why. */
  path: string;
  kind: 'own' | 'public' | 'group member' | 'group not member' | `share ${SharePermission}` | 'share folder edit' | "admin's own" | 'another tenant';
  who?: Who;
  headers?: Record<string, string>;
  body?: string;
  /** Destination for COPY/MOVE (a path of the member's). */
  to?: string;
  expect: number;
  /** Text the refusal's body must carry. */
  says?: RegExp;
}

const PROPS = '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:t">1</x></D:prop></D:set></D:propertyupdate>';
const LOCKINFO = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';

const ROWS: Row[] = [
  // PROPFIND: what the member may see lists; the rest is not there.
  { method: 'PROPFIND', path: '/dav/个人文件/', kind: 'own', headers: { depth: '1' }, expect: 207 },
  { method: 'PROPFIND', path: '/dav/公共空间/公共.txt', kind: 'public', headers: { depth: '0' }, expect: 207 },
  { method: 'PROPFIND', path: '/dav/组甲/组文件.txt', kind: 'group member', headers: { depth: '0' }, expect: 207 },
  { method: 'PROPFIND', path: '/dav/组乙/', kind: 'group not member', headers: { depth: '0' }, expect: 404 },
  { method: 'PROPFIND', path: '/dav/共享文件/预览.txt', kind: 'share preview', headers: { depth: '0' }, expect: 207 },
  { method: 'PROPFIND', path: '/dav/共享文件/共享夹/', kind: 'share folder edit', headers: { depth: '1' }, expect: 207 },
  { method: 'PROPFIND', path: '/dav/个人文件/私有/', kind: "admin's own", headers: { depth: '0' }, expect: 404 },
  { method: 'PROPFIND', path: '/dav/组甲/', kind: 'another tenant', who: 'otherTenant', headers: { depth: '0' }, expect: 404 },
  // GET/HEAD: bytes only where the grant gives them.
  { method: 'GET', path: '/dav/共享文件/预览.txt', kind: 'share preview', expect: 403, says: /预览/ },
  { method: 'HEAD', path: '/dav/共享文件/预览.txt', kind: 'share preview', expect: 403 },
  { method: 'GET', path: '/dav/共享文件/下载.txt', kind: 'share download', expect: 200 },
  { method: 'GET', path: '/dav/共享文件/编辑.txt', kind: 'share edit', expect: 200 },
  { method: 'GET', path: '/dav/共享文件/共享夹/里.txt', kind: 'share folder edit', expect: 200 },
  { method: 'GET', path: '/dav/公共空间/公共.txt', kind: 'public', expect: 200 },
  { method: 'GET', path: '/dav/组甲/组文件.txt', kind: 'group member', expect: 200 },
  { method: 'GET', path: '/dav/组乙/乙.txt', kind: 'group not member', expect: 404 },
  { method: 'GET', path: '/dav/个人文件/私有/秘密.txt', kind: "admin's own", expect: 404 },
  { method: 'GET', path: '/dav/组甲/组文件.txt', kind: 'another tenant', who: 'otherTenant', expect: 404 },
  // PUT: a new version through an edit grant only; nothing new inside others' trees.
  // A file shared alone at its owner's top level: a new version of the owner's file too (addressed by its id).
  { method: 'PUT', path: '/dav/共享文件/编辑.txt', kind: 'share edit', body: 'edited at the owner’s top level', expect: 204 },
  { method: 'GET', path: '/dav/共享文件/编辑.txt', kind: 'share edit', expect: 200, says: /edited at the owner’s top level/ },
  // Inside a folder shared with edit: a new version of the owner's file.
  { method: 'PUT', path: '/dav/共享文件/共享夹/里.txt', kind: 'share folder edit', body: 'edited through WebDAV', expect: 204 },
  { method: 'GET', path: '/dav/共享文件/共享夹/里.txt', kind: 'share folder edit', expect: 200, says: /edited through WebDAV/ },
  { method: 'PUT', path: '/dav/共享文件/下载.txt', kind: 'share download', body: 'new', expect: 403 },
  { method: 'PUT', path: '/dav/共享文件/预览.txt', kind: 'share preview', body: 'new', expect: 403 },
  { method: 'PUT', path: '/dav/共享文件/新.txt', kind: 'share edit', body: 'new', expect: 403 },
  { method: 'PUT', path: '/dav/共享文件/共享夹/新.txt', kind: 'share folder edit', body: 'new', expect: 403, says: /SHR-/ },
  { method: 'PUT', path: '/dav/组甲/成员的.txt', kind: 'group member', body: 'new', expect: 201 },
  { method: 'PUT', path: '/dav/组乙/x.txt', kind: 'group not member', body: 'new', expect: 409 },
  { method: 'PUT', path: '/dav/个人文件/私有/x.txt', kind: "admin's own", body: 'new', expect: 409 },
  { method: 'PUT', path: '/dav/个人文件/我的.txt', kind: 'own', body: 'mine', expect: 201 },
  // MKCOL
  { method: 'MKCOL', path: '/dav/共享文件/共享夹/子', kind: 'share folder edit', expect: 403 },
  { method: 'MKCOL', path: '/dav/组甲/成员夹', kind: 'group member', expect: 201 },
  { method: 'MKCOL', path: '/dav/组乙/夹', kind: 'group not member', expect: 409 },
  { method: 'MKCOL', path: '/dav/个人文件/我的夹', kind: 'own', expect: 201 },
  // DELETE: the owner's entries are not the member's to delete through a share.
  { method: 'DELETE', path: '/dav/共享文件/编辑.txt', kind: 'share edit', expect: 403 },
  { method: 'DELETE', path: '/dav/共享文件/共享夹/里.txt', kind: 'share folder edit', expect: 403 },
  { method: 'DELETE', path: '/dav/组乙/乙.txt', kind: 'group not member', expect: 404 },
  { method: 'DELETE', path: '/dav/个人文件/私有/秘密.txt', kind: "admin's own", expect: 404 },
  { method: 'DELETE', path: '/dav/组甲/组文件.txt', kind: 'another tenant', who: 'otherTenant', expect: 404 },
  // COPY takes the content away: not through a preview-only grant.
  { method: 'COPY', path: '/dav/共享文件/预览.txt', kind: 'share preview', to: '/dav/个人文件/预览副本.txt', expect: 403 },
  { method: 'COPY', path: '/dav/共享文件/下载.txt', kind: 'share download', to: '/dav/个人文件/下载副本.txt', expect: 201 },
  { method: 'COPY', path: '/dav/组乙/乙.txt', kind: 'group not member', to: '/dav/个人文件/乙副本.txt', expect: 404 },
  { method: 'COPY', path: '/dav/个人文件/我的.txt', kind: 'own', to: '/dav/组乙/我的.txt', expect: 409 },
  // MOVE out of a share is the owner's.
  { method: 'MOVE', path: '/dav/共享文件/下载.txt', kind: 'share download', to: '/dav/个人文件/拿走.txt', expect: 403 },
  { method: 'MOVE', path: '/dav/个人文件/私有/秘密.txt', kind: "admin's own", to: '/dav/个人文件/拿走.txt', expect: 404 },
  { method: 'MOVE', path: '/dav/个人文件/我的.txt', kind: 'own', to: '/dav/组甲/我的.txt', expect: 201 },
  // PROPPATCH: dead properties are changed as content is (through a share only with edit).
  { method: 'PROPPATCH', path: '/dav/组甲/我的.txt', kind: 'group member', body: PROPS, expect: 207 },
  { method: 'PROPPATCH', path: '/dav/共享文件/编辑.txt', kind: 'share edit', body: PROPS, expect: 207 },
  { method: 'PROPPATCH', path: '/dav/共享文件/预览.txt', kind: 'share preview', body: PROPS, expect: 403 },
  { method: 'PROPPATCH', path: '/dav/组乙/乙.txt', kind: 'group not member', body: PROPS, expect: 404 },
  { method: 'PROPPATCH', path: '/dav/组甲/组文件.txt', kind: 'another tenant', who: 'otherTenant', body: PROPS, expect: 404 },
  // LOCK is the web app's 锁定 (its rule: not through a share); UNLOCK needs a lock that is there.
  { method: 'LOCK', path: '/dav/共享文件/编辑.txt', kind: 'share edit', body: LOCKINFO, expect: 403 },
  { method: 'LOCK', path: '/dav/组乙/乙.txt', kind: 'group not member', body: LOCKINFO, expect: 409 },
  { method: 'LOCK', path: '/dav/组甲/组文件.txt', kind: 'another tenant', who: 'otherTenant', body: LOCKINFO, expect: 409 },
  { method: 'LOCK', path: '/dav/组甲/我的.txt', kind: 'group member', body: LOCKINFO, expect: 200 },
  // LOCK of an unmapped URL creates an empty file, where a PUT could: not inside others' trees.
  { method: 'LOCK', path: '/dav/组甲/锁新建.txt', kind: 'group member', body: LOCKINFO, expect: 201 },
  { method: 'LOCK', path: '/dav/共享文件/共享夹/锁新建.txt', kind: 'share folder edit', body: LOCKINFO, expect: 403 },
  { method: 'LOCK', path: '/dav/组乙/锁新建.txt', kind: 'group not member', body: LOCKINFO, expect: 409 },
  { method: 'UNLOCK', path: '/dav/组甲/我的.txt', kind: 'group member', headers: { 'lock-token': '<opaquelocktoken:00000000-0000-0000-0000-000000000000>' }, expect: 409 },
  { method: 'UNLOCK', path: '/dav/组乙/乙.txt', kind: 'group not member', headers: { 'lock-token': '<opaquelocktoken:00000000-0000-0000-0000-000000000000>' }, expect: 404 },
  // OPTIONS answers everywhere (no object named).
  { method: 'OPTIONS', path: '/dav/组乙/', kind: 'group not member', expect: 200 },
];

/** The admin's own copy of what a path of the member's shared view names (共享夹 is the admin's). */
async function ownerView(memberPath: string): Promise<string> {
  return (await ownerDav.get(memberPath.replace('/dav/共享文件/', '/dav/个人文件/'))).text;
}

/** The id of the admin's file a path of the member's shared view names. */
async function ownerFileId(memberPath: string): Promise<string> {
  const segments = memberPath.replace('/dav/共享文件/', '').split('/');
  let parentId: string | null = null;
  let id = '';
  for (const name of segments) {
    const list = await admin.post<{ data: { items: Array<{ id: string; name: string }> } }>(API.fileList, { parentId, category: 1, pageSize: 500 });
    id = list.body.data.items.find((i) => i.name === name)!.id;
    parentId = id;
  }
  return id;
}

let server: TestServer;
let admin: Client;
/** The admin's own WebDAV client (the owner of everything here). */
let ownerDav: DavClient;
const clients = {} as Record<Who, DavClient>;

beforeAll(async () => {
  ({ server, admin, dav: ownerDav, memberDav: clients.member } = await startDav({ withMember: true }));
  const memberId = await userIdOf(server, MEMBER.username);
  const user = (permission: SharePermission) => async (id: string) => share(admin, [id], [{ type: 'user', id: memberId }], permission);
  const priv = await mkdir(admin, '私有');
  await text(admin, '秘密.txt', 'secret', priv.id);
  for (const [name, permission] of [['预览.txt', 'preview'], ['下载.txt', 'download'], ['编辑.txt', 'edit']] as const) {
    await user(permission)((await text(admin, name, `${permission} bytes`)).id);
  }
  const folder = await mkdir(admin, '共享夹');
  await text(admin, '里.txt', 'inside', folder.id);
  await user('edit')(folder.id);
  const groupA = await createGroup(admin, '组甲');
  const added = await admin.post(API.groupMemberAdd, { id: groupA.id, username: MEMBER.username, role: 'member' });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  await text(admin, '组文件.txt', 'group', null, { spaceId: groupA.id });
  const groupB = await createGroup(admin, '组乙');
  await text(admin, '乙.txt', 'b', null, { spaceId: groupB.id });
  const publicSpace = (await admin.post<{ data: { id: string } }>(API.publicSpace)).body.data;
  await text(admin, '公共.txt', 'public', null, { spaceId: publicSpace.id });
  await addTenantWithUser(server, 'dav-other', 'Other@2024x');
  clients.otherTenant = await DavClient.of(server, { username: 'dav-other', password: 'Other@2024x' });
}, 120_000);
afterAll(async () => server?.close());

describe('WebDAV access matrix', () => {
  it('has rows for every method the endpoint answers', () => {
    const answered = DAV_METHOD_NAMES.filter((m) => DAV_METHODS[m] != null);
    expect(answered.filter((m) => !ROWS.some((r) => r.method === m))).toEqual([]);
  });

  // In order: later rows see what earlier ones did (a PUT's file is then copied or moved).
  it.each(ROWS.map((r) => [`${r.method} ${r.path} (${r.kind}${r.who ? `, ${r.who}` : ''}) → ${r.expect}`, r] as const))('%s', async (_label, row) => {
    const client = clients[row.who ?? 'member'];
    const headers: Record<string, string> = { ...row.headers };
    if (row.to) headers.destination = `${server.baseUrl}${encodePath(row.to)}`;
    const res = await client.request(row.method, row.path, { headers, body: row.body });
    expect(res.status, res.text).toBe(row.expect);
    if (row.says) expect(res.text).toMatch(row.says);
    if (row.method === 'PUT' && row.expect === 204 && (row.kind === 'share folder edit' || row.kind === 'share edit')) {
      // The owner sees the new version of their own file, the old content kept as a version.
      const inside = await ownerView(row.path);
      expect(inside).toBe(row.body);
      const id = await ownerFileId(row.path);
      const versions = await admin.post<{ data: { versions: unknown[] } }>(API.versionList, { id });
      expect(versions.body.data.versions).toHaveLength(2);
    }
  });
});
