import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { FILE_MESSAGE_RETENTION_DAYS, type FileMessage, type FileMessageChange, type FileMessagePage } from '../../common/api/notices';
import { API } from '../../common/api/paths';
import { PUBLIC_SPACE_ID, type SpaceInfo } from '../../common/api/types';
import { createGroup, mkdir, text } from './file-kit';
import type { Client} from './helpers';
import { addTenantWithUser, addUser, loggedInClient, randomContent, startServerWithMember, uploadFile, userIdOf, withDb, type TestServer } from './helpers';
import { allMessages, counts, listMessages, postForm } from './notice-kit';

/**
 * File messages: each event reaches exactly the people it should (watchers other than the actor, who
 * may see the entry; never another tenant), the counts always equal the lists, and the spec §7 calls
 * keep their encodings.
 */
let server: TestServer;
let admin: Client;
let member: Client;
let colleague: Client;
let outsider: Client;
let foreign: Client;
let group: SpaceInfo;
let ids: { admin: string; member: string; colleague: string; outsider: string; foreign: string; tenant: string };

const types = (list: FileMessage[]) => list.map((m) => m.type);
const DAY = 24 * 3600 * 1000;

async function newVersion(client: Client, name: string, parentId: string): Promise<void> {
  const res = await uploadFile(client, randomContent(300), name, { parentId, onConflict: 'newVersion' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Every test starts from nobody having any message. */
async function clearAll(): Promise<void> {
  await withDb(server, (db) => {
    db.prepare('delete from file_messages').run();
    db.prepare('update notice_counters set file_unread = 0').run();
  });
}

beforeAll(async () => {
  ({ server, admin, member } = await startServerWithMember());
  const tenant = await withDb(server, (db) => (db.prepare("select tenant_id from users where username = 'admin'").get() as { tenant_id: string }).tenant_id);
  await addUser(server, tenant, 'colleague', 'Colleague@2024');
  await addUser(server, tenant, 'outsider', 'Outsider@2024');
  await addTenantWithUser(server, 'foreigner', 'Foreign@2024');
  colleague = await loggedInClient(server, { username: 'colleague', password: 'Colleague@2024' });
  outsider = await loggedInClient(server, { username: 'outsider', password: 'Outsider@2024' });
  foreign = await loggedInClient(server, { username: 'foreigner', password: 'Foreign@2024' });
  group = await createGroup(admin, 'notice_group');
  for (const username of ['member', 'colleague']) expect((await admin.post(API.groupMemberAdd, { id: group.id, username, role: 'member' })).status).toBe(200);
  ids = {
    admin: await userIdOf(server, 'admin'),
    member: await userIdOf(server, 'member'),
    colleague: await userIdOf(server, 'colleague'),
    outsider: await userIdOf(server, 'outsider'),
    foreign: await userIdOf(server, 'foreigner'),
    tenant,
  };
});
afterAll(async () => {
  await server.close();
});

describe('who hears of a change', () => {
  it('a new version, a lock, a move and a delete in a group: one message each to every other member, none to the actor, outsiders or another tenant', async () => {
    await clearAll();
    const folder = await mkdir(admin, '项目', null, { spaceId: group.id });
    const file = await text(admin, '计划.txt', 'v1', folder.id);
    await newVersion(admin, '计划.txt', folder.id);
    expect((await admin.post(API.lock, { ids: [file.id] })).status).toBe(200);
    const sub = await mkdir(admin, '归档', folder.id);
    expect((await admin.post(API.move, { ids: [file.id], targetParentId: sub.id, targetCategory: 1 })).status).toBe(200);
    expect((await admin.post(API.unlock, { ids: [file.id] })).status).toBe(200);
    expect((await admin.post(API.removeFiles, { ids: [file.id] })).status).toBe(200);

    for (const client of [member, colleague]) {
      const list = await allMessages(client);
      expect(types(list).sort()).toEqual(['file.deleted', 'file.locked', 'file.moved', 'file.version']);
      for (const m of list) {
        expect(m.actor?.id).toBe(ids.admin);
        expect(m.file).toMatchObject({ id: file.id, name: '计划.txt', available: true });
        expect(m.read).toBe(false);
      }
      expect(list.find((m) => m.type === 'file.moved')!.detail.to).toBe('归档');
      // The entry is in the recycle bin now: its name shows (the group may see its bin), there is nowhere to open.
      expect(list.every((m) => m.target === null)).toBe(true);
      expect((await counts(client)).file).toBe(4);
    }
    for (const client of [admin, outsider, foreign]) {
      expect(await allMessages(client)).toEqual([]);
      expect((await counts(client)).file).toBe(0);
    }
  });

  it('a move out of the group: its members hear of it, and no longer see where it went nor its name', async () => {
    await clearAll();
    const file = await text(admin, '内部资料.txt', 'x', null, { spaceId: group.id });
    const mine = await mkdir(admin, '我的归档');
    expect((await admin.post(API.move, { ids: [file.id], targetParentId: mine.id, targetCategory: 1 })).status).toBe(200);
    const [moved] = await allMessages(member);
    expect(moved).toMatchObject({ type: 'file.moved', file: { id: file.id, name: null, available: false }, target: null, itemCount: 1 });
    // Searching for the name finds nothing either.
    expect((await listMessages(member, { keyword: '内部' }, API.fileMsgSearch)).items).toEqual([]);
    expect((await listMessages(member, { keyword: moved!.actor!.nickName }, API.fileMsgSearch)).items.map((m) => m.id)).toEqual([moved!.id]);
  });

  it('followers of a file or a folder above it in the public space hear of changes; the rest of the tenant does not', async () => {
    await clearAll();
    const folder = await mkdir(admin, '公共资料', null, { spaceId: PUBLIC_SPACE_ID });
    const file = await text(member, '手册.txt', 'v1', folder.id);
    expect((await outsider.post(API.favoriteAdd, { ids: [folder.id] })).status).toBe(200);
    expect((await colleague.post(API.favoriteAdd, { ids: [file.id] })).status).toBe(200);
    // The owner (member), a follower of the folder (outsider) and of the file (colleague) hear; nobody else.
    await newVersion(admin, '手册.txt', folder.id);
    for (const client of [member, outsider, colleague]) {
      const [m] = await allMessages(client);
      expect(m).toMatchObject({ type: 'file.version', file: { id: file.id, name: '手册.txt' } });
      expect(m!.target).toMatchObject({ kind: 'file', fileId: file.id, parentId: folder.id, isDir: false, spaceKind: 'public' });
    }
    expect(await allMessages(admin)).toEqual([]);
    expect((await member.post(API.lock, { ids: [file.id] })).status).toBe(200);
    expect(await allMessages(admin)).toEqual([]);
    expect(types(await allMessages(outsider))).toEqual(['file.locked', 'file.version']);
  });

  it('one message per recipient for a batch of entries, naming the first and how many', async () => {
    await clearAll();
    const a = await text(admin, 'a.txt', 'a', null, { spaceId: group.id });
    const b = await text(admin, 'b.txt', 'b', null, { spaceId: group.id });
    expect((await admin.post(API.lock, { ids: [a.id, b.id] })).status).toBe(200);
    const list = await allMessages(member);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ type: 'file.locked', itemCount: 2, file: { id: a.id, name: 'a.txt' } });
  });

  it('a refused action writes nothing', async () => {
    await clearAll();
    const file = await text(admin, 'locked.txt', 'x', null, { spaceId: group.id });
    expect((await admin.post(API.lock, { ids: [file.id] })).status).toBe(200);
    await clearAll();
    expect((await member.post(API.lock, { ids: [file.id] })).status).toBe(400);
    expect((await member.post(API.removeFiles, { ids: [file.id] })).status).toBe(400);
    expect(await allMessages(admin)).toEqual([]);
    expect(await allMessages(colleague)).toEqual([]);
  });
});

describe('counts match the lists', () => {
  it('after mark-read, delete and mark-all-read', async () => {
    await clearAll();
    const files = [];
    for (let i = 0; i < 5; i++) files.push(await text(admin, `c${i}.txt`, 'x', null, { spaceId: group.id }));
    for (const f of files) expect((await admin.post(API.lock, { ids: [f.id] })).status).toBe(200);
    const check = async () => {
      const unread = await allMessages(member, { read: '0' });
      const read = await allMessages(member, { read: '1' });
      const all = await allMessages(member);
      expect(unread.every((m) => !m.read) && read.every((m) => m.read)).toBe(true);
      expect(unread.length + read.length).toBe(all.length);
      const n = (await counts(member)).file;
      expect(n).toBe(unread.length);
      expect((await member.post<{ data: { count: number } }>(API.fileMsgUnreadNum, {})).body.data.count).toBe(n);
      return { unread: unread.length, all: all.length };
    };
    expect(await check()).toEqual({ unread: 5, all: 5 });
    const list = await allMessages(member);

    const read = await member.post<{ data: FileMessageChange }>(API.fileMsgMarkRead, { ids: [list[0]!.id, list[1]!.id, list[1]!.id] });
    expect(read.body.data).toEqual({ changed: 2, unread: 3 });
    // Again: nothing changes (an offline replay of the same mark-read).
    expect((await member.post<{ data: FileMessageChange }>(API.fileMsgMarkRead, { ids: [list[0]!.id] })).body.data).toEqual({ changed: 0, unread: 3 });
    expect(await check()).toEqual({ unread: 3, all: 5 });

    // Deleting a read and an unread message.
    const gone = await member.post<{ data: FileMessageChange }>(API.fileMsgDelete, { ids: [list[0]!.id, list[2]!.id] });
    expect(gone.body.data).toEqual({ changed: 2, unread: 2 });
    expect(await check()).toEqual({ unread: 2, all: 3 });

    // Someone else's ids change nothing of theirs or ours.
    expect((await colleague.post<{ data: FileMessageChange }>(API.fileMsgDelete, { ids: [list[3]!.id] })).body.data.changed).toBe(0);
    expect(await check()).toEqual({ unread: 2, all: 3 });

    const all = await postForm<{ data: FileMessageChange }>(member, API.fileMsgMarkAllRead, {});
    expect(all.body.data).toEqual({ changed: 2, unread: 0 });
    expect(await check()).toEqual({ unread: 0, all: 3 });
  });

  it('the retention pass removes messages past FILE_MESSAGE_RETENTION_DAYS, read or not, and the counts follow', async () => {
    await clearAll();
    const files = [];
    for (let i = 0; i < 3; i++) files.push(await text(admin, `old${i}.txt`, 'x', null, { spaceId: group.id }));
    for (const f of files) expect((await admin.post(API.lock, { ids: [f.id] })).status).toBe(200);
    const [first, second, third] = (await allMessages(member)).reverse();
    expect((await member.post<{ data: FileMessageChange }>(API.fileMsgMarkRead, { ids: [first!.id] })).body.data).toEqual({ changed: 1, unread: 2 });
    const old = Date.now() - (FILE_MESSAGE_RETENTION_DAYS + 1) * DAY;
    await withDb(server, (db) => db.prepare('update file_messages set created_at = ? where id in (?, ?)').run(old, first!.id, second!.id));
    const colleagueBefore = (await counts(colleague)).file;

    expect((await server.app.sweeper.sweepOnce()).fileMessages).toBe(2);
    expect((await allMessages(member)).map((m) => m.id)).toEqual([third!.id]);
    expect((await counts(member)).file).toBe(1);
    // The colleague's messages of the same events are younger: kept, and so is their count.
    expect((await counts(colleague)).file).toBe(colleagueBefore);
    expect((await server.app.sweeper.sweepOnce()).fileMessages).toBe(0);
  });

  it('keyset pages: every message once, newest first, with filters by type and time', async () => {
    await clearAll();
    const base = Date.now() - 10_000;
    await withDb(server, (db) => {
      const insert = db.prepare(`insert into file_messages (id, tenant_id, user_id, type, actor_id, actor_name, file_id, file_name, is_dir, item_count, ref_id, detail, batch_key, created_at, read_at)
        values (?, ?, ?, ?, null, '', null, ?, 0, 1, null, null, null, ?, null)`);
      for (let i = 0; i < 45; i++) insert.run(`seed-${String(i).padStart(3, '0')}`, ids.tenant, ids.member, i % 3 === 0 ? 'quota.high' : 'upload.sensitive', `f${i}.txt`, base + Math.floor(i / 2));
      db.prepare('insert into notice_counters (user_id, file_unread, quota_warned) values (?, 45, 0) on conflict (user_id) do update set file_unread = 45').run(ids.member);
    });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: FileMessagePage = await listMessages(member, { pageSize: '10', ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((m) => m.id));
      expect(page.unread).toBe(45);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(45);
    const times = seen.map((id) => Number(id.slice(5)));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await allMessages(member, { types: 'quota.high' })).length).toBe(15);
    expect((await allMessages(member, { category: 'system' })).length).toBe(45);
    expect((await allMessages(member, { category: 'share' })).length).toBe(0);
    expect((await allMessages(member, { from: String(base + 10), to: String(base + 12) })).length).toBe(4);
  });
});

describe('spec §7 encodings and bad input', () => {
  it('list, search and markAllRead take forms; markRead, delete and userUnReadNum take JSON', async () => {
    expect((await member.post(API.fileMsgList, {})).body).toMatchObject({ errorCode: ERRORS.BODY_ENCODING_UNSUPPORTED.code });
    expect((await member.post(API.fileMsgSearch, { keyword: 'x' })).body).toMatchObject({ errorCode: ERRORS.BODY_ENCODING_UNSUPPORTED.code });
    expect((await member.post(API.fileMsgMarkAllRead, {})).body).toMatchObject({ errorCode: ERRORS.BODY_ENCODING_UNSUPPORTED.code });
    expect((await postForm(member, API.fileMsgMarkRead, { ids: 'x' })).body).toMatchObject({ errorCode: ERRORS.BODY_ENCODING_UNSUPPORTED.code });
    expect((await postForm(member, API.fileMsgDelete, { ids: 'x' })).body).toMatchObject({ errorCode: ERRORS.BODY_ENCODING_UNSUPPORTED.code });
    expect((await postForm(member, API.fileMsgUnreadNum, {})).body).toMatchObject({ errorCode: ERRORS.BODY_ENCODING_UNSUPPORTED.code });
  });

  it('refuses a bad filter, cursor or page size with a coded error', async () => {
    const bad: Array<Record<string, string>> = [{ read: '2' }, { category: 'nope' }, { types: 'file.version,bogus' }, { from: 'yesterday' }, { cursor: '%%%' }, { pageSize: '0' }];
    for (const fields of bad) {
      const res = await postForm<{ errorCode: string }>(member, API.fileMsgList, fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.errorCode).toBe(ERRORS.VALIDATION.code);
    }
    expect((await postForm<{ errorCode: string }>(member, API.fileMsgSearch, {})).body.errorCode).toBe(ERRORS.VALIDATION.code);
    expect((await member.post(API.fileMsgMarkRead, { ids: [] })).status).toBe(400);
  });
});

describe('system reminders', () => {
  it('the quota warning comes once above 90 %, and again only after going below', async () => {
    await clearAll();
    await withDb(server, (db) => db.prepare('update users set quota = 10000, used_size = 0 where id = ?').run(ids.member));
    const mine = await mkdir(member, '配额');
    await uploadFile(member, randomContent(5000), 'half.bin', { parentId: mine.id });
    expect(await allMessages(member)).toEqual([]);
    const big = await uploadFile(member, randomContent(4200), 'more.bin', { parentId: mine.id });
    expect(big.status).toBe(200);
    const [warning] = await allMessages(member);
    expect(warning).toMatchObject({ type: 'quota.high', actor: null, file: null, target: { kind: 'page', url: '/main/user/userInfo' } });
    expect(warning!.detail.percent).toBeGreaterThanOrEqual(90);
    await uploadFile(member, randomContent(100), 'still.bin', { parentId: mine.id });
    expect((await allMessages(member)).length).toBe(1);
    // Below the line (purged), then above it again: a second warning.
    expect((await member.post(API.removeFiles, { ids: [big.body.data.id] })).status).toBe(200);
    expect((await member.post(API.recyclePurge, { all: true })).status).toBe(200);
    await uploadFile(member, randomContent(4300), 'again.bin', { parentId: mine.id });
    expect(types(await allMessages(member))).toEqual(['quota.high', 'quota.high']);
    await withDb(server, (db) => db.prepare('update users set quota = ? where id = ?').run(10 * 1024 ** 3, ids.member));
  });

  it('an upload held for a sensitive name: one message per upload however often it is checked', async () => {
    await clearAll();
    const item = { key: 'sensitive-key-0001', name: '绝密计划.docx', size: 10, parentId: null, category: 1 };
    for (let i = 0; i < 3; i++) expect((await member.post(API.multipleFileCheck, { items: [item] })).status).toBe(200);
    const list = await allMessages(member);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ type: 'upload.sensitive', file: { id: null, name: '绝密计划.docx', available: true } });
    expect(list[0]!.detail.reason).toBe('绝密');
  });

  it('a held upload\'s message opens the folder it was for, with the transfer list (issue 44): at the top, in a folder, in a group space; nowhere once the folder is gone', async () => {
    await clearAll();
    const folder = await mkdir(member, '方案');
    const groupFolder = await mkdir(admin, '群组方案', null, { spaceId: group.id });
    for (const [i, parentId, category] of [[1, null, 1], [2, folder.id, 1], [3, groupFolder.id, 1]] as const) {
      expect((await member.post(API.multipleFileCheck, { items: [{ key: `held-target-${i}`, name: `绝密${i}.docx`, size: 10, parentId, category }] })).status).toBe(200);
    }
    const byName = new Map((await allMessages(member)).filter((m) => m.type === 'upload.sensitive').map((m) => [m.file!.name, m.target]));
    expect(byName.get('绝密1.docx')).toEqual({ kind: 'heldUpload', dir: null, category: 1, spaceId: null, spaceKind: null });
    expect(byName.get('绝密2.docx')).toEqual({ kind: 'heldUpload', dir: folder.id, category: 1, spaceId: null, spaceKind: null });
    expect(byName.get('绝密3.docx')).toMatchObject({ kind: 'heldUpload', dir: groupFolder.id, spaceId: group.id, spaceKind: 'group' });
    // The folder deleted for good: nowhere to open (the page explains instead).
    expect((await member.post(API.removeFiles, { ids: [folder.id] })).status).toBe(200);
    expect((await member.post(API.recyclePurge, { all: true })).status).toBe(200);
    const after = (await allMessages(member)).find((m) => m.file?.name === '绝密2.docx');
    expect(after!.target).toBeNull();
  });
});

describe('the NoticeEvents port (what sharing calls)', () => {
  it('writes to the recipients of the tenant only, never to the actor, and names the entry only while the reader may reach it', async () => {
    await clearAll();
    const file = await text(admin, '预算.xlsx', 'x');
    const written = await server.app.notices.events.notify({
      tenantId: ids.tenant,
      type: 'share.received',
      recipients: [ids.member, ids.admin, ids.foreign, 'no-such-user'],
      actor: { id: ids.admin },
      file: { id: file.id, name: file.name, isDir: false },
      refId: 'share-1',
      detail: { permission: 'download' },
    });
    expect(written).toBe(1);
    const [message] = await allMessages(member);
    // Nothing shares it with the member yet (the sharing work widens the reach): the name stays hidden.
    expect(message).toMatchObject({ type: 'share.received', actor: { id: ids.admin, nickName: expect.any(String) }, file: { id: file.id, name: null, available: false }, detail: { permission: 'download' } });
    expect(await allMessages(foreign)).toEqual([]);
    expect(await allMessages(admin)).toEqual([]);
  });

  it('applications lead to the application; link downloads are batched per link per hour', async () => {
    await clearAll();
    const events = server.app.notices.events;
    await events.notify({ tenantId: ids.tenant, type: 'apply.pending', recipients: [ids.admin], actor: { id: ids.member }, refId: 'app-7', file: null });
    expect((await allMessages(admin))[0]).toMatchObject({ type: 'apply.pending', target: { kind: 'application', applicationId: 'app-7', page: 'dealApply' } });

    const file = { id: 'f-1', name: 'x.pdf', isDir: false };
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    for (let i = 0; i < 3; i++) await events.linkDownloaded({ tenantId: ids.tenant, linkId: 'link-1', ownerId: ids.member, file, at: hour + 1000 + i });
    await events.linkDownloaded({ tenantId: ids.tenant, linkId: 'link-2', ownerId: ids.member, file, at: hour + 2000 });
    await events.linkDownloaded({ tenantId: ids.tenant, linkId: 'link-1', ownerId: ids.member, file, at: hour + 3_600_000 + 5 });
    const list = await allMessages(member);
    expect(list.map((m) => [m.type, m.detail.downloads])).toEqual([
      ['link.downloaded', 1],
      ['link.downloaded', 1],
      ['link.downloaded', 3],
    ]);
    expect((await counts(member)).file).toBe(3);
    // A read batch that gets another download is unread again, counted once.
    const batch = list[2]!;
    await member.post(API.fileMsgMarkRead, { ids: [batch.id] });
    expect((await counts(member)).file).toBe(2);
    await events.linkDownloaded({ tenantId: ids.tenant, linkId: 'link-1', ownerId: ids.member, file, at: hour + 1500 });
    expect((await counts(member)).file).toBe(3);
    expect((await allMessages(member)).find((m) => m.id === batch.id)!.detail.downloads).toBe(4);
  });
});
