import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_CLIENT_OP_ID, HEADER_CLIENT_OP_REPLAYED } from '../../common/api/client-env';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { CreateTxtResponse, FileEntry, KeepOnCreateTxtResponse } from '../../common/api/types';
import { ABANDONED_AFTER_MS, CLIENT_OP_TTL_MS, IDEMPOTENT_ROUTES, requestHash } from '../../server/http/client-ops';
import { entries, expectError, mkdir, names, text } from './file-kit';
import { type Answer, type Client, startServerWithMember, userIdOf, withDb, type TestServer } from './helpers';

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
const replayed = (a: Answer): boolean => a.headers.get(HEADER_CLIENT_OP_REPLAYED) === '1';
/** Sends the same request twice with one op id: the repeat must be the kept first answer. */
async function twice(client: Client, path: string, body: unknown): Promise<Answer> {
  const id = opId();
  const first = await withOp(client, path, body, id);
  const again = await withOp(client, path, body, id);
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  expect(replayed(first)).toBe(false);
  expect(replayed(again)).toBe(true);
  expect({ status: again.status, body: again.body }).toEqual({ status: first.status, body: first.body });
  return first;
}
const claimRow = (userId: string, id: string, hash: string, createdAt: number) =>
  withDb(server, (db) => db.prepare('insert into client_ops (user_id, op_id, request_hash, status, body, created_at) values (?, ?, ?, null, null, ?)').run(userId, id, hash, createdAt));

describe('client operation ids', () => {
  it('a repeated mkdir creates one folder, and both answers are the same', async () => {
    const id = opId();
    const body = { parentId: null, category: 1, name: `once-${id}` };
    const first = await withOp(admin, API.mkdir, body, id);
    const again = await withOp(admin, API.mkdir, body, id);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(replayed(again)).toBe(true);
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
    expect(replayed(theirs)).toBe(false);
    expect(await names(member, null)).toContain(body.name);
  });

  it('a malformed id is refused and runs nothing; without the header nothing changes', async () => {
    const refused = `refused-${opId()}`;
    for (const bad of ['short', 'a'.repeat(65), 'has space in it 123', 'dots.are.not.allowed.x', 'ünïcödé-0123456789']) {
      expectError(await withOp(admin, API.mkdir, { parentId: null, category: 1, name: refused }, bad), ERRORS.OP_ID_INVALID.code);
    }
    expect(await names(admin, null)).not.toContain(refused);
    const name = `plain-${opId()}`;
    expect((await admin.post(API.mkdir, { parentId: null, category: 1, name })).status).toBe(200);
    expectError(await admin.post(API.mkdir, { parentId: null, category: 1, name }), ERRORS.NAME_CONFLICT.code);
  });

  it('every outbox write is a registered POST route (a moved or renamed route cannot silently lose its op id)', () => {
    const registered = new Set(server.app.apiRoutes.map((r) => `${r.method} ${r.url}`));
    expect(IDEMPOTENT_ROUTES.size).toBe(9);
    for (const route of IDEMPOTENT_ROUTES) expect(registered, route).toContain(route);
  });

  it('copy and move: a replay places nothing more and moves nothing back', async () => {
    const tag = opId();
    const target = await mkdir(admin, `target-${tag}`);
    const file = await text(admin, `doc-${tag}.txt`, 'x');
    await twice(admin, API.copy, { ids: [file.id], targetParentId: target.id, targetCategory: 1 });
    expect(await names(admin, target.id)).toEqual([`doc-${tag}.txt`]);

    const mover = await text(admin, `mover-${tag}.txt`, 'y');
    const moveBody = { ids: [mover.id], targetParentId: target.id, targetCategory: 1 };
    const id = opId();
    expect((await withOp(admin, API.move, moveBody, id)).status).toBe(200);
    // Moved back meanwhile: the replay must leave it where it is now.
    expect((await admin.post(API.move, { ids: [mover.id], targetParentId: null, targetCategory: 1 })).status).toBe(200);
    expect(replayed(await withOp(admin, API.move, moveBody, id))).toBe(true);
    expect(await names(admin, null)).toContain(`mover-${tag}.txt`);
    expect(await names(admin, target.id)).not.toContain(`mover-${tag}.txt`);
  });

  it('removeFiles and favourites: a replay does not delete or mark again what was undone meanwhile', async () => {
    const tag = opId();
    const file = await text(admin, `gone-${tag}.txt`, 'x');
    const removeId = opId();
    expect((await withOp(admin, API.removeFiles, { ids: [file.id] }, removeId)).status).toBe(200);
    expect((await admin.post(API.recycleRestore, { ids: [file.id] })).status).toBe(200);
    expect(replayed(await withOp(admin, API.removeFiles, { ids: [file.id] }, removeId))).toBe(true);
    expect(await names(admin, null)).toContain(`gone-${tag}.txt`);

    const favouriteId = opId();
    expect((await withOp(admin, API.favoriteAdd, { ids: [file.id] }, favouriteId)).status).toBe(200);
    await twice(admin, API.favoriteRemove, { ids: [file.id] });
    expect(replayed(await withOp(admin, API.favoriteAdd, { ids: [file.id] }, favouriteId))).toBe(true);
    expect((await entries(admin, null)).find((e) => e.id === file.id)?.favorite).toBe(false);
  });

  it('keepOnCreateTxt: a replayed rename decision makes one file', async () => {
    const tag = opId();
    await text(admin, `held-${tag}.txt`, 'first');
    const held = await admin.post<{ data: CreateTxtResponse }>(API.createTxt, { parentId: null, category: 1, name: `held-${tag}.txt`, content: 'second' });
    expect(held.body.data.status).toBe('held');
    const holdId = (held.body.data as { holdId: string }).holdId;
    const kept = await twice(admin, API.keepOnCreateTxt, { holdId, decision: 'rename' });
    expect((kept.body as { data: KeepOnCreateTxtResponse }).data.status).toBe('created');
    expect((await names(admin, null)).filter((n) => n.startsWith(`held-${tag}`)).sort()).toEqual([`held-${tag} (1).txt`, `held-${tag}.txt`]);
  });

  it('a replay after a lost answer (the client hung up) gets the answer the first request earned', async () => {
    const id = opId();
    const body = JSON.stringify({ parentId: null, category: 1, name: `lost-${id}` });
    const url = new URL(server.baseUrl);
    const kept = () => withDb(server, (db) => db.prepare('select status from client_ops where op_id = ?').get(id) as { status: number | null } | undefined);
    const until = async (done: () => Promise<boolean>) => {
      while (!(await done())) await new Promise((r) => setTimeout(r, 20));
    };
    // The whole request is sent; the connection is dropped once the server runs it (it has claimed the
    // id), so its answer never arrives. Hanging up earlier is another case: Node's HTTP server drops a
    // request whose connection ended before its body was read (the session lookup may still be running),
    // so that request never runs at all and the replay is the first run.
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const head = [`POST ${API.mkdir} HTTP/1.1`, `host: ${url.host}`, `cookie: ${admin.cookie}`, 'content-type: application/json',
      `content-length: ${Buffer.byteLength(body)}`, `${HEADER_CLIENT_OP_ID}: ${id}`, 'connection: close'];
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
    await until(async () => (await kept()) !== undefined);
    socket.destroy();
    // Wait (reading its table) until it has kept the answer, so the replay below comes after, like the
    // outbox's retry once the network is back. No deadline of our own: how long depends on the machine.
    await until(async () => Boolean((await kept())?.status));
    const answer = await withOp(admin, API.mkdir, JSON.parse(body), id);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(replayed(answer)).toBe(true);
    expect((answer.body as { data: FileEntry }).data.name).toBe(`lost-${id}`);
    expect((await names(admin, null)).filter((n) => n === `lost-${id}`)).toHaveLength(1);
  });

  it('while the first request runs a repeat answers OP_IN_PROGRESS and runs nothing; a claim its server abandoned runs again', async () => {
    const userId = await userIdOf(server, 'admin');
    const running = opId();
    const body = { parentId: null, category: 1, name: `running-${running}` };
    await claimRow(userId, running, requestHash('POST', API.mkdir, body), Date.now());
    expectError(await withOp(admin, API.mkdir, body, running), ERRORS.OP_IN_PROGRESS.code, 409);
    expect(await names(admin, null)).not.toContain(body.name);

    const abandoned = opId();
    const again = { parentId: null, category: 1, name: `abandoned-${abandoned}` };
    await claimRow(userId, abandoned, requestHash('POST', API.mkdir, again), Date.now() - ABANDONED_AFTER_MS - 1000);
    const ran = await withOp(admin, API.mkdir, again, abandoned);
    expect(ran.status).toBe(200);
    expect(replayed(ran)).toBe(false);
    expect(replayed(await withOp(admin, API.mkdir, again, abandoned))).toBe(true);
    expect((await names(admin, null)).filter((n) => n === again.name)).toHaveLength(1);
  });

  it('a refused reuse keeps the first answer for the first request', async () => {
    const id = opId();
    const body = { parentId: null, category: 1, name: `kept-${id}` };
    const first = await withOp(admin, API.mkdir, body, id);
    expectError(await withOp(admin, API.rename, { id: (first.body as { data: FileEntry }).data.id, name: `other-${id}` }, id), ERRORS.OP_ID_REUSED.code);
    const again = await withOp(admin, API.mkdir, body, id);
    expect(replayed(again)).toBe(true);
    expect(again.body).toEqual(first.body);
    expect(await names(admin, null)).toContain(body.name);
  });

  // Last: sweeping at a time 7 days ahead also ends every session of this server.
  it('kept answers are swept after their time', async () => {
    const id = opId();
    expect((await withOp(admin, API.mkdir, { parentId: null, category: 1, name: `old-${id}` }, id)).status).toBe(200);
    const count = () => withDb(server, (db) => (db.prepare('select count(*) n from client_ops where op_id = ?').get(id) as { n: number }).n);
    expect(await count()).toBe(1);
    await server.app.sweeper.sweepOnce(Date.now() + CLIENT_OP_TTL_MS + 1000);
    expect(await count()).toBe(0);
  });
});
