import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { LinkInfo, LinkSummary, MyLinksResponse } from '../../common/api/sharing';
import { rowsOf } from './action-log-kit';
import { expectError, mkdir, text } from './file-kit';
import { ADMIN, Client, liftPasswordGate, loggedInClient, MEMBER, startServer, userIdOf, withDb, type TestServer } from './helpers';
import { link, openLink } from './sharing-kit';

/**
 * The link page before the code (issue 44, LINKS.summary): an anonymous visitor learns who shared
 * what until when — the sharer's display name, the entry's name, kind and (a file's) size, the expiry
 * — and nothing else: no ids, accounts, counts, nor anything inside a folder. Unknown and dead links
 * answer alike; a tenant that wants a session keeps outsiders out; it is no visit of the link.
 */
let server: TestServer;
let admin: Client;
let member: Client;
let memberNick: string;

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  await liftPasswordGate(server, MEMBER.username);
  member = await loggedInClient(server, MEMBER);
  memberNick = await withDb(server, (db) => (db.prepare("select nick_name from users where username = 'member'").get() as { nick_name: string }).nick_name);
});
afterAll(async () => {
  await server.close();
});

const anonymous = () => new Client(server.baseUrl);
const summaryOf = (client: Client, token: string) => client.post<{ data: LinkSummary; errorCode?: string; errorMessage?: string }>(API.linkSummary, { token });
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const mine = async (id: string): Promise<LinkInfo> => (await member.post<{ data: MyLinksResponse }>(API.linkMine, {})).body.data.items.find((l) => l.id === id)!;

describe("the link page's summary before the code", () => {
  it('a file: the sharer by display name, the name, kind, size, expiry and preview-only — and not one field more', async () => {
    const f = await text(member, '季度报告-终版.txt', '利润表：保密内容');
    const target = await link(member, f.id, { validityDays: 7, downloadLimit: 3, previewOnly: true });
    const res = await summaryOf(anonymous(), target.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.body.data).toEqual({
      needCode: true,
      sharedBy: { nickName: memberNick },
      name: '季度报告-终版.txt',
      isDir: false,
      kind: 'txt',
      size: Buffer.byteLength('利润表：保密内容'),
      expiresAt: target.expiresAt,
      previewOnly: true,
    });
    // Nothing that identifies the account or the file inside the tenant, and nothing of the content.
    const raw = JSON.stringify(res.body);
    const memberId = await userIdOf(server, 'member');
    for (const secret of [memberId, 'member', f.id, target.id, target.code!, '利润表']) expect(raw).not.toContain(secret);
  });

  it('a folder: its name and kind, no size and nothing of what it holds', async () => {
    const folder = await mkdir(member, '项目合同');
    await text(member, '报价单-A公司.txt', 'x', folder.id);
    const sub = await mkdir(member, '附件', folder.id);
    const target = await link(member, folder.id);
    const { data } = (await summaryOf(anonymous(), target.token)).body;
    expect(data).toEqual({ needCode: true, sharedBy: { nickName: memberNick }, name: '项目合同', isDir: true, kind: 'folder', size: null, expiresAt: null, previewOnly: false });
    const raw = JSON.stringify(data);
    for (const inside of ['报价单', '附件', sub.id]) expect(raw).not.toContain(inside);
  });

  it('a link without a code says so (the page opens it); asking is neither a view nor an action', async () => {
    await admin.raw(API.switchKeyCreate, { method: 'POST', headers: form, body: 'value=0' });
    try {
      const f = await text(member, 'open-notes.txt', 'n');
      const target = await link(member, f.id, { code: null });
      const rows = await rowsOf(server, async () => {
        for (let i = 0; i < 3; i++) expect((await summaryOf(anonymous(), target.token)).body.data.needCode).toBe(false);
      });
      expect(rows).toEqual([]);
      expect((await mine(target.id)).views).toBe(0);
      // The visit is logged and counted when the page opens it, as before.
      const opened = await rowsOf(server, () => openLink(anonymous(), target.token));
      expect(opened.map((r) => r.action)).toEqual(['link.open']);
      expect((await mine(target.id)).views).toBe(1);
    } finally {
      await admin.raw(API.switchKeyCreate, { method: 'POST', headers: form, body: 'value=1' });
    }
  });

  it('unknown, malformed, revoked, expired and deleted links answer exactly alike, naming nothing', async () => {
    const answers: unknown[] = [];
    const gone = async (token: string) => {
      const res = await summaryOf(anonymous(), token);
      expectError(res, ERRORS.LINK_GONE.code);
      answers.push({ status: res.status, body: res.body });
    };
    await gone('x'.repeat(32));
    await gone('not a token');
    const revoked = await link(member, (await text(member, 'revoked-plan.txt', 'r')).id);
    expect((await member.post(API.linkRevoke, { ids: [revoked.id] })).status).toBe(200);
    await gone(revoked.token);
    const expired = await link(member, (await text(member, 'expired-plan.txt', 'e')).id, { validityDays: 1 });
    await withDb(server, (db) => db.prepare('update share_links set expires_at = ? where id = ?').run(Date.now() - 1, expired.id));
    await gone(expired.token);
    const deletedFile = await text(member, 'deleted-plan.txt', 'd');
    const deleted = await link(member, deletedFile.id);
    expect((await member.post(API.removeFiles, { ids: [deletedFile.id] })).status).toBe(200);
    await gone(deleted.token);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(JSON.stringify(answers[0])).not.toContain('plan');
  });

  it('publicDownLoad off (the public space\'s downloads) never makes a link ask for a session: the summary answers alike', async () => {
    const f = await text(member, 'anyone.txt', 'm');
    const target = await link(member, f.id);
    await admin.raw(API.switchPublicDownload, { method: 'POST', headers: form, body: 'value=0' });
    try {
      const res = await summaryOf(anonymous(), target.token);
      expect(res.status).toBe(200);
      expect(res.body.data.name).toBe('anyone.txt');
      expect((await summaryOf(admin, target.token)).body).toEqual(res.body);
    } finally {
      await admin.raw(API.switchPublicDownload, { method: 'POST', headers: form, body: 'value=1' });
    }
  });

  it('asking for the summary is no code guess: wrong codes are still throttled, the summary never is', async () => {
    const f = await text(member, 'guarded.txt', 'g');
    const target = await link(member, f.id);
    const visitor = anonymous();
    for (let i = 0; i < 12; i++) expect((await summaryOf(visitor, target.token)).status).toBe(200);
    await openLink(visitor, target.token, target.code);
    for (let i = 0; i < 5; i++) expectError(await visitor.post(API.linkOpen, { token: target.token, code: 'zzzz' }), ERRORS.LINK_INVALID.code);
    expectError(await visitor.post(API.linkOpen, { token: target.token, code: 'zzzz' }), ERRORS.LINK_TOO_MANY_ATTEMPTS.code);
    expect((await summaryOf(visitor, target.token)).status).toBe(200);
  });
});
