import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import type { FileMessageEvent, NoticeStreamEnded, SystemNoticeEvent, UnreadCounts } from '../../common/api/notices';
import { API } from '../../common/api/paths';
import { createGroup, text } from './file-kit';
import type { Client} from './helpers';
import { loggedInClient, MEMBER, startServerWithMember, userIdOf, type TestServer } from './helpers';
import { allMessages, openStream, postForm, saveNotice, type StreamEvent } from './notice-kit';

/**
 * The notice stream: counts on connect, a new message and its counts within a second, changes made
 * in another tab or device, system notices as they come out (also scheduled ones), and the end of
 * the stream when the session ends (spec §8: 400sec-core-301 stops notices).
 */
let server: TestServer;
let admin: Client;
let member: Client;
let groupId: string;

const isCounts = (file: number, system?: number) => (e: StreamEvent) =>
  e.event === 'counts' && (e.data as UnreadCounts).file === file && (system === undefined || (e.data as UnreadCounts).system === system);

beforeAll(async () => {
  ({ server, admin, member } = await startServerWithMember());
  const group = await createGroup(admin, 'stream_group');
  groupId = group.id;
  expect((await admin.post(API.groupMemberAdd, { id: group.id, username: 'member', role: 'member' })).status).toBe(200);
});
afterAll(async () => {
  await server.close();
});

describe('notice stream', () => {
  it('starts with the counts, then delivers a new message and the new counts within a second', async () => {
    const stream = await openStream(member);
    try {
      // One unread already: the message that the admin added the member to the group (issue 44).
      await stream.next(isCounts(1, 0));
      const file = await text(admin, 'live.txt', 'x', null, { spaceId: groupId });
      const started = Date.now();
      expect((await admin.post(API.lock, { ids: [file.id] })).status).toBe(200);
      const message = await stream.next((e) => e.event === 'file', 1000);
      expect(message.data as FileMessageEvent).toMatchObject({ type: 'file.locked', itemCount: 1, fileName: 'live.txt' });
      const after = await stream.next(isCounts(2), 1000);
      expect(after.at - started).toBeLessThan(1000);
    } finally {
      stream.close();
    }
  });

  it('a change in another tab or device (mark all read) reaches every stream of the user', async () => {
    const tabA = await openStream(member);
    const other = await loggedInClient(server, MEMBER);
    const tabB = await openStream(other);
    try {
      const unread = (await allMessages(member, { read: '0' })).length;
      expect(unread).toBeGreaterThan(0);
      await tabA.next(isCounts(unread));
      await tabB.next(isCounts(unread));
      const mark = tabB.events.length;
      expect((await postForm(member, API.fileMsgMarkAllRead, {})).status).toBe(200);
      for (const stream of [tabA, tabB]) {
        await stream.next((e) => e.event === 'fileChanged', 1000);
        await stream.next(isCounts(0), 1000);
      }
      expect(tabB.events.slice(mark).map((e) => e.event)).toEqual(['fileChanged', 'counts']);
    } finally {
      tabA.close();
      tabB.close();
    }
  });

  it('a system notice reaches the readers it is addressed to as it comes out, a scheduled one at its time', async () => {
    const stream = await openStream(member);
    const adminStream = await openStream(admin);
    try {
      await stream.next((e) => e.event === 'counts');
      const memberId = await userIdOf(server, 'member');
      const saved = await saveNotice(admin, { title: '只给成员', audience: { all: false, departmentIds: [], userIds: [memberId] } });
      const event = await stream.next((e) => e.event === 'system', 1000);
      expect(event.data as SystemNoticeEvent).toEqual({ id: saved.id, title: '只给成员', important: false, change: 'published' });
      await stream.next(isCounts(0, 1), 1000);
      // Not addressed to the admin: nothing for them.
      await new Promise((r) => setTimeout(r, 200));
      expect(adminStream.events.filter((e) => e.event === 'system')).toEqual([]);

      const at = Date.now() + 800;
      const scheduled = await saveNotice(admin, { title: '稍后', publish: 'at', publishAt: at });
      const came = await stream.next((e) => e.event === 'system' && (e.data as SystemNoticeEvent).id === scheduled.id, 2500);
      expect(came.at).toBeGreaterThanOrEqual(at);
      expect(came.at - at).toBeLessThan(1000);
      await stream.next(isCounts(0, 2), 1000);
      // The notice published at once was announced by its save; the scheduler's wake-up announces the scheduled one alone.
      expect(stream.events.filter((e) => e.event === 'system' && (e.data as SystemNoticeEvent).id === saved.id)).toHaveLength(1);

      await admin.post(API.noticeManageWithdraw, { id: saved.id });
      const gone = await stream.next((e) => e.event === 'system' && (e.data as SystemNoticeEvent).change === 'withdrawn', 1000);
      expect((gone.data as SystemNoticeEvent).id).toBe(saved.id);
      await stream.next(isCounts(0, 1), 1000);
    } finally {
      stream.close();
      adminStream.close();
    }
  });

  it('ends with 400sec-core-301 when an admin locks the account, and refuses to reopen', async () => {
    const victim = await loggedInClient(server, MEMBER);
    const stream = await openStream(victim);
    await stream.next((e) => e.event === 'counts');
    expect((await admin.post(API.accountLock, { userId: await userIdOf(server, 'member') })).status).toBe(200);
    await server.app.notices.hub.checkSessions();
    const ended = await stream.next((e) => e.event === 'ended', 1000);
    expect(ended.data as NoticeStreamEnded).toEqual({ errorCode: ERRORS.SESSION_TERMINATED.code, errorMessage: ERRORS.SESSION_TERMINATED.message });
    await stream.closed;
    const again = await victim.get(API.noticeStream);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ errorCode: ERRORS.SESSION_TERMINATED.code });
    expect((await admin.post(API.accountUnlock, { userId: await userIdOf(server, 'member') })).status).toBe(200);
    // Every session of the account ended with the lock: sign in again for the next test.
    member = await loggedInClient(server, MEMBER);
  });

  it('ends when the user logs out, and a user may hold only a few streams', async () => {
    const client = await loggedInClient(server, MEMBER);
    const stream = await openStream(client);
    await stream.next((e) => e.event === 'counts');
    expect((await client.post(API.logout, {})).status).toBe(200);
    await server.app.notices.hub.checkSessions();
    expect((await stream.next((e) => e.event === 'ended', 1000)).data).toMatchObject({ errorCode: ERRORS.UNAUTHORIZED.code });

    const many = [];
    try {
      for (let i = 0; i < 8; i++) many.push(await openStream(member));
      const refused = await member.get(API.noticeStream);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ errorCode: ERRORS.NOTICE_STREAM_LIMIT.code });
    } finally {
      for (const s of many) s.close();
    }
  });
});
