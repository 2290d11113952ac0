import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileMessageEvent, FileMessageType } from '../../common/api/notices';
import { API } from '../../common/api/paths';
import { createGroup, mkdir, text } from './file-kit';
import { ADMIN, type Client, loggedInClient, startServer, type TestServer } from './helpers';
import { openStream, type OpenStream } from './notice-kit';
import { department, person, share, type Person } from './sharing-kit';

/**
 * Issue 35 ("Also seen"): the events of the notice stream name the file for those who may see it.
 * Before, every `file` event carried `fileName: null` — share.received reached its recipient
 * without the name of what was shared. A reader who may not see the entry (any more) still gets
 * no name, as in the message list.
 */
let server: TestServer;
let admin: Client;
let sam: Person;
let carol: Person;
let groupId: string;

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  const rd = await department(admin, '研发部');
  sam = await person(server, admin, 'sam', rd);
  carol = await person(server, admin, 'carol', rd);
  const group = await createGroup(admin, 'names_group');
  groupId = group.id;
  expect((await admin.post(API.groupMemberAdd, { id: group.id, username: 'carol', role: 'member' })).status).toBe(200);
});
afterAll(async () => {
  await server.close();
});

async function nextFileEvent(stream: OpenStream, type: FileMessageType): Promise<FileMessageEvent> {
  const event = await stream.next((e) => e.event === 'file' && (e.data as FileMessageEvent).type === type, 5000);
  return event.data as FileMessageEvent;
}

describe('file events name the file for those who may see it', () => {
  it('share.received names the shared file to its recipient; share.revoked no longer does', async () => {
    const stream = await openStream(carol.client);
    try {
      const file = await text(sam.client, '季度报告.txt', 'x');
      const made = await share(sam.client, [file.id], [{ type: 'user', id: carol.id }], 'preview');
      expect(await nextFileEvent(stream, 'share.received')).toMatchObject({ type: 'share.received', fileName: '季度报告.txt', itemCount: 1 });
      expect((await sam.client.post(API.shareRevoke, { ids: made.shares.map((s) => s.id) })).status).toBe(200);
      // The recipient may not see it any more: the message list hides its name, so does the event.
      expect(await nextFileEvent(stream, 'share.revoked')).toMatchObject({ type: 'share.revoked', fileName: null });
    } finally {
      stream.close();
    }
  });

  it('a folder shared with others names the folder', async () => {
    const stream = await openStream(carol.client);
    try {
      const folder = await mkdir(sam.client, '设计稿');
      await share(sam.client, [folder.id], [{ type: 'user', id: carol.id }], 'download');
      expect(await nextFileEvent(stream, 'share.received')).toMatchObject({ fileName: '设计稿' });
    } finally {
      stream.close();
    }
  });

  it("an upload held for a sensitive name names the uploader's own file", async () => {
    const stream = await openStream(carol.client);
    try {
      const item = { key: 'names-sensitive-0001', name: '绝密计划.docx', size: 10, parentId: null, category: 1 };
      expect((await carol.client.post(API.multipleFileCheck, { items: [item] })).status).toBe(200);
      expect(await nextFileEvent(stream, 'upload.sensitive')).toMatchObject({ fileName: '绝密计划.docx' });
    } finally {
      stream.close();
    }
  });

  it('a change in a group space names the file to its members', async () => {
    const stream = await openStream(carol.client);
    try {
      const file = await text(admin, '周报.txt', 'x', null, { spaceId: groupId });
      expect((await admin.post(API.lock, { ids: [file.id] })).status).toBe(200);
      expect(await nextFileEvent(stream, 'file.locked')).toMatchObject({ fileName: '周报.txt' });
    } finally {
      stream.close();
    }
  });
});
