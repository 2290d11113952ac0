import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import { DEFAULT_SHARE_POLICY, type ShareApplication } from '../../common/api/sharing';
import { mkdir, text } from './file-kit';
import { ADMIN, loggedInClient, startServer, type Client, type TestServer } from './helpers';
import { messagesOf } from './notice-kit';
import { downloadThroughLink, link, noticeCast, setPolicy, share, submit, type Person } from './sharing-kit';

/**
 * Sharing tells the notices (issue 16's NoticeEvents port) what people should hear of: everyone a
 * share reaches (a department's subtree included) gets share.received, then share.revoked; the link's
 * owner hears of its downloads; the approver of an application gets apply.pending and the applicant
 * the decision. Messages are written after the change committed, so the test waits for them.
 */
let server: TestServer;
let admin: Client;
let rd: string; // carol's department's parent
let sam: Person; // 研发部, shares
let mgr: Person; // 研发部's manager
let carol: Person; // 研发部/前端组
let dave: Person; // 市场部: reached by nothing

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  ({ rd, sam, mgr, carol, dave } = await noticeCast(server, admin, { carolBelow: true }));
});
afterAll(async () => {
  await server.close();
});

describe('sharing tells the notices', () => {
  it('a department share reaches its subtree: share.received, then share.revoked; the sharer and outsiders hear nothing', async () => {
    const folder = await mkdir(sam.client, '季度报告');
    const made = await share(sam.client, [folder.id], [{ type: 'dept', id: rd }], 'download');
    for (const who of [carol, mgr]) {
      const [m] = await messagesOf(who, 'share.received');
      expect(m).toMatchObject({ actor: { id: sam.id }, file: { id: folder.id, name: '季度报告', isDir: true }, detail: { permission: 'download' } });
    }
    // Written together with the ones above: nothing more is coming.
    expect(await messagesOf(sam, 'share.received', 0)).toEqual([]);
    expect(await messagesOf(dave, 'share.received', 0)).toEqual([]);

    // Inside the shared folder, a change reaches the people of the share (they watch it now), by name.
    const inside = await text(sam.client, 'notes.txt', '纪要', folder.id);
    expect((await sam.client.post(API.lock, { ids: [inside.id] })).status).toBe(200);
    const [locked] = await messagesOf(carol, 'file.locked');
    expect(locked).toMatchObject({ actor: { id: sam.id }, file: { id: inside.id, name: 'notes.txt' } });
    expect(await messagesOf(dave, 'file.locked', 0)).toEqual([]);

    expect((await sam.client.post(API.shareRevoke, { ids: made.shares.map((s) => s.id) })).status).toBe(200);
    const [revoked] = await messagesOf(carol, 'share.revoked');
    expect(revoked).toMatchObject({ actor: { id: sam.id }, file: { id: folder.id } });
  });

  it('the link owner hears of downloads', async () => {
    const f = await text(sam.client, 'price.txt', '报价');
    const l = await link(sam.client, f.id, { code: 'ab12' });
    await downloadThroughLink(server, l, f.id, 'ab12');
    const [m] = await messagesOf(sam, 'link.downloaded');
    expect(m).toMatchObject({ file: { id: f.id, name: 'price.txt' }, detail: { downloads: 1 } });
  });

  it('an application: the approver hears it waits, the applicant hears the decision', async () => {
    await setPolicy(admin, { link: { always: true } });
    try {
      const f = await text(sam.client, 'contract.txt', '合同');
      const res = await submit(sam.client, { kind: 'link', fileIds: [f.id], link: { code: '', validityDays: 0, downloadLimit: null, previewOnly: false }, reason: '客户需要', approverId: mgr.id });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const application: ShareApplication = res.body.data;
      const [waiting] = await messagesOf(mgr, 'apply.pending');
      expect(waiting).toMatchObject({ actor: { id: sam.id }, target: { kind: 'application', applicationId: application.id, page: 'dealApply' } });
      expect((await mgr.client.post(API.applyApprove, { ids: [application.id], comment: '同意' })).status).toBe(200);
      const [approved] = await messagesOf(sam, 'apply.approved');
      expect(approved).toMatchObject({ target: { kind: 'application', applicationId: application.id, page: 'myApply' } });
    } finally {
      await setPolicy(admin, DEFAULT_SHARE_POLICY);
    }
  });
});
