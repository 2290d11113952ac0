import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { ClientRelease, ClientVersion } from '../../common/api/types';
import { StreamingContentDigests } from '../../common/transfer/chunk-digest';
import { fingerprintHex } from '../support/chunk-digest';
import { rowsOf } from './action-log-kit';
import { expectError, text } from './file-kit';
import { addTenantWithUser, ADMIN, Client, liftPasswordGate, loggedInClient, MEMBER, describeFile, putChunk, randomContent, startServer, uploadFile, withDb, type TestServer } from './helpers';
import { fetchBytes } from './sharing-kit';

/**
 * 客户端版本 (issue 38): each client type (3 internal, 4 public) has its own release in the database,
 * set by the tenant's admin with an installer uploaded through the engine; the version check answers
 * per type from the next call, the installer downloads from the address it gives, every change is on
 * the action log, and only the tenant's own files can be named.
 */
let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
});
afterAll(async () => {
  await server.close();
});

const versionOf = async (client: Client, clientType: 3 | 4) => (await client.get<{ data: ClientVersion }>(`${API.clientVersion}?clientType=${clientType}`)).body.data;
const save = (client: Client, body: Record<string, unknown>) => client.post<{ data: ClientRelease }>(API.clientReleaseSave, body);

describe('client releases per client type', () => {
  it('each type answers its own release from the database; the installer downloads from the address given', async () => {
    const anonymous = new Client(server.baseUrl);
    expect(await versionOf(anonymous, 3)).toEqual({ isForce: false, versionName: '', versionDesc: '' });
    const inside = await text(admin, 'setup-internal-2.1.0.AppImage', 'internal installer bytes');
    const outside = await text(admin, 'setup-public-2.0.5.AppImage', 'public installer bytes');
    const rows = await rowsOf(server, async () => {
      expect((await save(admin, { clientType: 3, versionName: '2.1.0', versionDesc: '修复同步问题', isForce: true, fileId: inside.id })).status).toBe(200);
    });
    expect(rows.map((r) => [r.action, r.outcome])).toEqual([['tenant.clientRelease', 'ok']]);
    expect(rows[0]!.parsedTargets.map((t) => t.type)).toEqual(['setting', 'file']);
    expect((await save(admin, { clientType: 4, versionName: '2.0.5', versionDesc: '', isForce: false, fileId: outside.id })).status).toBe(200);

    const internal = await versionOf(anonymous, 3);
    const pub = await versionOf(anonymous, 4);
    expect(internal).toMatchObject({ isForce: true, versionName: '2.1.0', versionDesc: '修复同步问题', installer: { name: 'setup-internal-2.1.0.AppImage', size: 24 } });
    expect(pub).toMatchObject({ isForce: false, versionName: '2.0.5', installer: { name: 'setup-public-2.0.5.AppImage' } });
    // The content fingerprint the desktop checks its download against, as the server stores it.
    const { chunkSize, fingerprint } = internal.installer!.digest!;
    expect(fingerprint).toBe(fingerprintHex(new StreamingContentDigests(chunkSize, () => createHash('sha256')).update(Buffer.from('internal installer bytes')).finish()));
    expect(pub.installer!.digest!.fingerprint).not.toBe(fingerprint);
    expect((await fetchBytes(anonymous, internal.installer!.url)).body.toString()).toBe('internal installer bytes');
    expect((await fetchBytes(anonymous, pub.installer!.url)).body.toString()).toBe('public installer bytes');
    // Range works (a download resumes).
    const part = await fetchBytes(anonymous, pub.installer!.url, { range: 'bytes=7-15' });
    expect([part.status, part.body.toString()]).toEqual([206, 'installer']);

    const list = (await admin.get<{ data: ClientRelease[] }>(API.clientReleaseList)).body.data;
    expect(list.map((r) => [r.clientType, r.versionName, r.isForce, r.file?.id])).toEqual([
      [3, '2.1.0', true, inside.id],
      [4, '2.0.5', false, outside.id],
    ]);
    // A change is in force at the next call; deleting the file withdraws the installer.
    expect((await save(admin, { clientType: 3, versionName: '2.1.1', versionDesc: '', isForce: false, fileId: inside.id })).status).toBe(200);
    expect(await versionOf(anonymous, 3)).toMatchObject({ versionName: '2.1.1', isForce: false });
    expect((await admin.post(API.removeFiles, { ids: [inside.id] })).status).toBe(200);
    expect((await versionOf(anonymous, 3)).installer).toBeUndefined();
    expect((await anonymous.raw(internal.installer!.url)).status).toBe(404);
  });

  it('members may not set releases; a folder, a bad version or another tenant\'s file is refused', async () => {
    await liftPasswordGate(server, MEMBER.username);
    const member = await loggedInClient(server, MEMBER);
    const mine = await text(member, 'member-setup.AppImage', 'x');
    expectError(await save(member, { clientType: 3, versionName: '9.0.0', versionDesc: '', isForce: false, fileId: mine.id }), ERRORS.FORBIDDEN.code, ERRORS.FORBIDDEN.status);
    // The admin cannot name a member's personal file either (not theirs to read): 404 like an unknown id.
    expectError(await save(admin, { clientType: 3, versionName: '9.0.0', versionDesc: '', isForce: false, fileId: mine.id }), ERRORS.NOT_FOUND.code, 404);
    expect((await save(admin, { clientType: 3, versionName: 'v9', versionDesc: '', isForce: false, fileId: null })).status).toBe(400);
    await addTenantWithUser(server, 'other-admin', 'Other@2024');
    await withDb(server, (db) => db.prepare("update users set role = 'admin' where username = 'other-admin'").run());
    const other = await loggedInClient(server, { username: 'other-admin', password: 'Other@2024' });
    const theirs = await text(other, 'other-setup.AppImage', 'other');
    expectError(await save(admin, { clientType: 4, versionName: '3.0.0', versionDesc: '', isForce: false, fileId: theirs.id }), ERRORS.NOT_FOUND.code, 404);
    // The other tenant's release is its own.
    expect((await save(other, { clientType: 4, versionName: '3.0.0', versionDesc: '', isForce: false, fileId: theirs.id })).status).toBe(200);
    expect((await versionOf(other, 4)).versionName).toBe('3.0.0');
    expect((await versionOf(admin, 4)).versionName).toBe('2.0.5');
  });
});

/** A Windows program as its first bytes say (MZ header pointing at a PE signature), then filler. */
function peInstaller(size = 6000): Buffer {
  const head = Buffer.alloc(0x100);
  head.write('MZ', 0, 'latin1');
  head.writeUInt32LE(0x80, 0x3c);
  head.write('PE\0\0', 0x80, 'latin1');
  return Buffer.concat([head, randomContent(size - head.length)]);
}

describe('installer uploads (purpose clientInstaller)', () => {
  it('an admin uploads a Windows .exe as an installer; the release serves it byte for byte; the log row says so', async () => {
    const exe = peInstaller();
    const rows = await rowsOf(server, async () => {
      const res = await uploadFile(admin, exe, 'DriveSetup-3.0.0.exe', { purpose: 'clientInstaller' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await save(admin, { clientType: 4, versionName: '3.0.0', versionDesc: '', isForce: false, fileId: res.body.data.id })).status).toBe(200);
    });
    const upload = rows.find((r) => r.action === 'file.upload')!;
    expect([upload.outcome, upload.parsedDetail?.purpose, upload.parsedDetail?.typeChecks]).toEqual(['ok', 'clientInstaller', 'skipped']);
    const answer = await versionOf(new Client(server.baseUrl), 4);
    expect(answer.installer).toMatchObject({ name: 'DriveSetup-3.0.0.exe', size: exe.length });
    expect(Buffer.compare((await fetchBytes(new Client(server.baseUrl), answer.installer!.url)).body, exe)).toBe(0);
  });

  it('without the purpose the same .exe is refused as before: by name, and by content under another name', async () => {
    await expect(uploadFile(admin, peInstaller(), 'DriveSetup.exe')).resolves.toSatisfy((res: { status: number; body: { errorCode?: string } }) => res.body.errorCode === ERRORS.FILE_TYPE_BLOCKED.code);
    await expect(uploadFile(admin, peInstaller(), 'DriveSetup.bin')).rejects.toThrow(ERRORS.FILE_CONTENT_BLOCKED.code);
  });

  it('a member sending the purpose is refused with its code at chunk/exist, at a chunk and at merge', async () => {
    await liftPasswordGate(server, MEMBER.username);
    const member = await loggedInClient(server, MEMBER);
    const exe = peInstaller();
    expectError(await uploadFile(member, exe, 'mine.exe', { purpose: 'clientInstaller' }), ERRORS.INSTALLER_UPLOAD_FORBIDDEN.code);
    // A session opened as an ordinary upload (a harmless name) cannot be finished with the purpose either.
    const open = await uploadOpen(member, exe, 'notes.bin');
    expectError(await putChunk(member, open.uploadId, 0, exe.subarray(0, open.chunkSize), undefined, '&purpose=clientInstaller'), ERRORS.INSTALLER_UPLOAD_FORBIDDEN.code);
    expectError(
      await member.post(API.chunkMerge, { uploadId: open.uploadId, name: 'mine.exe', parentId: null, category: 1, purpose: 'clientInstaller' }),
      ERRORS.INSTALLER_UPLOAD_FORBIDDEN.code,
    );
  });
});

/** chunk/exist alone for `content` (one chunk's worth of digests), as an ordinary upload. */
async function uploadOpen(client: Client, content: Buffer, name: string): Promise<{ uploadId: string; chunkSize: number }> {
  const config = (await client.get<{ data: { chunkSize: number } }>(API.uploadConfig)).body.data;
  const { chunkDigests, fingerprint } = describeFile(content, config.chunkSize);
  const res = await client.post<{ data: { uploadId: string } }>(API.chunkExist, { fingerprint, size: content.length, chunkSize: config.chunkSize, chunkDigests, name, parentId: null, category: 1 });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { uploadId: res.body.data.uploadId, chunkSize: config.chunkSize };
}
