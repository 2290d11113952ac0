import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API, linkPreviewUrl } from '../../common/api/paths';
import type { LinkDownloadResponse, LinkInfo, LinkListResponse, LinkOpenResponse, MyLinksResponse } from '../../common/api/sharing';
import { LINK_LOCK_AFTER, LINK_SLOW_AFTER } from '../../common/api/sharing';
import type { FileEntry } from '../../common/api/types';
import { expectError, mkdir, names, text } from './file-kit';
import { addTenantWithUser, ADMIN, Client, liftPasswordGate, loggedInClient, MEMBER, startServer, uploadFile, withDb, type TestServer } from './helpers';
import { fetchBytes, link, openLink } from './sharing-kit';
import { rowsOf } from './action-log-kit';
import { readZip } from '../support/zip-entries';

/**
 * Share links from the visitor's side: tokens that are not ids, codes compared alike for unknown
 * tokens and wrong codes, guessing throttled then locked, counted downloads ending in DEP10213, tickets
 * used once, revocation and expiry at the next call, the tenant's switches at once, and nothing of
 * the sharer's tree above the link.
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
const form = { 'content-type': 'application/x-www-form-urlencoded' };
async function setSwitch(path: string, on: boolean): Promise<void> {
  const r = await admin.raw(path, { method: 'POST', headers: form, body: `value=${on ? 1 : 0}` });
  expect(r.status).toBe(200);
}

describe('creating links', () => {
  it('a token of 192 bits that is no id; a code is mandatory while keyCreate is on, generated or chosen', async () => {
    const f = await text(member, 'link-me.txt', 'hello link');
    expectError(await member.post(API.linkCreate, { fileId: f.id, code: null, validityDays: 0, downloadLimit: null, previewOnly: false }), ERRORS.LINK_CODE_REQUIRED.code);
    expectError(await member.post(API.linkCreate, { fileId: f.id, code: 'ab!', validityDays: 0, downloadLimit: null, previewOnly: false }), ERRORS.LINK_CODE_FORMAT.code);
    const generated = await link(member, f.id);
    expect(generated.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(generated.token).not.toBe(generated.id);
    expect(Buffer.from(generated.token, 'base64url').length).toBe(24);
    expect(generated.code).toMatch(/^[a-z2-9]{4}$/);
    const chosen = await link(member, f.id, { code: 'Ab12' });
    expect(chosen.code).toBe('Ab12');
    // The database keeps neither token nor code in the clear.
    const row = await withDb(server, (db) => db.prepare('select * from share_links where id = ?').get(chosen.id) as Record<string, unknown>);
    expect(JSON.stringify(row)).not.toContain(chosen.token);
    expect(JSON.stringify(row)).not.toContain('Ab12');
    await setSwitch(API.switchKeyCreate, false);
    const open = await link(member, f.id, { code: null });
    expect(open.code).toBeNull();
    await setSwitch(API.switchKeyCreate, true);
    // Someone else's file cannot be linked.
    const theirs = await text(admin, 'admin-only.txt', 'x');
    expectError(await member.post(API.linkCreate, { fileId: theirs.id, code: '', validityDays: 0, downloadLimit: null, previewOnly: false }), ERRORS.NOT_FOUND.code, 404);
  });
});

describe('opening a link', () => {
  let file: FileEntry;
  let info: LinkInfo;
  beforeAll(async () => {
    file = await text(member, 'visit.txt', 'visitor content');
    info = await link(member, file.id);
  });

  it('an unknown token and a wrong code answer exactly alike; the right code opens it', async () => {
    const visitor = anonymous();
    const asked = await visitor.post<{ data: LinkOpenResponse }>(API.linkOpen, { token: info.token });
    const unknownAsked = await visitor.post<{ data: LinkOpenResponse }>(API.linkOpen, { token: 'x'.repeat(32) });
    expect(asked.body).toEqual({ data: { needCode: true } });
    expect(unknownAsked.body).toEqual(asked.body);
    const wrong = await visitor.post(API.linkOpen, { token: info.token, code: 'zzzz' });
    const unknown = await visitor.post(API.linkOpen, { token: 'y'.repeat(32), code: info.code! });
    const malformed = await visitor.post(API.linkOpen, { token: 'short', code: info.code! });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ errorCode: ERRORS.LINK_INVALID.code, errorMessage: ERRORS.LINK_INVALID.message });
    expect(unknown.body).toEqual(wrong.body);
    expect(malformed.body).toEqual(wrong.body);
    expect(wrong.headers.get('referrer-policy')).toBe('no-referrer');
    const opened = await openLink(visitor, info.token, info.code!.toUpperCase());
    expect(opened.root).toMatchObject({ id: file.id, name: 'visit.txt', isDir: false, parentId: null });
    expect(opened.signedIn).toBe(false);
    const listed = await visitor.post<{ data: LinkListResponse }>(API.linkList, { visit: opened.visit, parentId: null });
    expect(listed.body.data.items.map((i) => i.name)).toEqual(['visit.txt']);
    const mine = await member.post<{ data: MyLinksResponse }>(API.linkMine, {});
    expect(mine.body.data.items.find((l) => l.id === info.id)?.views).toBe(1);
  });

  it('guessing slows down per token, then locks it (the right code too); an unknown token the same', async () => {
    const target = await link(member, file.id, { code: 'Qw34' });
    const visitor = anonymous();
    for (let i = 0; i < LINK_SLOW_AFTER; i++) expectError(await visitor.post(API.linkOpen, { token: target.token, code: `zz${i}a` }), ERRORS.LINK_INVALID.code);
    const slowed = await visitor.post(API.linkOpen, { token: target.token, code: 'Qw34' });
    expectError(slowed, ERRORS.LINK_TOO_MANY_ATTEMPTS.code);
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
    // Unknown tokens are counted and slowed the same way.
    const ghost = 'g'.repeat(32);
    for (let i = 0; i < LINK_SLOW_AFTER; i++) expectError(await visitor.post(API.linkOpen, { token: ghost, code: `zz${i}b` }), ERRORS.LINK_INVALID.code);
    expectError(await visitor.post(API.linkOpen, { token: ghost, code: 'Qw34' }), ERRORS.LINK_TOO_MANY_ATTEMPTS.code);
    // Past the lock threshold (counted failures, waits skipped here by ageing them) the right code waits too.
    await withDb(server, (db) => db.prepare("update link_failures set failures = ?, last_failure_at = ? where key like 'tok:%'").run(LINK_LOCK_AFTER - 1, Date.now() - 3600_000));
    await withDb(server, (db) => db.prepare("update link_failures set last_failure_at = ? where key like 'tok:%'").run(Date.now() - 60_000));
    expectError(await anonymous().post(API.linkOpen, { token: target.token, code: 'nope' }), ERRORS.LINK_INVALID.code);
    const locked = await anonymous().post(API.linkOpen, { token: target.token, code: 'Qw34' });
    expectError(locked, ERRORS.LINK_TOO_MANY_ATTEMPTS.code);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(60);
    // Each failure is on record (link.codeFailed), in the link's tenant or, for unknown tokens, the platform's.
    const rows = await rowsOf(server, () => anonymous().post(API.linkOpen, { token: info.token, code: 'bad1' }));
    expect(rows.map((r) => [r.action, r.outcome, r.error_code, r.actor_account])).toEqual([['link.codeFailed', 'refused', ERRORS.LINK_INVALID.code, '访客']]);
  });

  it('a revoked or expired link gives nothing from the next call on', async () => {
    const target = await link(member, file.id);
    const visitor = anonymous();
    const opened = await openLink(visitor, target.token, target.code);
    expect((await member.post(API.linkRevoke, { ids: [target.id] })).body).toEqual({ data: { revoked: 1 } });
    expectError(await visitor.post(API.linkList, { visit: opened.visit, parentId: null }), ERRORS.LINK_GONE.code);
    expectError(await visitor.post(API.linkOpen, { token: target.token, code: target.code }), ERRORS.LINK_GONE.code);
    const other = await link(member, file.id, { validityDays: 1 });
    const v2 = await openLink(visitor, other.token, other.code);
    await withDb(server, (db) => db.prepare('update share_links set expires_at = ? where id = ?').run(Date.now() - 1, other.id));
    expectError(await visitor.post(API.linkDownload, { visit: v2.visit, ids: [file.id] }), ERRORS.LINK_GONE.code);
    // A new code ends visits opened with the old one.
    const third = await link(member, file.id);
    const v3 = await openLink(visitor, third.token, third.code);
    expect((await member.post(API.linkUpdate, { id: third.id, code: 'Zx98' })).status).toBe(200);
    expectError(await visitor.post(API.linkList, { visit: v3.visit, parentId: null }), ERRORS.LINK_VISIT_EXPIRED.code);
    expectError(await visitor.post(API.linkList, { visit: `${v3.visit}x`, parentId: null }), ERRORS.LINK_VISIT_EXPIRED.code);
  });
});

describe('downloads through a link', () => {
  it('counted: the limit answers 500 DEP10213; a ticket serves one copy, whole or in ranges (link-tickets.test.ts)', async () => {
    const content = Buffer.from('0123456789'.repeat(100));
    const f = (await uploadFile(member, content, 'limited.bin')).body.data;
    const target = await link(member, f.id, { downloadLimit: 2 });
    const visitor = anonymous();
    const opened = await openLink(visitor, target.token, target.code);
    expect(opened.downloadsLeft).toBe(2);
    const first = await visitor.post<{ data: LinkDownloadResponse }>(API.linkDownload, { visit: opened.visit, ids: [f.id] });
    expect(first.body.data.downloadsLeft).toBe(1);
    const begun = await fetchBytes(visitor, first.body.data.url, { range: 'bytes=0-499' });
    expect(begun.status).toBe(206);
    expect(begun.headers.get('content-disposition')).toContain('attachment');
    const resumed = await fetchBytes(visitor, first.body.data.url, { range: 'bytes=500-' });
    expect(resumed.status).toBe(206);
    expect(Buffer.concat([begun.body, resumed.body]).equals(content)).toBe(true);
    expectError(await visitor.get(first.body.data.url), ERRORS.LINK_TICKET_INVALID.code, 404);
    const other = await visitor.post<{ data: LinkDownloadResponse }>(API.linkDownload, { visit: opened.visit, ids: [f.id] });
    const whole = await fetchBytes(visitor, other.body.data.url);
    expect(whole.status).toBe(200);
    expect(whole.body.equals(content)).toBe(true);
    expect((await fetchBytes(visitor, other.body.data.url, { range: 'bytes=500-' })).status).toBe(416);
    expect(other.body.data.downloadsLeft).toBe(0);
    const third = await visitor.post(API.linkDownload, { visit: opened.visit, ids: [f.id] });
    expect(third.status).toBe(500);
    expect(third.body).toEqual({ errorCode: ERRORS.DOWNLOAD_EXCEEDED.code, message: ERRORS.DOWNLOAD_EXCEEDED.message });
    const mine = await member.post<{ data: MyLinksResponse }>(API.linkMine, {});
    expect(mine.body.data.items.find((l) => l.id === target.id)).toMatchObject({ downloads: 2, views: 1, state: 'exhausted' });
  });

  it('a folder: its tree is listed and zipped, nothing above it or beside it is reachable', async () => {
    const top = await mkdir(member, '外发');
    const inner = await mkdir(member, '子目录', top.id);
    await text(member, 'a.txt', 'A', top.id);
    await text(member, 'b.txt', 'B', inner.id);
    const beside = await text(member, 'beside.txt', 'no');
    const target = await link(member, inner.id);
    const visitor = anonymous();
    const opened = await openLink(visitor, target.token, target.code);
    const listed = await visitor.post<{ data: LinkListResponse }>(API.linkList, { visit: opened.visit, parentId: null });
    expect(listed.body.data.items.map((i) => i.name)).toEqual(['b.txt']);
    expect(listed.body.data.path.map((p) => p.name)).toEqual(['子目录']);
    for (const id of [top.id, beside.id]) {
      expectError(await visitor.post(API.linkList, { visit: opened.visit, parentId: id }), ERRORS.NOT_FOUND.code, 404);
      expectError(await visitor.post(API.linkDownload, { visit: opened.visit, ids: [id] }), ERRORS.NOT_FOUND.code, 404);
      expect((await visitor.get(linkPreviewUrl(id, opened.visit))).status).toBe(404);
    }
    const zip = await visitor.post<{ data: LinkDownloadResponse }>(API.linkDownload, { visit: opened.visit, ids: [inner.id] });
    const bytes = await fetchBytes(visitor, zip.body.data.url);
    expect(bytes.headers.get('content-type')).toBe('application/zip');
    expect(readZip(bytes.body).map((e) => e.name).sort()).toEqual(['子目录/', '子目录/b.txt']);
  });

  it('preview only: no download nor save; a picture preview is watermarked with the visitor', async () => {
    const png = await sharp({ create: { width: 200, height: 150, channels: 3, background: { r: 255, g: 255, b: 255 } } }).png().toBuffer();
    const f = (await uploadFile(member, png, 'shot.png')).body.data;
    const target = await link(member, f.id, { previewOnly: true });
    const visitor = anonymous();
    const opened = await openLink(visitor, target.token, target.code);
    expect(opened.previewOnly).toBe(true);
    expect(opened.watermark).toMatch(/^guest@/);
    expectError(await visitor.post(API.linkDownload, { visit: opened.visit, ids: [f.id] }), ERRORS.SHARE_PREVIEW_ONLY.code);
    const preview = await fetchBytes(visitor, linkPreviewUrl(f.id, opened.visit));
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/webp');
    expect(preview.headers.get('referrer-policy')).toBe('no-referrer');
    const stats = await sharp(preview.body).stats();
    // A white picture: the grey text makes some pixels darker.
    expect(stats.channels[0]!.min).toBeLessThan(230);
    expectError(await member.post(API.linkSave, { visit: opened.visit, ids: [f.id], targetParentId: null }), ERRORS.SHARE_PREVIEW_ONLY.code);
  });

  it('a signed-in visitor of the tenant saves to 个人文件; another tenant cannot', async () => {
    const f = await text(member, 'keep-me.txt', 'kept');
    const target = await link(member, f.id);
    const opened = await openLink(admin, target.token, target.code);
    expect(opened.signedIn).toBe(true);
    expect((await admin.post(API.linkSave, { visit: opened.visit, ids: [f.id], targetParentId: null })).body).toEqual({ data: { saved: 1 } });
    expect(await names(admin, null)).toContain('keep-me.txt');
    expect((await admin.post(API.linkSave, { visit: opened.visit, ids: [f.id], targetParentId: null })).body).toEqual({ data: { saved: 1 } });
    expect(await names(admin, null)).toContain('keep-me (1).txt');
    expect((await anonymous().post(API.linkSave, { visit: opened.visit, ids: [f.id], targetParentId: null })).status).toBe(401);
    await addTenantWithUser(server, 'outsider', 'Outsider@2024');
    const outsider = await loggedInClient(server, { username: 'outsider', password: 'Outsider@2024' });
    const theirs = await openLink(outsider, target.token, target.code);
    expect(theirs.signedIn).toBe(false);
    expectError(await outsider.post(API.linkSave, { visit: theirs.visit, ids: [f.id], targetParentId: null }), ERRORS.FORBIDDEN.code);
  });

  it('every open, download and preview is on record with the link and the file', async () => {
    const f = await text(member, 'audited.txt', 'a');
    const target = await link(member, f.id);
    const visitor = anonymous();
    const openRows = await rowsOf(server, () => visitor.post(API.linkOpen, { token: target.token, code: target.code }));
    expect(openRows.map((r) => [r.action, r.outcome])).toEqual([['link.open', 'ok']]);
    const opened = await openLink(visitor, target.token, target.code);
    const dl = await rowsOf(server, () => visitor.post(API.linkDownload, { visit: opened.visit, ids: [f.id] }));
    expect(dl.map((r) => r.action)).toEqual(['link.download']);
    expect(dl[0]!.parsedTargets.map((t) => t.type)).toEqual(['link', 'file']);
    const pv = await rowsOf(server, () => visitor.get(linkPreviewUrl(f.id, opened.visit)));
    expect(pv.map((r) => r.action)).toEqual(['link.preview']);
  });
});
