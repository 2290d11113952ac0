import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/schema';
import { FileRepository } from '../../server/repositories/file-repository';
import { SearchRepository } from '../../server/repositories/search-repository';
import { TreeRepository } from '../../server/repositories/tree-repository';
import { onPostgres } from '../support/test-database';
import { fillPlanData, LIST_COLUMNS, LIST_PARENTS, messagePages, openPlanDatabase, SEARCH_SCOPES, type PlanDatabase } from './plan-kit';

/**
 * The listing of a 100k-entry folder must be an index walk: EXPLAIN QUERY PLAN of the real
 * repository queries (compiled by Kysely) names the partial index, seeks with the cursor as a
 * row-value range, and never builds a temp B-tree to sort. SQLite's own plans (postgres-plans.test.ts
 * holds PostgreSQL's rule for the same queries on the same data, plan-kit.ts).
 */
let plans: PlanDatabase;
let db: Kysely<Database>;
let raw: SQLite.Database;
beforeAll(async () => {
  plans = await openPlanDatabase('plans-');
  db = plans.db;
  await fillPlanData(db, ['files', 'file_messages']);
  raw = new SQLite(path.join(plans.dir, 'drive.sqlite'));
}, 120_000);
afterAll(async () => {
  raw?.close();
  await plans?.close();
});

function plan(compiled: { sql: string; parameters: readonly unknown[] }): string {
  return (raw.prepare(`explain query plan ${compiled.sql}`).all(...compiled.parameters) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
}

describe.skipIf(onPostgres())('query plans (SQLite) at 100k rows', () => {
  for (const [label, parent, prefix] of LIST_PARENTS) {
    for (const [column, suffix, value] of LIST_COLUMNS) {
      for (const descending of [false, true]) {
        it(`${label}, ${column} ${descending ? 'desc' : 'asc'}: index ${prefix}${suffix}, cursor seek, no sort`, () => {
          const repo = new FileRepository(db);
          for (const isDir of [0, 1] as const) {
            // As the folder list asks it: each row's favorite mark read by the same statement.
            const q = { parent, column, descending, after: null, limit: 101, favoritesOf: 'u1' };
            const first = plan(repo.listQuery(q, isDir, null).compile());
            expect(first).toContain(`USING INDEX ${prefix}${suffix}`);
            expect(first).not.toContain('TEMP B-TREE');
            // The favorite mark is one seek of the favorites' primary key per row.
            expect(first).toMatch(/SEARCH favorites USING (COVERING )?INDEX \S+ \(user_id=\? AND file_id=\?\)/);
            const next = plan(repo.listQuery(q, isDir, { isDir, value, id: 'x' }).compile());
            expect(next).toContain(`(${column},id)${descending ? '<' : '>'}(?,?)`);
            expect(next).not.toContain('TEMP B-TREE');
          }
        });
      }
    }
  }

  it('recycle bin pages: index files_trash, cursor seek, no sort', () => {
    const tree = new TreeRepository(db);
    for (const after of [null, { deletedAt: 1, id: 'x' }]) {
      const p = plan(tree.trashPageQuery('t', 'u1', after, 101).compile());
      expect(p).toContain('USING INDEX files_trash (deleted_by=?');
      expect(p).not.toContain('TEMP B-TREE');
    }
  });

  it('keyword search walks files_search in name order (stops after a page), no sort', () => {
    const search = new SearchRepository(db);
    for (const scope of SEARCH_SCOPES) {
      for (const after of [null, { key: 'k', id: 'x' }]) {
        const p = plan(search.searchQuery(scope, 'abc', after, 101).compile());
        expect(p, JSON.stringify(scope)).toContain('USING INDEX files_search (tenant_id=?');
        expect(p).not.toContain('TEMP B-TREE');
      }
    }
  });

  it('message pages (all, unread, one type): the user’s own index, cursor seek, no sort', () => {
    for (const after of [null, { at: 1, id: 'x' }]) {
      for (const [index, compiled] of messagePages(db, after)) {
        const p = plan(compiled);
        expect(p, index).toContain(`USING INDEX ${index} (user_id=?`);
        expect(p, index).not.toContain('TEMP B-TREE');
      }
    }
  });
});
