import { randomBytes } from 'node:crypto';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import type { ActionLogTable } from '../../../server/db/schema';
import { chainHash, headMac } from '../../../server/services/action-log/chain';

/** What a generated log looks like, for the filters the benchmark asks for. */
export interface GeneratedLog {
  rows: number;
  firstAt: number;
  lastAt: number;
  /** An operator with about rows / OPERATORS records (a real user of the tenant). */
  operatorId: string;
  departmentId: string;
}

export const OPERATORS = 1000;
const DEPARTMENTS = 100;
/** Actions in the proportions a working tenant shows: mostly previews, downloads, uploads. */
const ACTIONS: Array<[string, number]> = [
  ['file.preview', 25],
  ['file.download', 20],
  ['file.upload', 15],
  ['auth.login', 8],
  ['file.rename', 5],
  ['file.mkdir', 5],
  ['file.move', 4],
  ['file.copy', 4],
  ['file.delete', 4],
  ['file.favorite', 3],
  ['file.zip', 2],
  ['file.versionNew', 2],
  ['file.restore', 1],
  ['file.lock', 1],
  ['group.memberAdd', 1],
];
const WEIGHTED = ACTIONS.flatMap(([code, weight]) => Array.from({ length: weight }, () => code));
const DOCS = ['季度报告', '合同', '会议纪要', 'design', 'budget', '方案', '发票', 'README', '周报', '项目计划'];
const EXTS = ['.docx', '.xlsx', '.pdf', '.pptx', '.png', '.txt'];

/**
 * Appends `count` records to a tenant's chain straight in the database (the rows, their hashes and
 * the head exactly as the server writes them), spread evenly over `spanMs` up to a minute ago, so
 * the log is what a tenant of 1,000 people builds over half a year. `operatorId` gets its share.
 */
export function generateAuditLog(db: SqliteDatabase, key: Buffer, tenantId: string, operatorId: string, count: number, spanMs: number): GeneratedLog {
  const head = db.prepare('select seq, hash, anchor_seq, anchor_hash from action_log_heads where tenant_id = ?').get(tenantId) as {
    seq: number;
    hash: string;
    anchor_seq: number;
    anchor_hash: string;
  };
  const operators = Array.from({ length: OPERATORS }, (_, i) => (i === 0 ? operatorId : randomBytes(16).toString('base64url')));
  const departments = Array.from({ length: DEPARTMENTS }, () => randomBytes(16).toString('base64url'));
  // Real departments of the tenant (the department filter looks its subtree up).
  const addDepartment = db.prepare(
    `insert into departments (id, tenant_id, parent_id, name, name_key, sort_order, manager_id, kind, created_at, updated_at)
     values (?, ?, null, ?, ?, ?, null, 'normal', ?, ?)`,
  );
  departments.forEach((id, i) => addDepartment.run(id, tenantId, `部门${i}`, `部门${i}`, i, Date.now(), Date.now()));
  const columns = [
    'tenant_id', 'seq', 'at', 'actor_id', 'actor_account', 'actor_name', 'actor_role', 'dept_id', 'action', 'targets', 'names_key', 'detail',
    'outcome', 'error_code', 'address', 'client_type', 'network_env', 'platform', 'user_agent', 'prev_hash', 'hash',
  ] as const;
  const insert = db.prepare(`insert into action_log (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`);
  const lastAt = Date.now() - 60_000;
  const firstAt = lastAt - spanMs;
  let seq = Number(head.seq);
  let prev = head.hash;
  const BATCH = 50_000;
  for (let start = 0; start < count; start += BATCH) {
    db.transaction(() => {
      for (let i = start; i < Math.min(count, start + BATCH); i++) {
        seq += 1;
        const actor = i % OPERATORS;
        const name = `${DOCS[i % DOCS.length]}-${i % 50_000}${EXTS[i % EXTS.length]}`;
        const targets = JSON.stringify([{ type: 'file', id: randomBytes(16).toString('base64url'), name }]);
        const refused = i % 100 === 37;
        const row: Omit<ActionLogTable, 'hash'> = {
          tenant_id: tenantId,
          seq,
          at: firstAt + Math.floor((spanMs * i) / count),
          actor_id: operators[actor]!,
          actor_account: `user${String(actor).padStart(4, '0')}`,
          actor_name: `用户${actor}`,
          actor_role: actor < 5 ? 'admin' : 'member',
          dept_id: departments[actor % DEPARTMENTS]!,
          // A multiplicative hash, so no operator's share falls on one action.
          action: WEIGHTED[(Math.imul(i, 2654435761) >>> 8) % WEIGHTED.length]!,
          targets,
          names_key: name.toLowerCase(),
          detail: null,
          outcome: refused ? 'refused' : 'ok',
          error_code: refused ? 'FILE-3005' : null,
          address: `10.${(actor >> 8) & 255}.${actor & 255}.${i % 200}`,
          client_type: 3,
          network_env: 'internal',
          platform: i % 5 === 0 ? 'desktop' : 'web',
          user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0 Safari/537.36',
          prev_hash: prev,
        };
        const hash = chainHash(key, row);
        insert.run({ ...row, hash });
        prev = hash;
      }
    })();
  }
  const mac = headMac(key, { tenant_id: tenantId, seq, hash: prev, anchor_seq: head.anchor_seq, anchor_hash: head.anchor_hash });
  db.prepare('update action_log_heads set seq = ?, hash = ?, mac = ? where tenant_id = ?').run(seq, prev, mac, tenantId);
  return { rows: count, firstAt, lastAt, operatorId, departmentId: departments[0]! };
}
