/**
 * The page queries read their index on PostgreSQL too (what query-plans.test.ts, sharing-plans and
 * action-log-plans check with SQLite's EXPLAIN QUERY PLAN): with 100k rows in each big table (the
 * builder of plan-kit.ts) and fresh statistics, EXPLAIN of the real repository queries (compiled by
 * Kysely). Runs on PostgreSQL only (the PostgreSQL stage of `npm test`).
 *
 * PostgreSQL's rule is not SQLite's "the index's order, no sort": its planner weighs fetching rows in
 * index order against a top-N sort of the rows one index range found, and with ~1,000 rows per folder
 * or operator scattered over the heap it sorts them, which costs less. What must hold is what makes a
 * page cost the size of its range and not of the table:
 *  - the page reads its intended index with an index condition (Index Scan, Index Only Scan or
 *    Bitmap Index Scan), so only the range the page's filter names is read;
 *  - no Seq Scan of a big table (files, shares, file_messages, action_log);
 *  - a Sort, if any, sorts rows from that index range (the index scan is below it).
 * Each also as a generic plan (the plan PostgreSQL may keep for a named prepared statement, whatever
 * the values: server/db/pg-prepared.ts), unless the query is marked planEachTime (recycle bin and
 * keyword search, whose generic plans read far more than their values' plans).
 * Keyword search (`name_key like '%…%'`) has no btree to seek: it reads the GIN trigram index on
 * name_key (files_name_trgm, migration 0086, PostgreSQL only) and sorts its matches; a keyword of one
 * or two characters has no trigram and reads the GIN index of the name's characters and pairs
 * instead (files_name_grams, migration 0089), and so does a longer one with Chinese, by its pairs
 * (pg_trgm finds no trigram in Chinese under LC_CTYPE C: the last suite runs on such a database).
 */
import { type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_EACH_TIME } from '../../server/db/pg-prepared';
import type { Database } from '../../server/db/schema';
import { ActionLogRepository } from '../../server/repositories/action-log-repository';
import { FileRepository } from '../../server/repositories/file-repository';
import { SearchRepository } from '../../server/repositories/search-repository';
import { TreeRepository } from '../../server/repositories/tree-repository';
import { onPostgres } from '../support/test-database';
import { ACTION_LOG_PAGES, fillPlanData, LIST_COLUMNS, LIST_PARENTS, messagePages, openPlanDatabase, SEARCH_SCOPES, sharedFilesPages, type BigTable, type PlanDatabase } from './plan-kit';

const BIG_TABLES: readonly BigTable[] = ['files', 'shares', 'file_messages', 'action_log'];
/** Keywords of 3+ characters with Chinese: 3, 4 and 6 characters, one the plan data holds (合同 name…), one mixed. */
const CHINESE_KEYWORDS = ['会议纪', '年度报告', '年度报告汇总', '合同 n', 'q3总结'];

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

let plans: PlanDatabase;
let db: Kysely<Database>;

type Compiled = { sql: string; parameters: readonly unknown[] };
type Explained = { 'QUERY PLAN': Array<{ Plan: PlanNode }> };
const raw = (text: string, parameters: readonly unknown[] = []) => ({
  sql: text,
  parameters,
  query: { kind: 'RawNode', sqlFragments: [], parameters: [] } as never,
  queryId: { queryId: 'explain' } as never,
});

/** The plan PostgreSQL makes for these values (a custom plan, as for an unnamed statement). */
async function explain(compiled: Compiled, on: Kysely<Database> = db): Promise<PlanNode> {
  const { rows } = await on.executeQuery<Explained>(raw(`explain (format json) ${compiled.sql}`, compiled.parameters));
  return rows[0]!['QUERY PLAN'][0]!.Plan;
}

/**
 * The generic plan of the query as a named prepared statement (server/db/pg-prepared.ts), which
 * PostgreSQL may keep for every later execution whatever the values (plan_cache_mode auto chooses it
 * once it costs no more than the custom plans; force_generic_plan shows it).
 */
async function explainGeneric(compiled: Compiled): Promise<PlanNode> {
  return db.connection().execute(async (conn) => {
    await conn.executeQuery(raw('set plan_cache_mode = force_generic_plan'));
    await conn.executeQuery(raw(`prepare plan_probe as ${compiled.sql}`));
    try {
      // EXECUTE's arguments are written as literals (a utility statement takes no bound parameters);
      // force_generic_plan ignores their values anyway.
      const args = compiled.parameters.map((v) => (v === null ? 'null' : typeof v === 'number' ? String(v) : pg.escapeLiteral(String(v)))).join(', ');
      const { rows } = await conn.executeQuery<Explained>(raw(`explain (format json) execute plan_probe${args ? `(${args})` : ''}`));
      return rows[0]!['QUERY PLAN'][0]!.Plan;
    } finally {
      await conn.executeQuery(raw('deallocate plan_probe'));
      await conn.executeQuery(raw('reset plan_cache_mode'));
    }
  });
}

const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];
const INDEX_READS = new Set(['Index Scan', 'Index Only Scan', 'Bitmap Index Scan']);
const readsIndex = (n: PlanNode, index: string) => INDEX_READS.has(n['Node Type']) && n['Index Name'] === index && Boolean(n['Index Cond']);
const brief = (n: PlanNode): string =>
  `${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}${n.Plans ? ` (${n.Plans.map(brief).join(', ')})` : ''}`;

/** PostgreSQL's rule for a page query (see the header), for the values' plan and the generic one. */
async function expectPageReads(index: string, compiled: Compiled, on: Kysely<Database> = db): Promise<void> {
  await expectPlanReads(index, await explain(compiled, on), 'custom plan');
  // A query marked planEachTime never runs as a named statement, so never with a generic plan.
  if (!compiled.sql.endsWith(PLAN_EACH_TIME)) await expectPlanReads(index, await explainGeneric(compiled), 'generic plan');
}

async function expectPlanReads(index: string, root: PlanNode, kind: string): Promise<void> {
  const shown = `${kind}: ${brief(root)}`;
  const nodes = nodesOf(root);
  expect(nodes.some((n) => readsIndex(n, index)), `reads ${index} with an index condition: ${shown}`).toBe(true);
  const seqScans = nodes.filter((n) => n['Node Type'] === 'Seq Scan' && BIG_TABLES.includes(n['Relation Name'] as BigTable));
  expect(seqScans.map(brief), `no Seq Scan of a big table: ${shown}`).toEqual([]);
  for (const sort of nodes.filter((n) => /Sort/.test(n['Node Type']))) {
    expect(nodesOf(sort).some((n) => readsIndex(n, index)), `the sort sorts ${index}'s range: ${shown}`).toBe(true);
  }
}

describe.skipIf(!onPostgres())('PostgreSQL query plans at 100k rows', () => {
  beforeAll(async () => {
    plans = await openPlanDatabase('pg-plans-');
    db = plans.db;
    await fillPlanData(db, BIG_TABLES);
  }, 120_000);
  afterAll(() => plans?.close());

  for (const [label, parent, prefix] of LIST_PARENTS) {
    for (const [column, suffix, value] of LIST_COLUMNS) {
      for (const descending of [false, true]) {
        it(`file list, ${label}, ${column} ${descending ? 'desc' : 'asc'}: reads ${prefix}${suffix}`, async () => {
          const repo = new FileRepository(db);
          for (const isDir of [0, 1] as const) {
            for (const after of [null, { isDir, value, id: 'x' }]) {
              await expectPageReads(`${prefix}${suffix}`, repo.listQuery({ parent, column, descending, after: null, limit: 101, favoritesOf: 'u1' }, isDir, after).compile());
            }
          }
        });
      }
    }
  }

  it('recycle bin pages: read files_trash', async () => {
    const tree = new TreeRepository(db);
    for (const after of [null, { deletedAt: 1, id: 'x' }]) await expectPageReads('files_trash', tree.trashPageQuery('t', 'u1', after, 101).compile());
  });

  it('keyword search (3 ASCII characters or more): reads the trigram index files_name_trgm, sorts only its matches', async () => {
    const search = new SearchRepository(db);
    for (const scope of SEARCH_SCOPES) {
      for (const keyword of ['abc', 'name 4711', 'Name 4711']) {
        for (const after of [null, { key: '1050000', id: 'x' }]) await expectPageReads('files_name_trgm', search.searchQuery(scope, keyword, after, 101).compile());
      }
    }
  });

  it('keyword search of 1 or 2 characters (合同, 图…): reads files_name_grams (no trigram to look up), sorts only its matches', async () => {
    const search = new SearchRepository(db);
    for (const scope of SEARCH_SCOPES) {
      for (const keyword of ['合同', '报告', '图', '合', '47', '😀']) {
        for (const after of [null, { key: '1050000', id: 'x' }]) await expectPageReads('files_name_grams', search.searchQuery(scope, keyword, after, 101).compile());
      }
    }
  });

  it('keyword search of 3+ characters with Chinese (会议纪, 年度报告, 合同 n…): reads files_name_grams by the keyword’s pairs', async () => {
    const search = new SearchRepository(db);
    for (const scope of SEARCH_SCOPES) {
      for (const keyword of CHINESE_KEYWORDS) {
        for (const after of [null, { key: '1050000', id: 'x' }]) await expectPageReads('files_name_grams', search.searchQuery(scope, keyword, after, 101).compile());
      }
    }
  });

  it('共享文件 pages: read shares_inbox (shares_inbox_sharer for one sharer)', async () => {
    for (const after of [null, { at: 90_000, id: 'x' }]) {
      for (const [index, compiled] of sharedFilesPages(db, after)) await expectPageReads(index, compiled);
    }
  });

  it('message pages (all, unread, one type): read the user’s own index', async () => {
    for (const after of [null, { at: 90_000, id: 'x' }]) {
      for (const [index, compiled] of messagePages(db, after)) await expectPageReads(index, compiled);
    }
  });

  for (const [label, filter, index] of ACTION_LOG_PAGES) {
    it(`action log page, ${label}: reads ${index}`, async () => {
      const repo = new ActionLogRepository(db, Buffer.alloc(32));
      for (const after of [null, { at: 90_000, seq: 90_000 }]) await expectPageReads(index, repo.pageQuery(filter, after, 51).compile());
    });
  }
});

/**
 * Under LC_CTYPE "C" (initdb's choice when the system's locale is C or POSIX, as in many containers)
 * pg_trgm takes no CJK character for a word character: 年度报告 has no trigram, so the trigram index
 * cannot serve a Chinese keyword of any length. Such keywords read files_name_grams by their pairs of
 * adjacent characters, which do not depend on the locale; ASCII keywords keep their trigrams.
 */
describe.skipIf(!onPostgres())('PostgreSQL keyword search under LC_CTYPE C at 100k rows', () => {
  let cPlans: PlanDatabase;
  beforeAll(async () => {
    cPlans = await openPlanDatabase('pg-plans-c-', { ctype: 'C' });
    await fillPlanData(cPlans.db, ['files']);
  }, 120_000);
  afterAll(() => cPlans?.close());

  it('pg_trgm extracts no trigram from Chinese here (what this suite is about)', async () => {
    const { rows } = await cPlans.db.executeQuery<{ ctype: string; trigrams: string[] }>(raw(`select current_setting('lc_ctype') as ctype, show_trgm('年度报告') as trigrams`));
    expect(rows[0]).toEqual({ ctype: 'C', trigrams: [] });
  });

  it('Chinese keywords of 3, 4 and 6 characters (and mixed with ASCII): read files_name_grams, no Seq Scan', async () => {
    const search = new SearchRepository(cPlans.db);
    for (const scope of SEARCH_SCOPES) {
      for (const keyword of CHINESE_KEYWORDS) {
        for (const after of [null, { key: '1050000', id: 'x' }]) await expectPageReads('files_name_grams', search.searchQuery(scope, keyword, after, 101).compile(), cPlans.db);
      }
    }
  });

  it('ASCII keywords of 3+ characters still read the trigram index; 1–2 characters files_name_grams', async () => {
    const search = new SearchRepository(cPlans.db);
    for (const scope of SEARCH_SCOPES) {
      for (const keyword of ['abc', 'name 4711']) await expectPageReads('files_name_trgm', search.searchQuery(scope, keyword, null, 101).compile(), cPlans.db);
      for (const keyword of ['合同', '图']) await expectPageReads('files_name_grams', search.searchQuery(scope, keyword, null, 101).compile(), cPlans.db);
    }
  });
});
