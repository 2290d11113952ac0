import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { ApplicationDecisionResponse, LinkInfo, ShareInfo, SharePermission } from '../../common/api/sharing';
import type { LinkSettings } from '../../common/api/endpoints/links';
import { rowsOf } from './action-log-kit';
import { mkdir, text } from './file-kit';
import { ADMIN, loggedInClient, startServer, type Answer, type Client, type TestServer } from './helpers';
import { approvalOrg, link, setPolicy, share, submit, type Person } from './sharing-kit';

/**
 * Approved terms are a ceiling (issue 35 finding 3, common/api/share-terms.ts): an update of a share
 * or link may narrow what its approval granted, never widen past it without a new application — term
 * by term and all at once, whether the policy was loosened or tightened since. A share or link made
 * without approval is judged by the policy in force, like a create.
 */
let server: TestServer;
let admin: Client;
let member: Person;
let manager: Person;
let colleague: Person;
let outsider: Person;

const DAY = 24 * 3600 * 1000;
const OTHER_DEPT = '共享给其他部门需审批';
const ALWAYS = '所有外链分享均需审批';
const IN_FOLDER = '文件位于需审批的文件夹中';
const BASE_POLICY = { link: { always: true }, internal: { otherDepartment: true } };

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  ({ member, manager, colleague, outsider } = await approvalOrg(server, admin, 't'));
  await setPolicy(admin, BASE_POLICY);
});
afterAll(async () => {
  await server.close();
});

async function setKeyCreate(on: boolean): Promise<void> {
  const r = await admin.raw(API.switchKeyCreate, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `value=${on ? 1 : 0}` });
  expect(r.status).toBe(200);
}

async function approveLast(): Promise<{ shareIds: string[]; linkIds: string[] }> {
  const todo = await manager.client.post<{ data: { items: Array<{ id: string }> } }>(API.applyTodo, {});
  const id = todo.body.data.items[0]!.id;
  const res = await manager.client.post<{ data: ApplicationDecisionResponse }>(API.applyApprove, { ids: [id] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const app = res.body.data.results[0]!.application!;
  expect(app.state).toBe('approved');
  return { shareIds: app.shareIds, linkIds: app.linkIds };
}

/** A share to the outsider (another department) made by the manager's approval. */
async function approvedShare(name: string, permission: SharePermission, validityDays: number): Promise<{ id: string; approvedAt: number }> {
  const f = await text(member.client, name, 'content');
  // A direct create is refused: this is what needs approval.
  const direct = await member.client.post(API.shareCreate, { fileIds: [f.id], recipients: [{ type: 'user', id: outsider.id }], permission, validityDays });
  expect(direct.body).toMatchObject({ errorCode: ERRORS.SHARE_APPROVAL_REQUIRED.code, reasons: [OTHER_DEPT] });
  const applied = await submit(member.client, { kind: 'share', fileIds: [f.id], share: { recipients: [{ type: 'user', id: outsider.id }], permission, validityDays }, reason: '对方需要', approverId: manager.id });
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  const approvedAt = Date.now();
  const { shareIds } = await approveLast();
  return { id: shareIds[0]!, approvedAt };
}

async function approvedLink(name: string, settings: LinkSettings, parentId: string | null = null): Promise<LinkInfo> {
  const f = await text(member.client, name, 'content', parentId);
  expect((await member.client.post(API.linkCreate, { fileId: f.id, ...settings })).body).toMatchObject({ errorCode: ERRORS.SHARE_APPROVAL_REQUIRED.code });
  const applied = await submit(member.client, { kind: 'link', fileIds: [f.id], link: settings, reason: '客户要看', approverId: manager.id });
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  const { linkIds } = await approveLast();
  return mineLink(linkIds[0]!);
}

async function mineShare(id: string): Promise<ShareInfo> {
  const res = await member.client.post<{ data: { items: ShareInfo[] } }>(API.shareMine, { pageSize: 100 });
  return res.body.data.items.find((s) => s.id === id)!;
}
async function mineLink(id: string): Promise<LinkInfo> {
  const res = await member.client.post<{ data: { items: LinkInfo[] } }>(API.linkMine, { pageSize: 100 });
  return res.body.data.items.find((l) => l.id === id)!;
}

const updateShare = (body: Record<string, unknown>) => member.client.post<{ data: ShareInfo; errorCode?: string; reasons?: string[] }>(API.shareUpdate, body);
const updateLink = (body: Record<string, unknown>) => member.client.post<{ data: LinkInfo; errorCode?: string; reasons?: string[] }>(API.linkUpdate, body);

function expectRefused(res: Answer<{ errorCode?: string; reasons?: string[] }>, reasons: string[]): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.errorCode).toBe(ERRORS.SHARE_APPROVAL_REQUIRED.code);
  expect(res.body.reasons).toEqual(reasons);
}
function expectOk(res: Answer<unknown>): void {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('an approved share', () => {
  it('refuses a wider permission or a later end, each alone and together; the share stays as approved', async () => {
    const { id, approvedAt } = await approvedShare('approved-share.txt', 'preview', 7);
    const before = await mineShare(id);
    expect(before.expiresAt! - approvedAt).toBeGreaterThan(7 * DAY - 60_000);

    expectRefused(await updateShare({ id, permission: 'edit' }), [OTHER_DEPT, '权限超出审批通过的“预览”']);
    expectRefused(await updateShare({ id, permission: 'download' }), [OTHER_DEPT, '权限超出审批通过的“预览”']);
    expectRefused(await updateShare({ id, validityDays: 0 }), [OTHER_DEPT, '有效期超出审批通过的期限']);
    // The same 7 days asked later end later than approved: validity is an end date.
    expectRefused(await updateShare({ id, validityDays: 7 }), [OTHER_DEPT, '有效期超出审批通过的期限']);
    expectRefused(await updateShare({ id, permission: 'edit', validityDays: 0 }), [OTHER_DEPT, '权限超出审批通过的“预览”', '有效期超出审批通过的期限']);
    const after = await mineShare(id);
    expect({ permission: after.permission, expiresAt: after.expiresAt }).toEqual({ permission: 'preview', expiresAt: before.expiresAt });
    // The ceiling, as recorded with the share.
    expect(after.approvedTerms).toEqual({ permission: 'preview', expiresAt: before.expiresAt, levels: 1, reasons: [OTHER_DEPT] });
  });

  it('narrows freely, and may come back up to what was approved, not past it', async () => {
    const { id } = await approvedShare('narrow-share.txt', 'download', 7);
    const approved = (await mineShare(id)).approvedTerms!;
    expectOk(await updateShare({ id, permission: 'preview' }));
    expectOk(await updateShare({ id, validityDays: 3 }));
    expect(await mineShare(id)).toMatchObject({ permission: 'preview' });
    // Back up within the approval.
    expectOk(await updateShare({ id, permission: 'download', validityDays: 6 }));
    const back = await mineShare(id);
    expect(back.permission).toBe('download');
    expect(back.expiresAt!).toBeLessThanOrEqual(approved.expiresAt!);
    expectRefused(await updateShare({ id, permission: 'edit' }), [OTHER_DEPT, '权限超出审批通过的“下载”']);
    // A narrowing named with a widening is refused whole.
    expectRefused(await updateShare({ id, permission: 'preview', validityDays: 0 }), [OTHER_DEPT, '有效期超出审批通过的期限']);
    expect((await mineShare(id)).permission).toBe('download');
  });

  it('every update is one share.update row; a refused one with SHR-8004 and the widened terms', async () => {
    const { id } = await approvedShare('logged-share.txt', 'preview', 7);
    const refused = await rowsOf(server, () => updateShare({ id, permission: 'edit', validityDays: 0 }));
    expect(refused.map((r) => [r.action, r.outcome, r.error_code])).toEqual([['share.update', 'refused', ERRORS.SHARE_APPROVAL_REQUIRED.code]]);
    expect(refused[0]!.parsedDetail).toMatchObject({ permission: 'edit', validityDays: 0, widened: ['permission', 'expiresAt'] });
    expect(refused[0]!.parsedTargets.map((t) => t.name)).toContain('logged-share.txt');
    const narrowed = await rowsOf(server, () => updateShare({ id, validityDays: 1 }));
    expect(narrowed.map((r) => [r.action, r.outcome])).toEqual([['share.update', 'ok']]);
  });
});

describe('an approved link', () => {
  const strict: LinkSettings = { code: 'Ab12', validityDays: 1, downloadLimit: 1, previewOnly: true };

  it('refuses each of code, validity, limit and preview-only removed, and all four at once (the finding)', async () => {
    await setKeyCreate(false);
    try {
      const l = await approvedLink('approved-link.txt', strict);
      expect(l).toMatchObject({ code: 'Ab12', downloadLimit: 1, previewOnly: true });
      expectRefused(await updateLink({ id: l.id, code: null }), [ALWAYS, '审批通过的链接须设提取码']);
      expectRefused(await updateLink({ id: l.id, validityDays: 0 }), [ALWAYS, '有效期超出审批通过的期限']);
      expectRefused(await updateLink({ id: l.id, validityDays: 2 }), [ALWAYS, '有效期超出审批通过的期限']);
      expectRefused(await updateLink({ id: l.id, downloadLimit: null }), [ALWAYS, '下载次数超出审批通过的 1 次']);
      expectRefused(await updateLink({ id: l.id, downloadLimit: 2 }), [ALWAYS, '下载次数超出审批通过的 1 次']);
      expectRefused(await updateLink({ id: l.id, previewOnly: false }), [ALWAYS, '审批通过的链接仅允许预览']);
      expectRefused(await updateLink({ id: l.id, code: null, validityDays: 0, downloadLimit: null, previewOnly: false }), [
        ALWAYS,
        '审批通过的链接须设提取码',
        '有效期超出审批通过的期限',
        '下载次数超出审批通过的 1 次',
        '审批通过的链接仅允许预览',
      ]);
      const after = await mineLink(l.id);
      expect(after).toMatchObject({ code: 'Ab12', expiresAt: l.expiresAt, downloadLimit: 1, previewOnly: true });
      expect(after.approvedTerms).toEqual({ code: true, expiresAt: l.expiresAt, downloadLimit: 1, previewOnly: true, levels: 1, reasons: [ALWAYS] });
      // A new code in place of the old one, and the same terms, are no wider.
      expectOk(await updateLink({ id: l.id, code: 'Zz99', downloadLimit: 1, previewOnly: true }));
      expect(await mineLink(l.id)).toMatchObject({ code: 'Zz99' });
    } finally {
      await setKeyCreate(true);
    }
  });

  it('narrows freely (a code added, fewer downloads, preview-only added, a shorter validity) and comes back up to the approval only', async () => {
    await setKeyCreate(false);
    try {
      const l = await approvedLink('loose-link.txt', { code: null, validityDays: 7, downloadLimit: 5, previewOnly: false });
      expectOk(await updateLink({ id: l.id, code: '' }));
      expectOk(await updateLink({ id: l.id, downloadLimit: 2, previewOnly: true, validityDays: 3 }));
      expect(await mineLink(l.id)).toMatchObject({ downloadLimit: 2, previewOnly: true });
      expect((await mineLink(l.id)).code).toMatch(/^[a-z2-9]{4}$/);
      // All of it back, within the approval.
      expectOk(await updateLink({ id: l.id, code: null, downloadLimit: 5, previewOnly: false, validityDays: 6 }));
      expect(await mineLink(l.id)).toMatchObject({ code: null, downloadLimit: 5, previewOnly: false });
      expectRefused(await updateLink({ id: l.id, downloadLimit: 6 }), [ALWAYS, '下载次数超出审批通过的 5 次']);
    } finally {
      await setKeyCreate(true);
    }
  });
});

describe('the policy changed after approval', () => {
  it('loosened: the approval stays the ceiling (only the ceiling lines remain); a new create is judged by the new policy', async () => {
    const { id } = await approvedShare('loosened-share.txt', 'preview', 7);
    const l = await approvedLink('loosened-link.txt', { code: '', validityDays: 7, downloadLimit: 1, previewOnly: true });
    await setPolicy(admin, { link: { always: false }, internal: { otherDepartment: false } });
    try {
      expectRefused(await updateShare({ id, permission: 'edit' }), ['权限超出审批通过的“预览”']);
      expectRefused(await updateLink({ id: l.id, downloadLimit: null, previewOnly: false }), ['下载次数超出审批通过的 1 次', '审批通过的链接仅允许预览']);
      expectOk(await updateShare({ id, validityDays: 2 }));
      expectOk(await updateLink({ id: l.id, validityDays: 2 }));
      // Sharing again is a create under the policy in force: its terms replace the approval's.
      const file = (await mineShare(id)).file.id;
      const again = await share(member.client, [file], [{ type: 'user', id: outsider.id }], 'edit', 0);
      expect(again.shares[0]).toMatchObject({ id, permission: 'edit', expiresAt: null, applicationId: null, approvedTerms: null });
    } finally {
      await setPolicy(admin, BASE_POLICY);
    }
  });

  it('tightened: narrowing still passes; coming back up within the approval needs what the new policy asks', async () => {
    const folder = await mkdir(member.client, '合同-terms');
    const l = await approvedLink('tight-link.txt', { code: '', validityDays: 7, downloadLimit: 5, previewOnly: false }, folder.id);
    const { id } = await approvedShare('tight-share.txt', 'download', 7);
    expectOk(await updateLink({ id: l.id, downloadLimit: 2 }));
    expectOk(await updateShare({ id, permission: 'preview' }));
    // A new reason for links, and a second level for everything.
    await setPolicy(admin, { ...BASE_POLICY, link: { always: true, folderIds: [folder.id] }, secondApprover: { kind: 'role', role: 'admin' } });
    try {
      expectOk(await updateLink({ id: l.id, downloadLimit: 1 }));
      expectRefused(await updateLink({ id: l.id, downloadLimit: 5 }), [ALWAYS, IN_FOLDER]);
      expectRefused(await updateLink({ id: l.id, downloadLimit: 9 }), [ALWAYS, IN_FOLDER, '下载次数超出审批通过的 5 次']);
      expectRefused(await updateShare({ id, permission: 'download' }), [OTHER_DEPT]);
      expectOk(await updateShare({ id, validityDays: 1 }));
      expect(await mineLink(l.id)).toMatchObject({ downloadLimit: 1 });
      expect(await mineShare(id)).toMatchObject({ permission: 'preview' });
    } finally {
      await setPolicy(admin, BASE_POLICY);
    }
    // Under the policy it was approved under, the approval answers again.
    expectOk(await updateLink({ id: l.id, downloadLimit: 5 }));
    expectOk(await updateShare({ id, permission: 'download' }));
  });
});

describe('shares and links made without approval', () => {
  it('have the policy in force as their ceiling, exactly like a create', async () => {
    await setPolicy(admin, { link: { always: false }, internal: { otherDepartment: false } });
    let shareId = '';
    let linkId = '';
    try {
      const f = await text(member.client, 'free.txt', 'free');
      const made = await share(member.client, [f.id], [{ type: 'user', id: outsider.id }], 'preview', 7);
      shareId = made.shares[0]!.id;
      linkId = (await link(member.client, f.id, { validityDays: 1, downloadLimit: 1, previewOnly: true })).id;
      // Nothing asks for approval now: widening is as free as a create.
      expectOk(await updateShare({ id: shareId, permission: 'edit', validityDays: 0 }));
      expectOk(await updateLink({ id: linkId, validityDays: 0, downloadLimit: null, previewOnly: false }));
      expectOk(await updateShare({ id: shareId, permission: 'preview', validityDays: 2 }));
      expectOk(await updateLink({ id: linkId, validityDays: 2, downloadLimit: 1, previewOnly: true }));
    } finally {
      await setPolicy(admin, BASE_POLICY);
    }
    // The policy now wants an application for the same share and link: widening is refused like a create, narrowing is not.
    expectRefused(await updateShare({ id: shareId, permission: 'download' }), [OTHER_DEPT]);
    expectRefused(await updateLink({ id: linkId, downloadLimit: 3 }), [ALWAYS]);
    expectOk(await updateShare({ id: shareId, validityDays: 1 }));
    expectOk(await updateLink({ id: linkId, validityDays: 1 }));
    // Within the department nothing needs approval: widening is free.
    const g = await text(member.client, 'team.txt', 'team');
    const inside = (await share(member.client, [g.id], [{ type: 'user', id: colleague.id }], 'preview', 1)).shares[0]!;
    expectOk(await updateShare({ id: inside.id, permission: 'edit', validityDays: 0 }));
    expect(await mineShare(inside.id)).toMatchObject({ permission: 'edit', expiresAt: null, approvedTerms: null });
  });
});

describe('widening through a new application', () => {
  it('a share: an application for the same entry and recipient, once approved, widens the share itself and becomes its ceiling', async () => {
    const { id } = await approvedShare('reapplied-share.txt', 'preview', 7);
    const before = await mineShare(id);
    expectRefused(await updateShare({ id, permission: 'edit' }), [OTHER_DEPT, '权限超出审批通过的“预览”']);
    const applied = await submit(member.client, {
      kind: 'share',
      fileIds: [before.file.id],
      share: { recipients: [{ type: 'user', id: outsider.id }], permission: 'edit', validityDays: 30 },
      reason: '对方需要修改',
      approverId: manager.id,
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const { shareIds } = await approveLast();
    expect(shareIds).toEqual([id]);
    const after = await mineShare(id);
    expect(after).toMatchObject({ permission: 'edit', applicationId: applied.body.data.id, approvedTerms: { permission: 'edit', expiresAt: after.expiresAt } });
    expect(after.expiresAt! - before.expiresAt!).toBeGreaterThan(20 * DAY);
    expectOk(await updateShare({ id, permission: 'download', validityDays: 20 }));
  });

  it('a link: an application naming it changes that link (same address) on approval; a revoked one cannot be approved', async () => {
    const l = await approvedLink('reapplied-link.txt', { code: '', validityDays: 1, downloadLimit: 1, previewOnly: true });
    expectRefused(await updateLink({ id: l.id, downloadLimit: 10, previewOnly: false }), [ALWAYS, '下载次数超出审批通过的 1 次', '审批通过的链接仅允许预览']);
    const wider = { code: l.code, validityDays: 7, downloadLimit: 10, previewOnly: false };
    // Only a link of the applicant's, in force, of the same entry.
    const other = await text(member.client, 'other-entry.txt', 'x');
    expect((await submit(member.client, { kind: 'link', fileIds: [other.id], link: wider, linkId: l.id, reason: '加次数', approverId: manager.id })).body).toMatchObject({
      errorCode: ERRORS.SHARE_NOT_FOUND.code,
    });
    const applied = await submit(member.client, { kind: 'link', fileIds: [l.file.id], link: wider, linkId: l.id, reason: '客户要下载', approverId: manager.id });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.data).toMatchObject({ linkId: l.id, link: wider });
    const logged = await rowsOf(server, () => approveLast());
    expect(logged.map((r) => [r.action, r.outcome, r.actor_account])).toEqual([
      ['apply.approve', 'ok', 'tmgr'],
      ['link.update', 'ok', 'member'],
    ]);
    const after = await mineLink(l.id);
    expect(after).toMatchObject({ token: l.token, code: l.code, downloadLimit: 10, previewOnly: false, applicationId: applied.body.data.id });
    expect(after.approvedTerms).toMatchObject({ code: true, downloadLimit: 10, previewOnly: false, expiresAt: after.expiresAt, reasons: [ALWAYS] });
    expect((await member.client.post<{ data: { items: LinkInfo[] } }>(API.linkMine, { pageSize: 100 })).body.data.items.filter((x) => x.file.id === l.file.id)).toHaveLength(1);

    const again = await submit(member.client, { kind: 'link', fileIds: [l.file.id], link: { ...wider, downloadLimit: 20 }, linkId: l.id, reason: '再加', approverId: manager.id });
    expect(again.status).toBe(200);
    expect((await member.client.post(API.linkRevoke, { ids: [l.id] })).status).toBe(200);
    const todo = await manager.client.post<{ data: { items: Array<{ id: string }> } }>(API.applyTodo, {});
    const refused = await manager.client.post(API.applyApprove, { ids: [todo.body.data.items[0]!.id] });
    expect(refused.body).toMatchObject({ errorCode: ERRORS.APPLY_NOT_PENDING.code, errorMessage: '要修改的链接已取消，该申请无法通过' });
    expect(await mineLink(l.id)).toMatchObject({ state: 'revoked', downloadLimit: 10 });
  });
});
