import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileMessageEvent, SystemNoticeEvent } from '../../common/api/notices';
import { API } from '../../common/api/paths';
import { LEADER_LOCK, LEADER_RETRY_MS } from '../../server/db/pg-leadership';
import { stopOwnPostgres } from '../support/postgres-database';
import { adminClient, kill, type Running } from './child-server';
import { createGroup, entries, mkdir, text } from './file-kit';
import { Client, login, MEMBER } from './helpers';
import { openStream } from './notice-kit';
import { createDepartment, orgTree } from './org-kit';
import { startProcessPair, type ProcessPair } from './process-pair';

/**
 * Two real server processes on one PostgreSQL and one DATA_DIR (issue 36): what happens through one
 * reaches a notice stream open on the other, a department change through one is in the other's next
 * tree, a lost listening connection loses no event, and when the leader of the periodic jobs is
 * killed (-9) the other takes the sweeper and the checkpoints over. Runs on its own PostgreSQL when
 * the suite runs on SQLite (tests/support/postgres-database.ts).
 */
let pair: ProcessPair;
/** How long B's lost listener waits before reconnecting: events made meanwhile fall into the gap. */
const RECONNECT_MS = 3000;

beforeAll(async () => {
  pair = await startProcessPair({ SWEEP_INTERVAL_MS: '200', AUDIT_CHECKPOINT_INTERVAL_MS: '200', DRIVE_TEST_LISTENER_RECONNECT_MS: String(RECONNECT_MS) });
}, 60_000);
afterAll(async () => {
  await pair?.close();
  await stopOwnPostgres();
});

async function query<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: pair.dbUrl });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function memberOn(run: Running): Promise<Client> {
  await query('update users set must_change_password = 0 where username = $1', [MEMBER.username]);
  const client = new Client(run.baseUrl);
  const res = await login(pair.shared, client, MEMBER);
  if (res.status !== 200) throw new Error(`member login failed: ${JSON.stringify(res.body)}`);
  return client;
}

/**
 * The node process holding the periodic jobs' lock (by the leadership connection's application_name).
 * pg_locks lists the whole cluster's locks: only this file's database counts, since another server file
 * running beside this one (two workers) has its own pair of servers, and its own leader, on the same cluster.
 */
async function leaderPid(): Promise<number | null> {
  const rows = await query<{ application_name: string }>(
    `select a.application_name from pg_locks l join pg_stat_activity a on a.pid = l.pid
      where l.locktype = 'advisory' and l.granted and l.classid = $1 and l.objid = $2
        and l.database = (select oid from pg_database where datname = current_database())`,
    [...LEADER_LOCK],
  );
  const name = rows[0]?.application_name;
  return name ? Number(name.split(':')[1]) : null;
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('several server processes on one PostgreSQL', () => {
  it('a message or notice made through A reaches a stream on B; a listener gap of B loses none', async () => {
    const { a, b, dataDir } = pair;
    const adminA = await adminClient(a, dataDir);
    const memberB = await memberOn(b);
    const group = await createGroup(adminA, 'several_group');
    expect((await adminA.post(API.groupMemberAdd, { id: group.id, username: MEMBER.username, role: 'member' })).status).toBe(200);

    const stream = await openStream(memberB);
    try {
      await stream.next((e) => e.event === 'counts');
      // A file message made in A reaches the member's stream on B.
      const file = await text(adminA, 'across.txt', 'x', null, { spaceId: group.id });
      const locking = Date.now();
      expect((await adminA.post(API.lock, { ids: [file.id] })).status).toBe(200);
      const answered = Date.now();
      const message = await stream.next((e) => e.event === 'file' && (e.data as FileMessageEvent).type === 'file.locked', 2000);
      expect(message.data).toMatchObject({ fileName: 'across.txt', itemCount: 1 });
      console.log(JSON.stringify({ crossProcessEventAfterRequestMs: message.at - locking, afterAnswerMs: message.at - answered }));

      // So does a system notice addressed to the member (its title read by B from the database).
      const memberId = (await query<{ id: string }>('select id from users where username = $1', [MEMBER.username]))[0]!.id;
      const saved = await adminA.post<{ data: { id: string } }>(API.noticeManageSave, {
        title: '跨进程公告', content: '<p>x</p>', audience: { all: false, departmentIds: [], userIds: [memberId] }, important: false, pinned: false, publish: 'now',
      });
      expect(saved.status).toBe(200);
      const notice = await stream.next((e) => e.event === 'system' && (e.data as SystemNoticeEvent).id === saved.body.data.id, 2000);
      expect(notice.data).toEqual({ id: saved.body.data.id, title: '跨进程公告', important: false, change: 'published' });

      // B's listening connection is cut; an event made before it listens again reaches the stream all the same.
      const cut = await query<{ n: number }>('select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where application_name = $1', [`drive-listener:${b.child.pid}`]);
      expect(cut[0]!.n).toBe(1);
      await until('B to notice the lost listener', async () => b.log.join('').includes('event listener: connection lost'), 5000);
      const second = await text(adminA, 'during-gap.txt', 'y', null, { spaceId: group.id });
      expect((await adminA.post(API.lock, { ids: [second.id] })).status).toBe(200);
      const answeredAt = Date.now();
      const caught = await stream.next((e) => e.event === 'file' && (e.data as FileMessageEvent).fileName === 'during-gap.txt', RECONNECT_MS + 5000);
      expect(caught.data).toMatchObject({ type: 'file.locked' });
      // It was made inside the gap (B listened again only after A had answered): the catch-up brought it.
      const reconnected = b.log.join('').split('\n').find((l) => l.includes('event listener reconnected'));
      expect(reconnected, 'B reconnected').toBeDefined();
      expect((JSON.parse(reconnected!) as { time: number }).time).toBeGreaterThan(answeredAt);
      // Once, not again by a notification.
      await new Promise((r) => setTimeout(r, 300));
      expect(stream.events.filter((e) => e.event === 'file' && (e.data as FileMessageEvent).fileName === 'during-gap.txt')).toHaveLength(1);
    } finally {
      stream.close();
    }
  }, 40_000);

  it('a department made through A is in the very next tree B answers', async () => {
    const { a, b, dataDir } = pair;
    const [adminA, adminB] = [await adminClient(a, dataDir), await adminClient(b, dataDir)];
    // B caches the tree (TREE_CACHE_MS); a department made through A is in B's very next read.
    expect((await orgTree(adminB)).departments.some((d) => d.name === '跨进程部门')).toBe(false);
    await createDepartment(adminA, '跨进程部门');
    expect((await orgTree(adminB)).departments.some((d) => d.name === '跨进程部门')).toBe(true);
  }, 20_000);

  it("a change of the tenant's sensitive keywords through A marks entries in B's very next list", async () => {
    const { a, b, dataDir } = pair;
    const [adminA, adminB] = [await adminClient(a, dataDir), await adminClient(b, dataDir)];
    const folder = await mkdir(adminA, '跨进程敏感词');
    await mkdir(adminA, '丙方合同', folder.id);
    const marks = async () => Object.fromEntries((await entries(adminB, folder.id)).map((e) => [e.name, e.sensitive]));
    // B lists first: it caches the tenant's settings (TenantSettingsCache); A announces each change
    // (the event bus) before it answers, and B drops its copy when it hears it.
    expect(await marks()).toEqual({ 丙方合同: false });
    const set = async (words: string[]) => expect((await adminA.post(API.fileSecurityUpdate, { sensitiveKeywords: words })).status).toBe(200);
    await set(['丙方']);
    expect(await marks()).toEqual({ 丙方合同: true });
    await set(['丁方']);
    expect(await marks()).toEqual({ 丙方合同: false });
  }, 20_000);

  it('one process leads the sweeper and the checkpoints; after kill -9 of it the other takes them over', async () => {
    const { a, b, dataDir } = pair;
    // One process leads the sweeper and the checkpoints; kill -9 of it and the other takes them over.
    const first = await until('a leader', leaderPid, 10_000);
    expect([a.child.pid, b.child.pid]).toContain(first);
    const [leader, other] = first === a.child.pid ? [a, b] : [b, a];
    const expired = async (id: string) => query("insert into captchas (id, answer_hash, expires_at, used) values ($1, 'x', 1, 0)", [id]);
    const gone = (id: string) => async () => (await query('select 1 from captchas where id = $1', [id])).length === 0;
    await expired('swept-by-first');
    await until('the leader to sweep', gone('swept-by-first'), 5000);
    expect(other.log.join('')).not.toContain('leading the periodic jobs');

    await kill(leader);
    const killedAt = Date.now();
    await until('the other to lead', async () => (await leaderPid()) === other.child.pid, 10_000);
    const takeover = Date.now() - killedAt;
    // PostgreSQL ends the killed process's session at once; the other tries every LEADER_RETRY_MS.
    expect(takeover).toBeLessThan(LEADER_RETRY_MS + 3000);
    await expired('swept-by-second');
    await until('the new leader to sweep', gone('swept-by-second'), 5000);
    // The action log's head moves (a login through the survivor); the new leader checkpoints it.
    const before = other.log.join('').split('action log checkpoint').length;
    await adminClient(other, dataDir);
    await until('a checkpoint by the new leader', async () => other.log.join('').split('action log checkpoint').length > before, 5000);
    console.log(JSON.stringify({ leaderTakeoverMs: takeover }));
  }, 30_000);
});
