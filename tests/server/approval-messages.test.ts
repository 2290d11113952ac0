import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, applicationPreviewUrl, downloadUrl } from '../../common/api/paths';
import { DEFAULT_SHARE_POLICY, type ShareApplication } from '../../common/api/sharing';
import { describeFileMessage } from '../../common/notices/describe';
import { createGroup, mkdir, text } from './file-kit';
import { ADMIN, loggedInClient, startServer, withDb, type Client, type TestServer } from './helpers';
import { allMessages, messagesOf } from './notice-kit';
import { downloadThroughLink, fetchBytes, link, noticeCast, setPolicy, share, submit, type Person } from './sharing-kit';

/**
 * Issue 44 items 3 and 4 on the server: messages name the file, the person and the approver's
 * comment, and each leads to what it talks about (共享文件 at the entry, the application, the link,
 * the group); being added to a group is a message; the approver's badge counts what waits for them;
 * the approver may look at the files of an application waiting for them — view only — and nobody
 * else may through it.
 */
let server: TestServer;
let admin: Client;
let sam: Person; // applies and shares
let mgr: Person; // 研发部's manager: approves
let carol: Person; // another member of 研发部
let dave: Person; // 市场部: an outsider

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  ({ sam, mgr, carol, dave } = await noticeCast(server, admin));
  await setPolicy(admin, { link: { always: true } });
});
afterAll(async () => {
  await setPolicy(admin, DEFAULT_SHARE_POLICY).catch(() => undefined);
  await server.close();
});

const LINK = { code: '', validityDays: 0, downloadLimit: null, previewOnly: false };

async function apply(fileIds: string[], reason: string): Promise<ShareApplication> {
  const res = await submit(sam.client, { kind: 'link', fileIds, link: LINK, reason, approverId: mgr.id });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function todoCount(who: Person): Promise<number> {
  const res = await who.client.post<{ data: { count: number } }>(API.applyTodoCount, {});
  expect(res.status).toBe(200);
  return res.body.data.count;
}

describe('application messages say what, who and why', () => {
  it('the approver hears who applies for which file; the applicant hears who approved it and the comment', async () => {
    const f = await text(sam.client, '合同草案v2.txt', '第一条：……');
    const app = await apply([f.id], '客户要看合同');
    const [waiting] = await messagesOf(mgr, 'apply.pending');
    expect(waiting).toMatchObject({
      actor: { id: sam.id },
      file: { id: f.id, name: '合同草案v2.txt', available: true },
      detail: { applyKind: 'link' },
      target: { kind: 'application', applicationId: app.id, page: 'dealApply' },
    });
    expect(describeFileMessage(waiting!)).toBe(`${waiting!.actor!.nickName} 申请外链分享 「合同草案v2.txt」，等待你审批`);

    expect((await mgr.client.post(API.applyApprove, { ids: [app.id], comment: '同意，注意保密' })).status).toBe(200);
    const [approved] = await messagesOf(sam, 'apply.approved');
    expect(approved).toMatchObject({
      actor: { id: mgr.id },
      file: { id: f.id, name: '合同草案v2.txt' },
      detail: { comment: '同意，注意保密', applyKind: 'link' },
      target: { kind: 'application', applicationId: app.id, page: 'myApply' },
    });
    expect(describeFileMessage(approved!)).toBe(`${approved!.actor!.nickName} 通过了你对 「合同草案v2.txt」 的外链分享申请，审批意见：同意，注意保密`);
  });

  it('a rejection names the approver and the reason; a search finds application messages by the file name', async () => {
    const f = await text(sam.client, '预算表.txt', '100');
    const app = await apply([f.id], '财务核对');
    expect((await mgr.client.post(API.applyReject, { ids: [app.id], comment: '含敏感数据' })).status).toBe(200);
    const [rejected] = await messagesOf(sam, 'apply.rejected');
    expect(rejected).toMatchObject({ actor: { id: mgr.id }, file: { name: '预算表.txt' }, detail: { comment: '含敏感数据' } });
    expect(describeFileMessage(rejected!)).toBe(`${rejected!.actor!.nickName} 驳回了你对 「预算表.txt」 的外链分享申请，理由：含敏感数据`);
    // The approver cannot reach sam's file, yet the application names it to them: so does its message.
    const found = await allMessages(mgr.client, { keyword: '预算表' });
    expect(found.map((m) => m.type)).toContain('apply.pending');
  });

  it('when the first level passes it on, the applicant hears who approved, their comment and who decides next (issue 44)', async () => {
    await setPolicy(admin, { link: { always: true }, secondApprover: { kind: 'role', role: 'admin' } });
    try {
      const f = await text(sam.client, '两级审批.txt', 'x');
      const app = await apply([f.id], '要给客户');
      expect((await mgr.client.post(API.applyApprove, { ids: [app.id], comment: '部门同意' })).status).toBe(200);
      const [forwarded] = await messagesOf(sam, 'apply.forwarded');
      expect(forwarded).toMatchObject({
        actor: { id: mgr.id },
        file: { id: f.id, name: '两级审批.txt' },
        detail: { comment: '部门同意', applyKind: 'link' },
        target: { kind: 'application', applicationId: app.id, page: 'myApply' },
      });
      const next = forwarded!.detail.nextApprover!;
      expect(next).toBeTruthy();
      expect(describeFileMessage(forwarded!)).toBe(`${forwarded!.actor!.nickName} 通过了你对 「两级审批.txt」 的外链分享申请（第一级），审批意见：部门同意，已转交 ${next} 进行第二级审批`);
      // Not yet approved: no apply.approved until the second level.
      expect(await allMessages(sam.client).then((all) => all.filter((m) => m.type === 'apply.approved' && m.file?.id === f.id))).toEqual([]);
    } finally {
      await setPolicy(admin, { link: { always: true } });
    }
  });

  it('an application nobody decided in time: the applicant hears it expired, for which file and whom it waited for (issue 44)', async () => {
    const f = await text(sam.client, '过期申请.txt', 'x');
    const app = await apply([f.id], '急用');
    await withDb(server, (db) => db.prepare('update share_applications set expires_at = ? where id = ?').run(Date.now() - 1, app.id));
    await server.app.sweeper.sweepOnce();
    const mgrName = await withDb(server, (db) => (db.prepare('select nick_name from users where id = ?').get(mgr.id) as { nick_name: string }).nick_name);
    const [expired] = await messagesOf(sam, 'apply.expired');
    expect(expired).toMatchObject({
      actor: null,
      file: { id: f.id, name: '过期申请.txt' },
      detail: { waitedFor: mgrName, applyKind: 'link' },
      target: { kind: 'application', applicationId: app.id, page: 'myApply' },
    });
    expect(describeFileMessage(expired!)).toBe(`你对 「过期申请.txt」 的外链分享申请已过期（${mgrName} 未在期限内审批），如仍需要请重新申请`);
  });

  it('messages stored before names were kept still read sensibly', () => {
    const old = { actor: null, file: null, itemCount: 1, detail: {} };
    expect(describeFileMessage({ ...old, type: 'apply.approved' })).toBe('你的分享申请已通过');
    expect(describeFileMessage({ ...old, type: 'apply.rejected', detail: { reason: '不合规' } })).toBe('你的分享申请被驳回：不合规');
    expect(describeFileMessage({ ...old, type: 'apply.pending', actor: { id: 'u', nickName: '张三' } })).toBe('张三 提交了分享申请，等待你审批');
  });
});

describe('the approver’s badge and preview', () => {
  it('counts the applications waiting for the caller, not others’, not decided ones', async () => {
    const before = await todoCount(mgr);
    const f = await text(sam.client, 'count.txt', 'x');
    const app = await apply([f.id], '计数');
    expect(await todoCount(mgr)).toBe(before + 1);
    expect(await todoCount(carol)).toBe(0);
    expect((await sam.client.post(API.applyWithdraw, { id: app.id })).status).toBe(200);
    expect(await todoCount(mgr)).toBe(before);
  });

  it('the current approver views the files of a pending application, view only; nobody else, nothing else, not after the decision', async () => {
    const f = await text(sam.client, '方案.txt', '方案正文');
    const other = await text(sam.client, '不相关.txt', '别的');
    const folder = await mkdir(sam.client, '资料夹');
    const inside = await text(sam.client, 'inside.txt', '里面', folder.id);
    const app = await apply([f.id], '请看方案');

    const seen = await fetchBytes(mgr.client, applicationPreviewUrl(f.id, app.id));
    expect(seen.status).toBe(200);
    expect(seen.body.toString('utf8')).toBe('方案正文');
    expect(seen.headers.get('cache-control')).toBe('private, no-store');
    expect(seen.headers.get('content-disposition')).not.toMatch(/attachment/);
    // The grant is the approval's, nothing more: no download, no other file, no one else.
    expect((await fetchBytes(mgr.client, downloadUrl(f.id))).status).toBe(404);
    expect((await fetchBytes(mgr.client, applicationPreviewUrl(other.id, app.id))).status).toBe(404);
    expect((await fetchBytes(carol.client, applicationPreviewUrl(f.id, app.id))).status).toBe(404);
    expect((await fetchBytes(dave.client, applicationPreviewUrl(f.id, app.id))).status).toBe(404);

    const folderApp = await apply([folder.id], '整个文件夹');
    expect((await fetchBytes(mgr.client, applicationPreviewUrl(inside.id, folderApp.id))).status).toBe(404);

    // Recorded as the approver's look at this application's file.
    const log = await admin.post<{ data: { items: Array<{ action: string; actor: { id: string } | null; targets: Array<{ type: string; id: string }> }> } }>(API.actionLogList, { actions: ['apply.preview'] });
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    expect(log.body.data.items.some((r) => r.targets.some((t) => t.id === f.id) && r.targets.some((t) => t.id === app.id))).toBe(true);

    expect((await mgr.client.post(API.applyApprove, { ids: [app.id] })).status).toBe(200);
    expect((await fetchBytes(mgr.client, applicationPreviewUrl(f.id, app.id))).status).toBe(404);
  });
});

describe('every message leads to what it talks about', () => {
  it('a share opens 共享文件 at the entry: at the top for the shared one, in its folder for one below', async () => {
    const folder = await mkdir(sam.client, '项目文档');
    const child = await text(sam.client, 'readme.txt', 'hi', folder.id);
    await share(sam.client, [folder.id], [{ type: 'user', id: carol.id }], 'download');
    const [received] = await messagesOf(carol, 'share.received');
    expect(received).toMatchObject({ actor: { id: sam.id }, file: { id: folder.id, name: '项目文档' }, target: { kind: 'shared', fileId: folder.id, parentId: null } });

    expect((await sam.client.post(API.lock, { ids: [child.id] })).status).toBe(200);
    const [locked] = await messagesOf(carol, 'file.locked');
    expect(locked).toMatchObject({ file: { id: child.id }, target: { kind: 'shared', fileId: child.id, parentId: folder.id } });
  });

  it('a link’s downloads open 我的分享 at the link', async () => {
    await setPolicy(admin, { link: { always: false } });
    try {
      const f = await text(sam.client, 'price.txt', '报价');
      const l = await link(sam.client, f.id, { code: 'ab12' });
      await downloadThroughLink(server, l, f.id, 'ab12');
      const [m] = await messagesOf(sam, 'link.downloaded');
      expect(m).toMatchObject({ file: { name: 'price.txt' }, target: { kind: 'link', linkId: l.id } });
    } finally {
      await setPolicy(admin, { link: { always: true } });
    }
  });

  it('being added to a group names the group and who added you, and opens the group; a role change says nothing', async () => {
    const group = await createGroup(sam.client, '发布小组');
    expect((await sam.client.post(API.groupMemberAdd, { id: group.id, username: dave.account })).status).toBe(200);
    const [added] = await messagesOf(dave, 'group.added');
    expect(added).toMatchObject({ actor: { id: sam.id }, detail: { group: '发布小组' }, target: { kind: 'group', spaceId: group.id } });
    expect(describeFileMessage(added!)).toBe(`${added!.actor!.nickName} 把你加入了群组「发布小组」`);
    // Added again with another role: a change of role, not a new member.
    expect((await sam.client.post(API.groupMemberAdd, { id: group.id, username: dave.account, role: 'manager' })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect((await allMessages(dave.client)).filter((m) => m.type === 'group.added')).toHaveLength(1);
    // The one who added is not told of their own action.
    expect(await messagesOf(sam, 'group.added', 0)).toEqual([]);
  });
});
