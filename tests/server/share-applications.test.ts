import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type {
  ApplicationDecisionResponse,
  ApplicationListResponse,
  ApprovalCheckResponse,
  FileSecuritySettings,
  MyLinksResponse,
  ShareApplication,
} from '../../common/api/sharing';
import { expectError, mkdir, text } from './file-kit';
import { ADMIN, loggedInClient, startServer, userIdOf, withDb, type Client, type TestServer } from './helpers';
import { rowsOf } from './action-log-kit';
import { approvalOrg, setPolicy, sharedList, submit, type Person } from './sharing-kit';

/**
 * Applications and their approval: the policy decides when one is needed, the applicant picks an
 * allowed approver (never themself), only the current approver decides, a withdrawn, rejected or
 * expired application never becomes a share, a second level follows when set, and each step is on
 * record.
 */
let server: TestServer;
let admin: Client;
let member: Person;
let manager: Person;
let colleague: Person;
let outsider: Person;
let adminId: string;
let sales: string;

const linkBody = (fileId: string, approverId: string, reason = '客户需要这份资料') => ({
  kind: 'link',
  fileIds: [fileId],
  link: { code: '', validityDays: 7, downloadLimit: 3, previewOnly: false },
  reason,
  approverId,
});

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  adminId = await userIdOf(server, 'admin');
  ({ sales, member, manager, colleague, outsider } = await approvalOrg(server, admin));
  await setPolicy(admin, { link: { always: true } });
});
afterAll(async () => {
  await server.close();
});

async function pending(client: Client): Promise<ShareApplication[]> {
  const res = await client.post<{ data: ApplicationListResponse }>(API.applyTodo, {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.items;
}

describe('when an application is needed, and who approves', () => {
  it('a link under “always” is refused without one; the check names the reasons and the department manager', async () => {
    const f = await text(member.client, 'report.txt', 'r');
    const refused = await member.client.post(API.linkCreate, { fileId: f.id, code: '', validityDays: 0, downloadLimit: null, previewOnly: false });
    expectError(refused, ERRORS.SHARE_APPROVAL_REQUIRED.code);
    const check = await member.client.post<{ data: ApprovalCheckResponse }>(API.shareCheck, { kind: 'link', fileIds: [f.id] });
    expect(check.body.data).toMatchObject({ required: true, reasons: ['所有外链分享均需审批'], twoLevels: false });
    expect(check.body.data.approvers.map((a) => a.id)).toEqual([manager.id]);
    // Internal shares need none under this policy.
    const internal = await member.client.post<{ data: ApprovalCheckResponse }>(API.shareCheck, { kind: 'share', fileIds: [f.id], recipients: [{ type: 'user', id: outsider.id }] });
    expect(internal.body.data.required).toBe(false);
  });

  it('the applicant cannot pick themself nor someone the policy does not name; the manager’s own application goes up to the admins', async () => {
    const f = await text(member.client, 'pick.txt', 'p');
    expectError(await submit(member.client, linkBody(f.id, member.id)), ERRORS.APPLY_SELF_APPROVAL.code);
    expectError(await submit(member.client, linkBody(f.id, colleague.id)), ERRORS.APPLY_APPROVER_INVALID.code);
    expectError(await submit(member.client, linkBody(f.id, manager.id, '   ')), ERRORS.APPLY_REASON_REQUIRED.code);
    const own = await text(manager.client, 'mgr.txt', 'm');
    const check = await manager.client.post<{ data: ApprovalCheckResponse }>(API.shareCheck, { kind: 'link', fileIds: [own.id] });
    expect(check.body.data.approvers.map((a) => a.id)).toEqual([adminId]);
  });

  it('internal shares to another department need approval when the policy says so; within the department they do not', async () => {
    await setPolicy(admin, { link: { always: true }, internal: { otherDepartment: true } });
    try {
      const f = await text(member.client, 'dept.txt', 'd');
      const toOther = await member.client.post(API.shareCreate, { fileIds: [f.id], recipients: [{ type: 'user', id: outsider.id }], permission: 'download', validityDays: 0 });
      expectError(toOther, ERRORS.SHARE_APPROVAL_REQUIRED.code);
      const within = await member.client.post(API.shareCreate, { fileIds: [f.id], recipients: [{ type: 'user', id: colleague.id }], permission: 'download', validityDays: 0 });
      expect(within.status, JSON.stringify(within.body)).toBe(200);
      expectError(await member.client.post(API.shareCreate, { fileIds: [f.id], recipients: [{ type: 'dept', id: sales }, { type: 'user', id: outsider.id }], permission: 'preview', validityDays: 0 }), ERRORS.SHARE_APPROVAL_REQUIRED.code);
    } finally {
      await setPolicy(admin, { link: { always: true } });
    }
  });

  it('sensitive names and configured folders make a link need approval under the default-off “always”', async () => {
    const folder = await mkdir(member.client, '合同');
    await setPolicy(admin, { link: { always: false, sensitive: true, folderIds: [folder.id] } });
    try {
      const plain = await text(member.client, 'plain.txt', 'x');
      expect((await member.client.post<{ data: ApprovalCheckResponse }>(API.shareCheck, { kind: 'link', fileIds: [plain.id] })).body.data.required).toBe(false);
      const secret = await text(member.client, '机密方案.txt', 'x');
      expect((await member.client.post<{ data: ApprovalCheckResponse }>(API.shareCheck, { kind: 'link', fileIds: [secret.id] })).body.data.reasons).toEqual(['分享的文件含有敏感词']);
      const inside = await text(member.client, 'c.txt', 'x', folder.id);
      expect((await member.client.post<{ data: ApprovalCheckResponse }>(API.shareCheck, { kind: 'link', fileIds: [inside.id] })).body.data.reasons).toEqual(['文件位于需审批的文件夹中']);
      // A folder holding a sensitive name somewhere below.
      const outer = await mkdir(member.client, '外层');
      await text(member.client, '绝密.txt', 'x', (await mkdir(member.client, '内层', outer.id)).id);
      expect((await member.client.post<{ data: ApprovalCheckResponse }>(API.shareCheck, { kind: 'link', fileIds: [outer.id] })).body.data.required).toBe(true);
      // The settings page shows the folder by name.
      const settings = await admin.get<{ data: FileSecuritySettings }>(API.fileSecurityGet);
      expect(settings.body.data.names[folder.id]).toBe('合同');
      expect((await member.client.get(API.fileSecurityGet)).body).toMatchObject({ errorCode: ERRORS.FORBIDDEN.code });
    } finally {
      await setPolicy(admin, { link: { always: true } });
    }
  });
});

describe('the state machine', () => {
  it('submit → the manager approves → the link exists, as the applicant’s; each step on record', async () => {
    const f = await text(member.client, 'approved.txt', 'a');
    const submitted = await rowsOf(server, async () => {
      const res = await submit(member.client, linkBody(f.id, manager.id));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
    expect(submitted.map((r) => r.action)).toEqual(['apply.submit']);
    const [app] = await pending(manager.client);
    expect(app).toMatchObject({ state: 'pending', level: 1, levels: 1, approver: { id: manager.id }, reason: '客户需要这份资料' });
    expect(app!.files.map((x) => x.name)).toEqual(['approved.txt']);
    // Nobody else sees it or may decide it.
    expect(await pending(colleague.client)).toEqual([]);
    expectError(await colleague.client.post(API.applyApprove, { ids: [app!.id] }), ERRORS.APPLY_NOT_FOUND.code, 404);
    expectError(await member.client.post(API.applyApprove, { ids: [app!.id] }), ERRORS.APPLY_SELF_APPROVAL.code);
    expectError(await admin.post(API.applyGet, { id: app!.id }), ERRORS.APPLY_NOT_FOUND.code, 404);

    const rows = await rowsOf(server, async () => {
      const res = await manager.client.post<{ data: ApplicationDecisionResponse }>(API.applyApprove, { ids: [app!.id], comment: '同意' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.results[0]).toMatchObject({ ok: true, application: { state: 'approved', comment: '同意' } });
    });
    expect(rows.map((r) => [r.action, r.actor_account])).toEqual([
      ['apply.approve', 'mgr'],
      ['link.create', 'member'],
    ]);
    const mine = await member.client.post<{ data: ApplicationListResponse }>(API.applyMine, {});
    const done = mine.body.data.items.find((a) => a.id === app!.id)!;
    expect(done.history.map((h) => [h.kind, h.actor?.id ?? null])).toEqual([
      ['submit', member.id],
      ['approve', manager.id],
      ['created', null],
    ]);
    expect(done.linkIds).toHaveLength(1);
    const links = await member.client.post<{ data: MyLinksResponse }>(API.linkMine, {});
    expect(links.body.data.items.find((l) => l.id === done.linkIds[0])).toMatchObject({ applicationId: app!.id, downloadLimit: 3, state: 'active' });
    // Decided: in the approver's done box, and not decidable again.
    const decided = await manager.client.post<{ data: ApplicationListResponse }>(API.applyTodo, { box: 'done' });
    expect(decided.body.data.items.map((a) => a.id)).toContain(app!.id);
    expectError(await manager.client.post(API.applyApprove, { ids: [app!.id] }), ERRORS.APPLY_NOT_PENDING.code);
  });

  it('reject needs a reason the applicant sees; a withdrawn application cannot be approved', async () => {
    const f = await text(member.client, 'rejected.txt', 'r');
    const a = (await submit(member.client, linkBody(f.id, manager.id))).body.data;
    expectError(await manager.client.post(API.applyReject, { ids: [a.id], comment: ' ' }), ERRORS.APPLY_COMMENT_REQUIRED.code);
    const rejected = await manager.client.post<{ data: ApplicationDecisionResponse }>(API.applyReject, { ids: [a.id], comment: '涉及客户隐私' });
    expect(rejected.body.data.results[0]!.application).toMatchObject({ state: 'rejected', comment: '涉及客户隐私' });
    const seen = await member.client.post<{ data: ShareApplication }>(API.applyGet, { id: a.id });
    expect(seen.body.data).toMatchObject({ state: 'rejected', comment: '涉及客户隐私', linkIds: [] });
    expectError(await member.client.post(API.applyWithdraw, { id: a.id }), ERRORS.APPLY_NOT_PENDING.code);

    const b = (await submit(member.client, linkBody(f.id, manager.id))).body.data;
    expect((await member.client.post<{ data: ShareApplication }>(API.applyWithdraw, { id: b.id })).body.data.state).toBe('withdrawn');
    expectError(await manager.client.post(API.applyApprove, { ids: [b.id] }), ERRORS.APPLY_NOT_PENDING.code);
    expect((await member.client.post<{ data: MyLinksResponse }>(API.linkMine, { keyword: 'rejected' })).body.data.items).toEqual([]);
    // Someone else's application is unknown to them.
    expectError(await colleague.client.post(API.applyWithdraw, { id: b.id }), ERRORS.APPLY_NOT_FOUND.code, 404);
  });

  it('a batch: each application answered on its own, each decision one row', async () => {
    const f1 = await text(member.client, 'batch1.txt', '1');
    const f2 = await text(member.client, 'batch2.txt', '2');
    const a1 = (await submit(member.client, linkBody(f1.id, manager.id))).body.data;
    const a2 = (await submit(member.client, linkBody(f2.id, manager.id))).body.data;
    await member.client.post(API.applyWithdraw, { id: a2.id });
    let results: ApplicationDecisionResponse['results'] = [];
    const rows = await rowsOf(server, async () => {
      results = (await manager.client.post<{ data: ApplicationDecisionResponse }>(API.applyApprove, { ids: [a1.id, a2.id] })).body.data.results;
    });
    expect(results.map((r) => [r.id, r.ok, r.errorCode ?? null])).toEqual([
      [a1.id, true, null],
      [a2.id, false, ERRORS.APPLY_NOT_PENDING.code],
    ]);
    expect(rows.map((r) => [r.action, r.outcome, r.error_code])).toEqual([
      ['apply.approve', 'ok', null],
      ['link.create', 'ok', null],
      ['apply.approve', 'refused', ERRORS.APPLY_NOT_PENDING.code],
    ]);
  });

  it('an application past its time is 已过期: it cannot be approved, and the sweeper marks the rest', async () => {
    const f = await text(member.client, 'late.txt', 'l');
    const a = (await submit(member.client, linkBody(f.id, manager.id))).body.data;
    const b = (await submit(member.client, linkBody(f.id, manager.id))).body.data;
    await withDb(server, (db) => db.prepare('update share_applications set expires_at = ? where id in (?, ?)').run(Date.now() - 1, a.id, b.id));
    expectError(await manager.client.post(API.applyApprove, { ids: [a.id] }), ERRORS.APPLY_NOT_PENDING.code);
    expect((await member.client.post<{ data: ShareApplication }>(API.applyGet, { id: a.id })).body.data.state).toBe('expired');
    await server.app.sweeper.sweepOnce();
    const later = await member.client.post<{ data: ShareApplication }>(API.applyGet, { id: b.id });
    expect(later.body.data.state).toBe('expired');
    expect(later.body.data.history.map((h) => h.kind)).toEqual(['submit', 'expire']);
    expect((await pending(manager.client)).map((x) => x.id)).not.toContain(b.id);
  });

  it('two levels: the manager passes it on to an admin, who approves; the share reaches the recipient only then', async () => {
    await setPolicy(admin, { link: { always: true }, internal: { otherDepartment: true }, secondApprover: { kind: 'role', role: 'admin' } });
    try {
      const f = await text(member.client, 'two-levels.txt', 't');
      const app = await submit(member.client, {
        kind: 'share',
        fileIds: [f.id],
        share: { recipients: [{ type: 'user', id: outsider.id }], permission: 'download', validityDays: 0 },
        reason: '跨部门协作',
        approverId: manager.id,
      });
      expect(app.status, JSON.stringify(app.body)).toBe(200);
      expect(app.body.data).toMatchObject({ levels: 2, level: 1 });
      const first = await manager.client.post<{ data: ApplicationDecisionResponse }>(API.applyApprove, { ids: [app.body.data.id], comment: '部门同意' });
      expect(first.body.data.results[0]!.application).toMatchObject({ state: 'pending', level: 2, approver: { id: adminId } });
      expect((await sharedList(outsider.client)).items.map((i) => i.name)).not.toContain('two-levels.txt');
      expectError(await manager.client.post(API.applyApprove, { ids: [app.body.data.id] }), ERRORS.APPLY_NOT_APPROVER.code);
      const second = await admin.post<{ data: ApplicationDecisionResponse }>(API.applyApprove, { ids: [app.body.data.id] });
      expect(second.body.data.results[0]!.application).toMatchObject({ state: 'approved' });
      expect((await sharedList(outsider.client)).items.map((i) => [i.name, i.share?.permission])).toContainEqual(['two-levels.txt', 'download']);
    } finally {
      await setPolicy(admin, { link: { always: true } });
    }
  });
});
