import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_CLIENT_OP_ID } from '../../common/api/client-env';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { CreateTxtResponse, FileEntry } from '../../common/api/types';
import { CLIENT_OP_TTL_MS } from '../../server/http/client-ops';
import { expectError, names, text } from './file-kit';
import { type Client, startServerWithMember, withDb, type TestServer } from './helpers';

/**
 * Issue 13: the offline outbox replays each change with a client operation id, and the server applies
 * an id once per user — a repeat (the answer was lost on the way) gets the first answer and changes
 * nothing more.
 */
let server: TestServer;
let admin: Client;
let member: Client;
let serial = 0;

beforeAll(async () => {
  ({ server, admin, member } = await startServerWithMember());
});
afterAll(async () => {
  await server.close();
});

const opId = (): string => `op-${Date.now().toString(36)}-${(serial++).toString().padStart(8, '0')}`;
const withOp = (client: Client, path: string, body: unknown, id: string) => client.request('POST', path, body, { [HEADER_CLIENT_OP_ID]: id });

describe('client operation ids', () => {
  it('a repeated mkdir creates one folder, and both answers are the same', async () => {
    const id = opId();
    const body = { parentId: null, category: 1, name: `once-${id}` };
    const first = await withOp(admin, API.mkdir, body, id);
    const again = await withOp(admin, API.mkdir, body, id);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('x-client-op-replayed')).toBe('1');
    expect((await names(admin, null)).filter((n) => n === body.name)).toHaveLength(1);
  });

  it('a repeat also gets an earlier refusal, without running again', async () => {
    const id = opId();
    const body = { parentId: null, category: 1, name: `taken-${id}.txt` };
    await text(admin, body.name, 'x');
    const first = await withOp(admin, API.mkdir, body, id);
    expectError(first, ERRORS.NAME_CONFLICT.code);
    const again = await withOp(admin, API.mkdir, body, id);
    expect({ status: again.status, body: again.body }).toEqual({ status: first.status, body: first.body });
  });

  it('createTxt and rename: applied once', async () => {
    const id = opId();
    const body = { parentId: null, category: 1, name: `note-${id}.txt`, content: 'hello' };
    const made = await withOp(admin, API.createTxt, body, id);
    const repeat = await withOp(admin, API.createTxt, body, id);
    expect(repeat.body).toEqual(made.body);
    const file = (made.body as { data: CreateTxtResponse }).data as { status: 'created'; file: FileEntry };
    expect((await names(admin, null)).filter((n) => n.startsWith(`note-${id}`))).toEqual([`note-${id}.txt`]);

    const renameId = opId();
    const renamed = await withOp(admin, API.rename, { id: file.file.id, name: `renamed-${id}.txt` }, renameId);
    expect(renamed.status).toBe(200);
    // Renamed back by someone meanwhile: the replay must not rename it again.
    expect((await admin.post(API.rename, { id: file.file.id, name: `back-${id}.txt` })).status).toBe(200);
    const replay = await withOp(admin, API.rename, { id: file.file.id, name: `renamed-${id}.txt` }, renameId);
    expect(replay.body).toEqual(renamed.body);
    expect(await names(admin, null)).toContain(`back-${id}.txt`);
  });

  it('two identical requests at once are applied once (the second waits for the first, or is told to retry)', async () => {
    const id = opId();
    const body = { parentId: null, category: 1, name: `race-${id}` };
    const answers = await Promise.all([withOp(admin, API.mkdir, body, id), withOp(admin, API.mkdir, body, id)]);
    const statuses = answers.map((a) => a.status).sort();
    expect([[200, 200], [200, 409]]).toContainEqual(statuses);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body).toMatchObject({ errorCode: ERRORS.OP_IN_PROGRESS.code });
    expect((await names(admin, null)).filter((n) => n === body.name)).toHaveLength(1);
    // Retried after the first finished: its answer.
    const later = await withOp(admin, API.mkdir, body, id);
    expect(later.status).toBe(200);
  });

  it('the same id with another body or route is refused, not answered with the other operation', async () => {
    const id = opId();
    expect((await withOp(admin, API.mkdir, { parentId: null, category: 1, name: `a-${id}` }, id)).status).toBe(200);
    expectError(await withOp(admin, API.mkdir, { parentId: null, category: 1, name: `b-${id}` }, id), ERRORS.OP_ID_REUSED.code);
    expectError(await withOp(admin, API.createTxt, { parentId: null, category: 1, name: `c-${id}.txt`, content: '' }, id), ERRORS.OP_ID_REUSED.code);
    expect(await names(admin, null)).not.toContain(`b-${id}`);
  });

  it('ids are per user: the same id from another user runs on its own', async () => {
    const id = opId();
    const body = { parentId: null, category: 1, name: `mine-${id}` };
    expect((await withOp(admin, API.mkdir, body, id)).status).toBe(200);
    const theirs = await withOp(member, API.mkdir, body, id);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('x-client-op-replayed')).toBeNull();
    expect(await names(member, null)).toContain(body.name);
  });

  it('a malformed id is refused; without the header nothing changes', async () => {
    expectError(await withOp(admin, API.mkdir, { parentId: null, category: 1, name: 'x' }, 'short'), ERRORS.OP_ID_INVALID.code);
    const name = `plain-${opId()}`;
    expect((await admin.post(API.mkdir, { parentId: null, category: 1, name })).status).toBe(200);
    expectError(await admin.post(API.mkdir, { parentId: null, category: 1, name }), ERRORS.NAME_CONFLICT.code);
  });

  it('kept answers are swept after their time', async () => {
    const id = opId();
    expect((await withOp(admin, API.mkdir, { parentId: null, category: 1, name: `old-${id}` }, id)).status).toBe(200);
    const count = () => withDb(server, (db) => (db.prepare('select count(*) n from client_ops where op_id = ?').get(id) as { n: number }).n);
    expect(await count()).toBe(1);
    await server.app.sweeper.sweepOnce(Date.now() + CLIENT_OP_TTL_MS + 1000);
    expect(await count()).toBe(0);
  });
});
