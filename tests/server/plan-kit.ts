/**
 * What the query-plan tests share on both engines: a database of the engine the tests run on
 * (tests/support/test-database.ts) filled with 100k synthetic rows per big table, one builder for
 * SQLite and PostgreSQL, and the page queries whose plans they read (compiled by Kysely from the
 * real repositories), each with the index it must read.
 *
 * query-plans.test.ts reads SQLite's EXPLAIN QUERY PLAN, postgres-plans.test.ts PostgreSQL's EXPLAIN.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { ServerConfig } from '../../server/config';
import { openDatabase } from '../../server/db/database';
import { engineOf } from '../../server/db/dialect';
import type { Database } from '../../server/db/schema';
import type { IndexedFilter } from '../../server/repositories/action-log-repository';
import { FileMessageRepository } from '../../server/repositories/file-message-repository';
import type { ListParent, SortColumn } from '../../server/repositories/file-repository';
import type { SearchScope } from '../../server/repositories/search-repository';
import { ShareRepository } from '../../server/repositories/share-repository';
import { dropTestDatabase, emptyTestDbUrl, testDbUrl } from '../support/test-database';

export const PLAN_ROWS = 100_000;

export interface PlanDatabase {
  db: Kysely<Database>;
  dir: string;
  close(): Promise<void>;
}

/**
 * A migrated database of the engine under test, in its own data directory. `ctype` (PostgreSQL
 * only): the database's LC_CTYPE instead of the cluster's C.UTF-8, migrated from empty.
 */
export async function openPlanDatabase(prefix: string, options: { ctype?: 'C' } = {}): Promise<PlanDatabase> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), prefix));
  const dbUrl = options.ctype ? await emptyTestDbUrl(dir, options) : await testDbUrl(dir);
  const db = await openDatabase({ dataDir: dir, dbUrl } as ServerConfig);
  return {
    db,
    dir,
    async close() {
      await db.destroy();
      await dropTestDatabase(dir);
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

export type BigTable = 'files' | 'action_log' | 'shares' | 'file_messages';

/**
 * Entry i's name: 'name <i>', one in 25 prefixed with a common Chinese word of one or two characters
 * (合同, 报告, 图: 4,000 each), as keyword searches look for them.
 */
const FILE_NAME = sql`(case i % 25 when 1 then '合同 ' when 2 then '报告 ' when 3 then '图 ' else '' end || 'name ' || i)`;

/** 1..PLAN_ROWS as `n(i)`, in SQL both engines accept. */
const series = sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${sql.lit(PLAN_ROWS)})`;

/**
 * Synthetic rows, the same on both engines, in tenant 't' (action_log: 't0'…'t4'):
 *  - users u0…u999;
 * (Names are 'name <i>', a few with a Chinese word before (FILE_NAME); sort keys are 7 digits, 1000000…1100002.)
 *  - files: 10 owners (u0…u9); one folder of 50,000 entries (p1, the folder the list tests read),
 *    50 more of ~1,000 (p0, p2…p98), 2 % in the category roots, a seventh folders, a tenth in the
 *    recycle bin; sort keys unrelated to insertion order;
 *  - shares of files f1…, each to one of 1,000 recipients of one kind (user, dept, group), 5 % revoked;
 *  - file_messages: 100 per user, a third read;
 *  - action_log: 5 tenants, 1,000 operators, 50 actions, 50 departments, 1 % refused.
 * Only the rows: the tenant, folders and blobs they name do not exist, so foreign keys are not
 * checked while filling. PostgreSQL's statistics are refreshed afterwards (SQLite plans without any).
 */
export async function fillPlanData(db: Kysely<Database>, tables: readonly BigTable[]): Promise<void> {
  const pg = engineOf(db) === 'postgres';
  const fill = async (tx: Kysely<Database>) => {
    await sql`insert into users (id, tenant_id, username, nick_name, role, password_hash, quota, created_at)
      ${series} select 'u' || (i - 1), 't', 'user' || i, 'n' || i, 'member', 'x', 0, 0 from n where i <= 1000`.execute(tx);
    if (tables.includes('files')) {
      await sql`insert into files (id, tenant_id, owner_id, parent_id, category, name, name_key, sort_key, is_dir, size,
          created_at, updated_at, deleted_at, deleted_by, trash_root_id)
        ${series} select 'f' || i, 't', 'u' || (i % 10), case when i % 50 = 0 then null when i % 2 = 1 then 'p1' else 'p' || (i % 100) end, 1,
          ${FILE_NAME}, ${FILE_NAME}, cast(1000000 + (i * 7919) % 100003 as text), case when i % 7 = 0 then 1 else 0 end, i, i, i,
          case when i % 10 = 0 then i end, case when i % 10 = 0 then 'u' || (i % 10) end, case when i % 10 = 0 then 'f' || i end
        from n`.execute(tx);
    }
    if (tables.includes('shares')) {
      await sql`insert into shares (id, tenant_id, file_id, owner_id, recipient_type, recipient_id, permission, created_at, updated_at, revoked_at)
        ${series} select 's' || i, 't', 'f' || i, 'u' || (i % 10), case i % 3 when 0 then 'user' when 1 then 'dept' else 'group' end,
          'r' || (i % 1000), 'preview', i, i, case when i % 20 = 0 then i end
        from n`.execute(tx);
    }
    if (tables.includes('file_messages')) {
      await sql`insert into file_messages (id, tenant_id, user_id, type, actor_name, file_name, is_dir, item_count, created_at, read_at)
        ${series} select 'm' || i, 't', 'u' || (i % 1000), 'share', 'a', 'name ' || i, 0, 1, i, case when i % 3 = 0 then i end
        from n`.execute(tx);
    }
    if (tables.includes('action_log')) {
      await sql`insert into action_log (tenant_id, seq, at, actor_id, actor_account, actor_name, actor_role, dept_id, action, targets,
          names_key, outcome, address, network_env, platform, user_agent, prev_hash, hash)
        ${series} select 't' || (i % 5), i, i, 'u' || (i % 1000), 'a', 'n', 'member', 'd' || (i % 50),
          case when i % 50 = 1 then 'file.rename' else 'action.' || (i % 50) end, '[]', 'x',
          case when i % 100 = 0 then 'refused' else 'ok' end, '', 'internal', 'web', '', '', ''
        from n`.execute(tx);
    }
  };
  if (pg) {
    await db.transaction().execute(async (tx) => {
      await sql`set local session_replication_role = replica`.execute(tx);
      await fill(tx);
    });
    for (const table of ['users', ...tables]) await sql`analyze ${sql.table(table)}`.execute(db);
  } else {
    // SQLite's foreign keys are switched per connection, outside a transaction (Kysely's SQLite dialect has one).
    await sql`pragma foreign_keys = off`.execute(db);
    try {
      await db.transaction().execute(fill);
    } finally {
      await sql`pragma foreign_keys = on`.execute(db);
    }
  }
}

/** The file list's parents and columns: each (parent, column) pair walks its own index. */
export const LIST_PARENTS: ReadonlyArray<[label: string, parent: ListParent, indexPrefix: string]> = [
  ['folder', { kind: 'folder', parentId: 'p1' }, 'files_child_'],
  ['category root', { kind: 'root', scope: { tenantId: 't', ownerId: 'u0' }, category: 1 }, 'files_root_'],
];
export const LIST_COLUMNS: ReadonlyArray<[column: SortColumn, indexSuffix: string, cursorValue: string | number]> = [
  ['sort_key', 'sort', 'a'],
  ['size', 'size', 1],
  ['updated_at', 'updated', 1],
];

/** Keyword search: personal entries of one category, personal and spaces, spaces only. */
export const SEARCH_SCOPES: readonly SearchScope[] = [
  { tenantId: 't', ownerId: 'u1', category: 1, spaceIds: [] },
  { tenantId: 't', ownerId: 'u1', category: null, spaceIds: ['a', 'b'] },
  { tenantId: 't', ownerId: null, category: null, spaceIds: ['a'] },
];

/** Action log pages: the filter put on an index, and that index. */
export const ACTION_LOG_PAGES: ReadonlyArray<[label: string, filter: IndexedFilter, index: string]> = [
  ['no filter', { tenantId: 't1' }, 'action_log_time'],
  ['time range', { tenantId: 't1', from: 0, to: 50_000 }, 'action_log_time'],
  ['operator', { tenantId: 't1', actorId: 'u1' }, 'action_log_actor'],
  ['operator + time range', { tenantId: 't1', actorId: 'u1', from: 0, to: 50_000 }, 'action_log_actor'],
  ['action', { tenantId: 't1', action: 'file.rename', from: 0 }, 'action_log_action'],
  ['department', { tenantId: 't1', deptId: 'd1', to: 50_000 }, 'action_log_dept'],
  ['refused', { tenantId: 't1', outcome: 'refused', from: 0, to: 50_000 }, 'action_log_refused'],
];

type Compiled = { sql: string; parameters: readonly unknown[] };

/** 共享文件: one recipient key's inbox walk (shares_inbox), and its walk for one sharer (shares_inbox_sharer). */
export function sharedFilesPages(db: Kysely<Database>, after: { at: number; id: string } | null): Array<[index: string, query: Compiled]> {
  const repo = new ShareRepository(db);
  const base = { excludeOwner: 'u9', after, limit: 101, now: 1 };
  return [
    ['shares_inbox', repo.inboxWalkQuery('t', { type: 'dept', id: 'r1' }, { ...base, sharerId: null }).compile()],
    ['shares_inbox_sharer', repo.inboxWalkQuery('t', { type: 'user', id: 'r0' }, { ...base, sharerId: 'u0' }).compile()],
  ];
}

/** 消息 (file messages): all, unread only, one type; each the user's own index. */
export function messagePages(db: Kysely<Database>, after: { at: number; id: string } | null): Array<[index: string, query: Compiled]> {
  const repo = new FileMessageRepository(db);
  return [
    ['file_messages_user_time', repo.pageQuery('u1', {}, after, 51).compile()],
    ['file_messages_user_unread', repo.pageQuery('u1', { read: false }, after, 51).compile()],
    ['file_messages_user_type', repo.pageQuery('u1', { types: ['share'] }, after, 51).compile()],
  ];
}
