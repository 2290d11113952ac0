import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../server/config';
import { openDatabase } from '../../server/db/database';
import type { Database } from '../../server/db/schema';
import { ApplicationRepository } from '../../server/repositories/application-repository';
import { LinkRepository } from '../../server/repositories/link-repository';
import { ShareRepository } from '../../server/repositories/share-repository';
import { onPostgres } from '../support/test-database';

/**
 * The sharing lists are index walks (EXPLAIN QUERY PLAN of the real repository queries): 共享文件 walks
 * shares_inbox (or shares_inbox_sharer for one sharer) newest first with the cursor as a row-value
 * seek and the entry and its sharer looked up by key; 我的分享, 我的申请 and 审批 walk their own
 * indexes. No temp B-tree sorts anywhere.
 */
let dir: string;
let db: Kysely<Database>;
let raw: SQLite.Database;
beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'share-plans-'));
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

const after = { at: 1, id: 'x' };

// SQLite's planner (the PostgreSQL stage checks PostgreSQL's: postgres-plans.test.ts).
describe.skipIf(onPostgres())('sharing query plans (SQLite)', () => {
  it('共享文件: one walk of shares_inbox per recipient key, newest first, cursor seek, entry and sharer by key', () => {
    const repo = new ShareRepository(db);
    for (const cursor of [null, after]) {
      const p = plan(repo.inboxWalkQuery('t', { type: 'dept', id: 'd' }, { excludeOwner: 'u', sharerId: null, after: cursor, limit: 101, now: 1 }).compile());
      expect(p).toContain('USING INDEX shares_inbox (tenant_id=? AND recipient_type=? AND recipient_id=?');
      if (cursor) expect(p).toContain('(created_at,id)<(?,?)');
      expect(p).toMatch(/SEARCH f USING INDEX sqlite_autoindex_files_1 \(id=\?\)|SEARCH f USING INTEGER PRIMARY KEY|SEARCH f USING INDEX .*\(id=\?\)/);
      expect(p).not.toContain('TEMP B-TREE');
      const bySharer = plan(repo.inboxWalkQuery('t', { type: 'user', id: 'u2' }, { excludeOwner: 'u', sharerId: 'o', after: cursor, limit: 101, now: 1 }).compile());
      expect(bySharer).toContain('USING INDEX shares_inbox_sharer (tenant_id=? AND recipient_type=? AND recipient_id=? AND owner_id=?');
      expect(bySharer).not.toContain('TEMP B-TREE');
    }
  });

  it('共享文件 sharer counts: one index range per recipient key, never every share of the tenant; the owner by key', () => {
    const repo = new ShareRepository(db);
    const keys = [
      { type: 'user' as const, id: 'u2' },
      { type: 'dept' as const, id: 'd1' },
      { type: 'dept' as const, id: 'd0' },
    ];
    const p = plan(repo.sharersQuery('t', keys, 'u2', 1)!.compile());
    expect(p.match(/SEARCH s USING INDEX shares_inbox\w* \(tenant_id=\? AND recipient_type=\? AND recipient_id=\?/g)).toHaveLength(3);
    expect(p).not.toContain('shares_owner');
    expect(p).not.toMatch(/SCAN (s|o)\b/);
    expect(p).toMatch(/SEARCH o USING (COVERING )?INDEX sqlite_autoindex_users_1 \(id=\?\)/);
  });

  it('我的分享 (shares and links), 我的申请, 审批 (waiting and decided): their own index, no sort', () => {
    const shares = new ShareRepository(db);
    const links = new LinkRepository(db);
    const apps = new ApplicationRepository(db);
    for (const cursor of [null, after]) {
      const cases: Array<[string, { sql: string; parameters: readonly unknown[] }]> = [
        ['shares_owner', shares.mineQuery('t', 'o', cursor, 101).compile()],
        ['share_links_owner', links.mineQuery('t', 'o', cursor, 101).compile()],
        ['applications_applicant', apps.mineQuery('t', 'a', cursor, 101).compile()],
        ['applications_approver', apps.pendingForQuery('t', 'a', cursor, 101).compile()],
        ['application_steps_actor', apps.decidedByQuery('t', 'a', cursor, 101).compile()],
      ];
      for (const [index, compiled] of cases) {
        const p = plan(compiled);
        expect(p, index).toContain(`USING INDEX ${index}`);
        expect(p, index).not.toContain('TEMP B-TREE');
        if (cursor) expect(p, index).toMatch(/\((created_at|at),id\)<\(\?,\?\)/);
      }
    }
  });
});
