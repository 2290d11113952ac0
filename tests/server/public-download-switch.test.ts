import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API, linkPreviewUrl, previewUrl } from '../../common/api/paths';
import type { LinkDownloadResponse } from '../../common/api/sharing';
import { PUBLIC_SPACE_ID } from '../../common/api/types';
import { expectError, mkdir, names, text } from './file-kit';
import { ADMIN, Client, liftPasswordGate, loggedInClient, MEMBER, startServer, type TestServer } from './helpers';
import { fetchBytes, link, openLink } from './sharing-kit';

/**
 * The publicDownLoad switch (公共空间下载, common/api/tenant.ts) means one thing: whether the originals of
 * the public space's files may leave it. Off: members, admins and link visitors still see and preview
 * them, but nobody downloads, zips, copies out or saves them from a link, from the next call on; files
 * elsewhere are untouched, and link visitors never need a login for it.
 */
let server: TestServer;
let admin: Client;
let member: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  await liftPasswordGate(server, MEMBER.username);
  member = await loggedInClient(server, MEMBER);
});
afterAll(async () => {
  await server.close();
});

const anonymous = () => new Client(server.baseUrl);
async function setPublicDownload(on: boolean): Promise<void> {
  const r = await admin.raw(API.switchPublicDownload, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `value=${on ? 1 : 0}` });
  expect(r.status).toBe(200);
}
const zipUrl = (...ids: string[]) => `${API.zipDownload}?ids=${ids.map(encodeURIComponent).join(',')}`;

describe('publicDownLoad: the public space', () => {
  it('off: nobody takes a public-space original away (download, ZIP, copy out), previews and other files stay', async () => {
    const folder = await mkdir(admin, '制度', null, { spaceId: PUBLIC_SPACE_ID });
    const doc = await text(admin, '考勤制度.txt', '九点上班', folder.id, { spaceId: PUBLIC_SPACE_ID });
    const mine = await text(member, 'mine.txt', 'own');
    expect((await fetchBytes(member, API.downloadPrefix + doc.id)).body.toString()).toBe('九点上班');
    expect((await fetchBytes(member, zipUrl(folder.id))).status).toBe(200);

    await setPublicDownload(false);
    try {
      for (const who of [member, admin]) {
        expectError(await who.get(API.downloadPrefix + doc.id), ERRORS.PUBLIC_DOWNLOAD_OFF.code);
        expectError(await who.get(zipUrl(folder.id)), ERRORS.PUBLIC_DOWNLOAD_OFF.code);
      }
      // A ZIP mixing own files and the public space's is refused as a whole.
      expect((await member.raw(zipUrl(mine.id, doc.id))).status).toBe(400);
      expectError(await member.post(API.copy, { ids: [doc.id], targetParentId: null, targetCategory: 1 }), ERRORS.PUBLIC_DOWNLOAD_OFF.code);
      expect(await names(member, null)).not.toContain('考勤制度.txt');
      // Inside the public space the original stays where it is: copying there is no download.
      expect((await admin.post(API.copy, { ids: [doc.id], targetParentId: null, targetCategory: 1, targetSpaceId: PUBLIC_SPACE_ID })).status).toBe(200);
      // Seeing is still allowed, and files elsewhere are untouched.
      const preview = await fetchBytes(member, previewUrl(doc.id));
      expect(preview.status).toBe(200);
      expect(preview.body.toString()).toBe('九点上班');
      expect(await names(member, folder.id, { spaceId: PUBLIC_SPACE_ID })).toEqual(['考勤制度.txt']);
      expect((await fetchBytes(member, API.downloadPrefix + mine.id)).body.toString()).toBe('own');
    } finally {
      await setPublicDownload(true);
    }
    // On again: the next call downloads.
    expect((await fetchBytes(member, API.downloadPrefix + doc.id)).body.toString()).toBe('九点上班');
  });
});

describe('publicDownLoad: link visitors', () => {
  it('off: a link to a public-space file opens and previews without login, but neither downloads nor saves', async () => {
    const doc = await text(member, '通讯录.txt', '电话', null, { spaceId: PUBLIC_SPACE_ID });
    const own = await text(member, '周报.txt', '本周');
    const toPublic = await link(member, doc.id);
    const toOwn = await link(member, own.id);
    const visitor = anonymous();
    const opened = await openLink(visitor, toPublic.token, toPublic.code);
    // A ticket taken while on is refused once the switch is off.
    const early = await visitor.post<{ data: LinkDownloadResponse }>(API.linkDownload, { visit: opened.visit, ids: [doc.id] });
    expect(early.status).toBe(200);

    await setPublicDownload(false);
    try {
      const fresh = anonymous();
      const visit = await openLink(fresh, toPublic.token, toPublic.code);
      expect(visit.signedIn).toBe(false);
      expect((await fetchBytes(fresh, linkPreviewUrl(doc.id, visit.visit))).body.toString()).toBe('电话');
      expectError(await fresh.post(API.linkDownload, { visit: visit.visit, ids: [doc.id] }), ERRORS.PUBLIC_DOWNLOAD_OFF.code);
      expect((await fetchBytes(visitor, early.body.data.url)).status).toBe(400);
      const signedIn = await openLink(admin, toPublic.token, toPublic.code);
      expectError(await admin.post(API.linkSave, { visit: signedIn.visit, ids: [doc.id], targetParentId: null }), ERRORS.PUBLIC_DOWNLOAD_OFF.code);
      // The switch is about the public space only: a link to a personal file downloads, anonymously.
      const ownVisit = await openLink(anonymous(), toOwn.token, toOwn.code);
      expect((await anonymous().post(API.linkDownload, { visit: ownVisit.visit, ids: [own.id] })).status).toBe(200);
    } finally {
      await setPublicDownload(true);
    }
    const again = await visitor.post<{ data: LinkDownloadResponse }>(API.linkDownload, { visit: opened.visit, ids: [doc.id] });
    expect(again.status).toBe(200);
    expect((await fetchBytes(visitor, again.body.data.url)).body.toString()).toBe('电话');
  });
});
