import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../server/config';
import { openDatabase } from '../../server/db/database';
import type { Database } from '../../server/db/schema';
import { FileRepository, type ListParent, type SortColumn } from '../../server/repositories/file-repository';
import { SearchRepository } from '../../server/repositories/search-repository';
import { TreeRepository } from '../../server/repositories/tree-repository';

/**
 * The listing of a 100k-entry folder must be an index walk: EXPLAIN QUERY PLAN of the real
 * repository queries (compiled by Kysely) names the partial index, seeks with the cursor as a
 * row-value range, and never builds a temp B-tree to sort.
 */
let dir: string;
let db: Kysely<Database>;
let raw: SQLite.Database;
beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'plans-'));
  db = await openDatabase({ dataDir: dir } as ServerConfig);
  raw = new SQLite(path.join(dir, 'drive.sqlite'));
});
afterAll(async () => {
  raw.close();
  await db.destroy();
  await fsp.rm(dir, { recursive: true, force: true });
});

function plan(compiled: { sql: string; parameters: readonly unknown[] }): string {
  return (raw.prepare(`explain query plan ${compiled.sql}`).all(...compiled.parameters) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
}

describe('query plans', () => {
  const parents: Array<[string, ListParent, string]> = [
    ['folder', { kind: 'folder', parentId: 'p' }, 'files_child_'],
    ['category root', { kind: 'root', scope: { tenantId: 't', ownerId: 'o' }, category: 1 }, 'files_root_'],
  ];
  const columns: Array<[SortColumn, string, string | number]> = [
    ['sort_key', 'sort', 'a'],
    ['size', 'size', 1],
    ['updated_at', 'updated', 1],
  ];
  for (const [label, parent, prefix] of parents) {
    for (const [column, suffix, value] of columns) {
      for (const descending of [false, true]) {
        it(`${label}, ${column} ${descending ? 'desc' : 'asc'}: index ${prefix}${suffix}, cursor seek, no sort`, () => {
          const repo = new FileRepository(db);
          for (const isDir of [0, 1] as const) {
            const first = plan(repo.listQuery({ parent, column, descending, after: null, limit: 101 }, isDir, null).compile());
            expect(first).toContain(`USING INDEX ${prefix}${suffix}`);
            expect(first).not.toContain('TEMP B-TREE');
            const next = plan(repo.listQuery({ parent, column, descending, after: null, limit: 101 }, isDir, { isDir, value, id: 'x' }).compile());
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
      const p = plan(tree.trashPageQuery('t', 'u', after, 101).compile());
      expect(p).toContain('USING INDEX files_trash (deleted_by=?');
      expect(p).not.toContain('TEMP B-TREE');
    }
  });

  it('keyword search walks files_search in name order (stops after a page), no sort', () => {
    const search = new SearchRepository(db);
    const scopes = [
      { tenantId: 't', ownerId: 'o', category: 1, spaceIds: [] },
      { tenantId: 't', ownerId: 'o', category: null, spaceIds: ['a', 'b'] },
      { tenantId: 't', ownerId: null, category: null, spaceIds: ['a'] },
    ];
    for (const scope of scopes) {
      for (const after of [null, { key: 'k', id: 'x' }]) {
        const p = plan(search.searchQuery(scope, 'abc', after, 101).compile());
        expect(p, JSON.stringify(scope)).toContain('USING INDEX files_search (tenant_id=?');
        expect(p).not.toContain('TEMP B-TREE');
      }
    }
  });
});
