/**
 * Notices at the scale (issue 16), on a real server (temp data directory), through the real
 * routes with `app.inject` (routing, session guard, form parsing, the keyset query, the reader's
 * reach of every file a page names), timed per request:
 * - one member holds 100,000 file messages (10 % unread) about 50 files of a group space and a few
 *   out of reach; the first page of 文件消息 as the page asks for it — all, unread only, one
 *   category — (`messagesFirstPageP99Ms`: the worst of the three) and both unread counts
 *   (`unreadCountP99Ms`: the worst of GET /api/v2/notice/unread/count, the file and the system count
 *   calls), with 300 system notices of mixed audiences in the tenant, 250 of them read;
 * - 20,000 people in 2,000 departments (the org bench's tree): publishing one notice to all of them
 *   as the whole tenant and as the 20 top departments (their subtrees), and to the most people one
 *   may name (2,000) (`noticeFanoutMs`: the worst of the three, the save request end to end: one
 *   notice row and its audience rules, no row per reader), then one reader's count.
 * Search (a keyword over the 100,000) is reported, not a target. Wall-clock p99s rise with the
 * machine's load (other processes on the 2 cores); the `…CpuP99Ms` twins are the CPU time this
 * process spent per request, which the load does not inflate.
 */
import { randomBytes } from 'node:crypto';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import type { NoticeSaveRequest } from '../../../common/api/endpoints/notices';
import { NOTICE_AUDIENCE_MAX, type FileMessagePage, type ManagedNotice, type UnreadCounts } from '../../../common/api/notices';
import { API } from '../../../common/api/paths';
import type { CreateTxtResponse, SpaceInfo } from '../../../common/api/types';
import { startServerWithMember, withDb, type Client } from '../../server/helpers';
import type { BenchModule, BenchRow } from '../lib/report';
import { seed as seedOrganisation } from './org';

const MESSAGES = 100_000;
const UNREAD_EVERY = 10;
const FILES = 50;
const SYSTEM_NOTICES = 300;
const SYSTEM_READ = 250;
const ITERATIONS = 300;
const WARMUP = 30;
const FANOUT_PEOPLE = 20_000;

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const round2 = (n: number) => Math.round(n * 100) / 100;
const id = () => randomBytes(16).toString('base64url');
const TYPES = ['file.version', 'file.locked', 'file.moved', 'file.deleted', 'share.received', 'link.downloaded', 'apply.pending'];

async function data<T>(client: Client, path: string, body: unknown): Promise<T> {
  const res = await client.post<{ data: T }>(path, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** 100,000 messages of one reader (and its counter), 300 system notices, in one transaction each. */
function seedMessages(db: SqliteDatabase, member: string, fileIds: readonly string[], adminId: string): { tenant: string } {
  const { tenant_id: tenant } = db.prepare('select tenant_id from users where id = ?').get(member) as { tenant_id: string };
  const insert = db.prepare(
    `insert into file_messages (id, tenant_id, user_id, type, actor_id, actor_name, file_id, file_name, is_dir, item_count, ref_id, detail, batch_key, created_at, read_at)
     values (?, ?, ?, ?, ?, '管理员', ?, ?, 0, 1, null, '{}', null, ?, ?)`,
  );
  const start = Date.now() - MESSAGES * 60_000;
  let unread = 0;
  db.transaction(() => {
    for (let i = 0; i < MESSAGES; i++) {
      const at = start + i * 60_000;
      // Every 97th names an entry the reader cannot reach (another's, purged): the page must say so.
      const fileId = i % 97 === 0 ? id() : fileIds[i % fileIds.length]!;
      const isUnread = i % UNREAD_EVERY === 0;
      if (isUnread) unread++;
      insert.run(id(), tenant, member, TYPES[i % TYPES.length], adminId, fileId, `文件${i % FILES}.txt`, at, isUnread ? null : at + 1000);
    }
    db.prepare('insert into notice_counters (user_id, file_unread, quota_warned) values (?, ?, 0) on conflict (user_id) do update set file_unread = excluded.file_unread').run(member, unread);
  })();
  const depts = (db.prepare('select id from departments where tenant_id = ? limit 40').all(tenant) as Array<{ id: string }>).map((d) => d.id);
  const notice = db.prepare(
    `insert into system_notices (id, tenant_id, title, content, summary, audience_all, important, pinned, state, publish_at, withdrawn_at, created_by, author_name, created_at, updated_at)
     values (?, ?, ?, '<p>内容</p>', '内容', ?, 0, ?, 'published', ?, null, ?, '管理员', ?, ?)`,
  );
  const target = db.prepare('insert into system_notice_targets (notice_id, kind, target_id) values (?, ?, ?)');
  const read = db.prepare('insert into system_notice_reads (user_id, notice_id, read_at, popped_at) values (?, ?, ?, null)');
  db.transaction(() => {
    for (let i = 0; i < SYSTEM_NOTICES; i++) {
      const nid = id();
      const at = Date.now() - (SYSTEM_NOTICES - i) * 3_600_000;
      const all = i % 3 === 0 ? 1 : 0;
      notice.run(nid, tenant, `公告${i}`, all, i % 50 === 0 ? 1 : 0, at, adminId, at, at);
      if (!all) {
        target.run(nid, 'dept', depts[i % depts.length]!);
        target.run(nid, 'user', i % 2 ? member : adminId);
      }
      if (i < SYSTEM_READ) read.run(member, nid, at + 1000);
    }
  })();
  db.exec('analyze');
  return { tenant };
}

export const noticesBenchmark: BenchModule = {
  name: 'notices',
  columns: ['request', 'p50 ms', 'p99 ms', 'max ms', 'cpu p99 ms', 'rows'],
  async run() {
    const { server, admin, member } = await startServerWithMember();
    try {
      // A group space of the member's with the files the messages are about.
      const group = await data<SpaceInfo>(admin, API.groupCreate, { name: '消息基准组' });
      await data(admin, API.groupMemberAdd, { id: group.id, username: 'member', role: 'member' });
      const fileIds: string[] = [];
      for (let i = 0; i < FILES; i++) {
        const made = await data<CreateTxtResponse>(admin, API.createTxt, { parentId: null, category: 1, spaceId: group.id, name: `文件${i}.txt`, content: `${i}` });
        if (made.status !== 'created') throw new Error('file not created');
        fileIds.push(made.file.id);
      }
      // The organisation first (the org tree answers once the 未分配 department exists).
      await admin.get(API.orgTree);
      await withDb(server, seedOrganisation);
      const { memberId, adminId } = await withDb(server, (db) => ({
        memberId: (db.prepare("select id from users where username = 'member'").get() as { id: string }).id,
        adminId: (db.prepare("select id from users where username = 'admin'").get() as { id: string }).id,
      }));
      const t0 = performance.now();
      await withDb(server, (db) => seedMessages(db, memberId, fileIds, adminId));
      const seedMs = performance.now() - t0;

      const rows: BenchRow[] = [];
      const cookie = member.cookie;
      const time = async (label: string, request: { method: 'GET' | 'POST'; url: string; payload?: unknown; form?: Record<string, string> }, count: (body: unknown) => number) => {
        const times: number[] = [];
        const cpu: number[] = [];
        let n = 0;
        for (let i = 0; i < WARMUP + ITERATIONS; i++) {
          const headers: Record<string, string> = { cookie };
          let payload = request.payload;
          if (request.form) {
            headers['content-type'] = 'application/x-www-form-urlencoded';
            payload = new URLSearchParams(request.form).toString();
          }
          const cpuStart = process.cpuUsage();
          const start = performance.now();
          const res = await server.app.inject({ method: request.method, url: request.url, payload, headers } as never);
          const ms = performance.now() - start;
          const used = process.cpuUsage(cpuStart);
          if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body}`);
          if (i >= WARMUP) {
            times.push(ms);
            cpu.push((used.user + used.system) / 1000);
          }
          n = count((res.json() as { data: unknown }).data);
        }
        times.sort((a, b) => a - b);
        cpu.sort((a, b) => a - b);
        const cpuP99 = percentile(cpu, 99);
        rows.push({
          label,
          cells: { 'p50 ms': percentile(times, 50).toFixed(2), 'p99 ms': percentile(times, 99).toFixed(2), 'max ms': times[times.length - 1]!.toFixed(2), 'cpu p99 ms': cpuP99.toFixed(2), rows: String(n) },
        });
        return { p99: percentile(times, 99), cpuP99 };
      };
      const page = (d: unknown) => {
        const p = d as FileMessagePage;
        if (p.items.length === 0 || !p.nextCursor) throw new Error('an empty first page');
        return p.items.length;
      };
      const pages = [
        await time('文件消息 first page (50), all', { method: 'POST', url: API.fileMsgList, form: {} }, page),
        await time('文件消息 first page, unread only', { method: 'POST', url: API.fileMsgList, form: { read: '0' } }, page),
        await time('文件消息 first page, category 文件动态', { method: 'POST', url: API.fileMsgList, form: { category: 'file' } }, page),
      ];
      const deep = (await server.app.inject({ method: 'POST', url: API.fileMsgList, payload: 'pageSize=200', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' } })).json() as { data: FileMessagePage };
      await time('文件消息 a later page (keyset cursor)', { method: 'POST', url: API.fileMsgList, form: { cursor: deep.data.nextCursor! } }, page);
      const expectedUnread = MESSAGES / UNREAD_EVERY;
      const countsCall = (d: unknown) => {
        const c = d as UnreadCounts;
        if (c.file !== expectedUnread || c.system <= 0 || c.system > SYSTEM_NOTICES - SYSTEM_READ) throw new Error(`counts ${JSON.stringify(c)}`);
        return c.file + c.system;
      };
      const counts = [
        await time('unread counts (GET /api/v2/notice/unread/count)', { method: 'GET', url: API.noticeUnreadCount }, countsCall),
        await time('file unread (POST /api/fileMsg/userUnReadNum)', { method: 'POST', url: API.fileMsgUnreadNum, payload: {} }, () => 1),
        await time('system unread (POST /api/sysMsg/userUnReadNum)', { method: 'POST', url: API.sysMsgUnreadNum, payload: {} }, () => 1),
      ];
      await time('文件消息 search "文件7" over 100,000', { method: 'POST', url: API.fileMsgSearch, form: { keyword: '文件7' } }, page);

      // Fan-out: one notice to the 20,000 people of the tenant, three ways of naming them.
      const people = await withDb(server, (db) => (db.prepare("select id from users where tenant_id = (select tenant_id from users where username = 'admin')").all() as Array<{ id: string }>).map((u) => u.id));
      const tops = await withDb(server, (db) => (db.prepare("select id from departments where parent_id is null and kind = 'normal' and tenant_id = (select tenant_id from users where username = 'admin')").all() as Array<{ id: string }>).map((d) => d.id));
      if (people.length < FANOUT_PEOPLE || tops.length < 20) throw new Error(`organisation not seeded: ${people.length} people, ${tops.length} top departments`);
      const fanout = async (label: string, audience: NoticeSaveRequest['audience']) => {
        const body: NoticeSaveRequest = { title: `全员通知：${label}`, content: '<p>本周六 <strong>22:00</strong> 维护。</p>', audience, important: true, pinned: false, publish: 'now' };
        const start = performance.now();
        const saved = await server.app.inject({ method: 'POST', url: API.noticeManageSave, payload: body, headers: { cookie: admin.cookie } });
        const ms = performance.now() - start;
        if (saved.statusCode !== 200) throw new Error(`${label}: ${saved.body.slice(0, 300)}`);
        const notice = (saved.json() as { data: ManagedNotice }).data;
        // A reader among them sees it in the count at once (the audience is resolved when read).
        const readerCount = (await server.app.inject({ method: 'GET', url: API.noticeUnreadCount, headers: { cookie } })).json() as { data: UnreadCounts };
        rows.push({ label: `publish one notice: ${label}`, cells: { 'p50 ms': ms.toFixed(1), rows: `member: ${readerCount.data.system} unread` } });
        await server.app.inject({ method: 'POST', url: API.noticeManageDelete, payload: { id: notice.id }, headers: { cookie: admin.cookie } });
        return ms;
      };
      const fan = [
        await fanout(`whole tenant (${people.length.toLocaleString('en')} people)`, { all: true, departmentIds: [], userIds: [] }),
        await fanout('20 top departments with their subtrees', { all: false, departmentIds: tops.slice(0, 20), userIds: [] }),
        // Named people are capped (NOTICE_AUDIENCE_MAX): a crowd is named by its departments.
        await fanout(`${NOTICE_AUDIENCE_MAX.toLocaleString('en')} named people`, { all: false, departmentIds: [], userIds: people.slice(0, NOTICE_AUDIENCE_MAX) }),
      ];
      rows.unshift({ label: `seed ${MESSAGES.toLocaleString('en')} messages + ${SYSTEM_NOTICES} notices (one transaction)`, cells: { 'p50 ms': seedMs.toFixed(0), rows: String(MESSAGES) } });
      return {
        rows,
        metrics: {
          noticeMessages: MESSAGES,
          messagesFirstPageP99Ms: round2(Math.max(...pages.map((t) => t.p99))),
          messagesFirstPageCpuP99Ms: round2(Math.max(...pages.map((t) => t.cpuP99))),
          unreadCountP99Ms: round2(Math.max(...counts.map((t) => t.p99))),
          unreadCountCpuP99Ms: round2(Math.max(...counts.map((t) => t.cpuP99))),
          noticeFanoutPeople: FANOUT_PEOPLE,
          noticeFanoutMs: Math.round(Math.max(...fan)),
        },
      };
    } finally {
      await server.close();
    }
  },
};
