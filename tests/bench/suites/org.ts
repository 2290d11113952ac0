/**
 * The organisation at the scale: 2,000 departments (20 × 10 × ~9, three levels) and 20,000
 * people, generated straight in the database of a real server (temp data directory); then the calls
 * the pages make, through the real routes with `app.inject` (routing, session guard, validation, the
 * keyset query), timed per request: the whole tree as served (`orgTreeP99Ms`: from the per-tenant
 * cache) and the first one after an organisation write (`orgTreeColdP99Ms`: built anew), the first page of 用户管理 with no
 * filter, of a top-level department with its subtree (~1,000 people) and of a small department
 * (`orgFirstPageP99Ms`: the worst of the three), keyword searches over account, nickname and phone
 * (`orgSearchP99Ms`: the worst of a frequent and a rare keyword, in 用户管理 and in 通讯录). Then a
 * sheet of 10,000 new people: preview (parse with exceljs + judge every row) and import (one
 * transaction): `importPreviewMs`, `importCommitMs`.
 */
import { randomBytes } from 'node:crypto';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { IMPORT_COLUMNS, type ImportPreview, type ImportResult } from '../../../common/api/org-types';
import { API } from '../../../common/api/paths';
import { encryptPassword } from '../../../common/crypto/password-cipher';
import { startServerAsAdmin, withDb } from '../../server/helpers';
import type { BenchModule, BenchRow } from '../lib/report';

const DEPARTMENTS = 2000;
const USERS = 20_000;
const IMPORT_ROWS = 10_000;
const ITERATIONS = 200;
const WARMUP = 20;

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const round2 = (n: number) => Math.round(n * 100) / 100;
const id = () => randomBytes(16).toString('base64url');

interface Seeded {
  bigDepartment: string;
  smallDepartment: string;
}

/** The tree and the people, in one transaction each side. */
export function seed(db: SqliteDatabase): Seeded {
  const { tenant_id: tenant, password_hash: hash } = db.prepare("select tenant_id, password_hash from users where username = 'admin'").get() as { tenant_id: string; password_hash: string };
  const now = Date.now();
  const insertDept = db.prepare(
    `insert into departments (id, tenant_id, parent_id, name, name_key, sort_order, manager_id, kind, created_at, updated_at) values (?, ?, ?, ?, ?, ?, null, 'normal', ?, ?)`,
  );
  const leaves: string[] = [];
  const tops: string[] = [];
  let made = 0;
  db.transaction(() => {
    for (let t = 0; t < 20 && made < DEPARTMENTS; t++) {
      const top = id();
      insertDept.run(top, tenant, null, `事业部${t}`, `事业部${t}`, t * 10, now, now);
      tops.push(top);
      made++;
      for (let m = 0; m < 10 && made < DEPARTMENTS; m++) {
        const mid = id();
        insertDept.run(mid, tenant, top, `中心${t}-${m}`, `中心${t}-${m}`, m * 10, now, now);
        made++;
        for (let l = 0; l < 9 && made < DEPARTMENTS; l++) {
          const leaf = id();
          insertDept.run(leaf, tenant, mid, `小组${t}-${m}-${l}`, `小组${t}-${m}-${l}`, l * 10, now, now);
          leaves.push(leaf);
          made++;
        }
      }
    }
  })();
  const insertUser = db.prepare(
    `insert into users (id, tenant_id, username, username_key, nick_name, phone, avatar, role, password_hash, must_change_password,
       password_changed_at, quota, used_size, created_at, locked, outer_login, department_id) values (?, ?, ?, ?, ?, ?, '', 'member', ?, ?, ?, ?, 0, ?, 0, ?, ?)`,
  );
  const surnames = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴'];
  db.transaction(() => {
    for (let i = 0; i < USERS; i++) {
      const account = `user${String(i).padStart(5, '0')}`;
      const phone = `15${String(100_000_000 + ((i * 7919) % 900_000_000)).padStart(9, '0')}`;
      insertUser.run(id(), tenant, account, account, `${surnames[i % 10]}员工${i}`, phone, hash, i % 7 === 0 ? 1 : 0, now, 10 * 1024 ** 3, now, i % 3 === 0 ? 1 : 0, leaves[i % leaves.length]);
    }
  })();
  db.exec('analyze');
  return { bigDepartment: tops[3]!, smallDepartment: leaves[17]! };
}

async function importSheet(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('用户');
  ws.addRow([...IMPORT_COLUMNS]);
  for (let i = 0; i < IMPORT_ROWS; i++) {
    ws.addRow([`new.${i}`, `新员工${i}`, `13${String(100_000_000 + i).padStart(9, '0')}`, `事业部${i % 20}/中心${i % 20}-${i % 8}`, i % 50 === 0 ? '管理员' : '普通用户', '10GB', i % 2 ? '是' : '否']);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export const orgBenchmark: BenchModule = {
  name: 'org',
  columns: ['request', 'p50 ms', 'p99 ms', 'max ms', 'rows'],
  async run() {
    const { server, admin } = await startServerAsAdmin({ logger: false });
    try {
      // The 未分配 department exists once the server has answered one organisation call.
      await admin.get(API.orgTree);
      const seeded = await withDb(server, seed);
      const cookie = admin.cookie;
      const rows: BenchRow[] = [];
      const time = async (label: string, request: { method: 'GET' | 'POST'; url: string; payload?: unknown }, count: (body: unknown) => number) => {
        const times: number[] = [];
        let n = 0;
        for (let i = 0; i < WARMUP + ITERATIONS; i++) {
          const start = performance.now();
          const res = await server.app.inject({ ...request, headers: { cookie } } as never);
          const ms = performance.now() - start;
          if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body}`);
          if (i >= WARMUP) times.push(ms);
          n = count((res.json() as { data: unknown }).data);
        }
        times.sort((a, b) => a - b);
        rows.push({ label, cells: { 'p50 ms': percentile(times, 50).toFixed(2), 'p99 ms': percentile(times, 99).toFixed(2), 'max ms': times[times.length - 1]!.toFixed(2), rows: String(n) } });
        if (n === 0) throw new Error(`${label}: nothing found`);
        return percentile(times, 99);
      };
      const items = (d: unknown) => (d as { items: unknown[] }).items.length;
      const departmentCount = (d: unknown) => {
        const n = (d as { departments: unknown[] }).departments.length;
        if (n !== DEPARTMENTS + 1) throw new Error(`the tree holds ${n} departments`);
        return n;
      };
      // The first tree after an organisation write is built anew (the per-tenant cache is dropped).
      const cold: number[] = [];
      const someone = (JSON.parse((await server.app.inject({ method: 'POST', url: API.userList, payload: { pageSize: 1 }, headers: { cookie } })).body) as { data: { items: Array<{ id: string }> } }).data.items[0]!.id;
      for (let i = 0; i < 110; i++) {
        const to = i % 2 ? seeded.smallDepartment : seeded.bigDepartment;
        await server.app.inject({ method: 'POST', url: API.userSetDepartment, payload: { ids: [someone], departmentId: to }, headers: { cookie } });
        const start = performance.now();
        const res = await server.app.inject({ method: 'GET', url: API.orgTree, headers: { cookie } });
        const ms = performance.now() - start;
        if (res.statusCode !== 200) throw new Error(res.body);
        departmentCount((res.json() as { data: unknown }).data);
        if (i >= 10) cold.push(ms);
      }
      cold.sort((a, b) => a - b);
      rows.push({ label: 'whole tree, first after a write (built anew)', cells: { 'p50 ms': percentile(cold, 50).toFixed(2), 'p99 ms': percentile(cold, 99).toFixed(2), 'max ms': cold[cold.length - 1]!.toFixed(2), rows: '2001' } });
      const tree = await time('whole tree (listNowOrgUser), as served', { method: 'GET', url: API.orgTree }, departmentCount);
      const pages = [
        await time('用户管理 first page, no filter', { method: 'POST', url: API.userList, payload: { pageSize: 100 } }, items),
        await time('用户管理 first page, top department + subtree', { method: 'POST', url: API.userList, payload: { departmentId: seeded.bigDepartment, pageSize: 100 } }, items),
        await time('用户管理 first page, one small department', { method: 'POST', url: API.userList, payload: { departmentId: seeded.smallDepartment, pageSize: 100 } }, items),
        await time('用户管理 first page, state 待改初始密码', { method: 'POST', url: API.userList, payload: { state: 'mustChange', pageSize: 100 } }, items),
      ];
      const searches = [
        await time('用户管理 search, frequent ("员工1")', { method: 'POST', url: API.userList, payload: { keyword: '员工1', pageSize: 100 } }, items),
        await time('用户管理 search, rare ("user19999")', { method: 'POST', url: API.userList, payload: { keyword: 'user19999', pageSize: 100 } }, items),
        await time('通讯录 search, phone digits', { method: 'GET', url: `${API.orgUserList}?keyword=${encodeURIComponent('1510')}&pageSize=100` }, items),
        await time('通讯录 department + subtree', { method: 'GET', url: `${API.orgUserList}?departmentId=${seeded.bigDepartment}&pageSize=100` }, items),
      ];

      const sheet = await importSheet();
      let start = performance.now();
      const preview = await server.app.inject({ method: 'POST', url: `${API.userImportPreview}?name=bench.xlsx`, payload: sheet, headers: { cookie, 'content-type': 'application/octet-stream' } });
      const previewMs = performance.now() - start;
      if (preview.statusCode !== 200) throw new Error(`preview: ${preview.body}`);
      const p = (preview.json() as { data: ImportPreview }).data;
      if (p.good !== IMPORT_ROWS) throw new Error(`preview judged ${p.bad} rows bad: ${JSON.stringify(p.rows.find((r) => !r.ok))}`);
      start = performance.now();
      const commit = await server.app.inject({ method: 'POST', url: API.userImportCommit, payload: { batchId: p.batchId, password: encryptPassword('Bench@2024x') }, headers: { cookie } });
      const commitMs = performance.now() - start;
      if (commit.statusCode !== 200 || (commit.json() as { data: ImportResult }).data.imported !== IMPORT_ROWS) throw new Error(`import: ${commit.body.slice(0, 300)}`);
      rows.push({ label: `import ${IMPORT_ROWS} rows (.xlsx ${(sheet.length / 1024).toFixed(0)} KiB): preview`, cells: { 'p50 ms': previewMs.toFixed(0), rows: String(p.total) } });
      rows.push({ label: `import ${IMPORT_ROWS} rows: commit (one transaction)`, cells: { 'p50 ms': commitMs.toFixed(0), rows: String(IMPORT_ROWS) } });
      return {
        rows,
        metrics: {
          orgDepartments: DEPARTMENTS,
          orgUsers: USERS,
          orgTreeP99Ms: round2(tree),
          orgTreeColdP99Ms: round2(percentile(cold, 99)),
          orgFirstPageP99Ms: round2(Math.max(...pages)),
          orgSearchP99Ms: round2(Math.max(...searches)),
          importRows: IMPORT_ROWS,
          importPreviewMs: Math.round(previewMs),
          importCommitMs: Math.round(commitMs),
        },
      };
    } finally {
      await server.close();
    }
  },
};
