import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { ServerConfig } from '../../server/config';
import { openDatabase, openReadOnlyDatabase } from '../../server/db/database';
import type { MigrateReport } from '../../server/migrate-pg/migrate';
import { ActionLogRepository } from '../../server/repositories/action-log-repository';
import { verifyChains } from '../../server/services/action-log/verify';
import { loadChainKey } from '../../server/storage/chain-key';
import { onPostgres } from '../support/test-database';
import { entries } from './file-kit';
import { ADMIN, Client, loggedInClient, startServer } from './helpers';
import { buildInstallation, copiedSoFar, postgresForTests, runTool, withPg, type Installation } from './migrate-pg-kit';
import { openLink, sharedList } from './sharing-kit';

/**
 * `npm run migrate:pg` on a real installation (the real server on SQLite, driven through its API),
 * into a real PostgreSQL, run as the operator runs it (a child process). Its own cluster: the copy is
 * always SQLite → PostgreSQL, so the file runs in the SQLite stage only.
 */
describe.skipIf(onPostgres())('npm run migrate:pg', () => {
  let pgc: Awaited<ReturnType<typeof postgresForTests>>;
  let inst: Installation;
  /** The target of the completed move (the last test changes the source behind it). */
  let movedTo: string | undefined;

  beforeAll(async () => {
    [pgc, inst] = await Promise.all([postgresForTests(), buildInstallation(80)]);
  });
  afterAll(async () => {
    await pgc?.stop();
    if (inst) await fsp.rm(inst.dataDir, { recursive: true, force: true });
  });

  /** Index and constraint definitions of a database (the tool's own tables left out). */
  const schemaObjects = (url: string): Promise<string[]> =>
    withPg(url, async (c) => {
      const { rows } = await c.query<{ d: string }>(`select indexdef as d from pg_indexes where schemaname = 'public' and tablename not like 'migrate_pg_%'
        union all select conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) from pg_constraint
        where connamespace = 'public'::regnamespace and conrelid::regclass::text not like 'migrate_pg_%' order by 1`);
      return rows.map((r) => r.d);
    });

  const args = (to: string, ...more: string[]): string[] => ['--data-dir', inst.dataDir, '--to', to, ...more];

  it('refuses while a server runs on the data directory, and names the process', async () => {
    const server = await startServer({ dataDir: inst.dataDir, dbUrl: undefined });
    try {
      const to = await pgc.database();
      const { code, stderr } = await (await runTool(args(to))).done;
      expect(code, stderr).toBe(3);
      expect(stderr).toContain(`in use by process ${process.pid}`);
      expect(stderr).toContain('Stop the server');
      expect((await copiedSoFar(to)).tables).toBe(0);
    } finally {
      await server.app.close();
    }
  });

  it('moves the installation: counts, checksums and chains verified; the server on PostgreSQL serves files, logins, shares, links', async () => {
    const to = await pgc.database();
    movedTo = to;
    const { code, stdout, stderr } = await (await runTool(args(to, '--json'))).done;
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as MigrateReport;
    expect(report.ok).toBe(true);
    expect(report.resumed).toBe(false);
    expect(report.tables.filter((t) => !t.ok)).toEqual([]);
    const rows = (name: string): number => report.tables.find((t) => t.table === name)!.targetRows;
    expect(rows('files')).toBeGreaterThan(inst.folders);
    expect(rows('users')).toBeGreaterThanOrEqual(3);
    expect(rows('shares')).toBe(1);
    expect(rows('share_links')).toBe(1);
    expect(rows('action_log')).toBeGreaterThan(inst.folders);
    expect(report.chains.length).toBeGreaterThan(0);
    expect(report.chains.every((c) => c.ok && c.targetRows > 0)).toBe(true);
    expect(report.foreignKeys).toBeGreaterThan(30);
    expect(report.indexes).toBeGreaterThan(40);
    // Every index and constraint the copy dropped is back: the same set as a database the server migrated.
    const fresh = await pgc.database();
    await (await openDatabase({ dataDir: '', dbUrl: fresh, dbPoolSize: 1 } as ServerConfig)).destroy();
    expect(await schemaObjects(to)).toEqual(await schemaObjects(fresh));

    const server = await startServer({ dataDir: inst.dataDir, dbUrl: to });
    try {
      const admin = await loggedInClient(server, ADMIN);
      const inside = await entries(admin, inst.folderId);
      expect(inside.filter((e) => e.isDir)).toHaveLength(inst.folders);
      expect(inside.map((e) => e.name)).toEqual(expect.arrayContaining(['data.bin', '说明.txt']));
      expect(inside.map((e) => e.name)).not.toContain('trash.txt');
      const bytes = Buffer.from(await (await admin.raw(API.downloadPrefix + inst.upload.id)).arrayBuffer());
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(inst.upload.sha256);
      expect(await (await admin.raw(API.downloadPrefix + inst.textFile.id)).text()).toBe(inst.textFile.content);

      const member = await loggedInClient(server, inst.member);
      expect((await sharedList(member)).items.map((i) => i.id)).toEqual([inst.folderId]);
      const opened = await openLink(new Client(server.baseUrl), inst.link.token, inst.link.code);
      expect(opened.root.id).toBe(inst.textFile.id);
    } finally {
      await server.app.close();
    }
    // The chain the migrated server went on writing (logins, link open) still verifies end to end.
    const db = openReadOnlyDatabase(inst.dataDir, to);
    try {
      const key = await loadChainKey(inst.dataDir, undefined, false);
      const chains = await verifyChains(new ActionLogRepository(db, key), key);
      expect(chains.map((c) => c.broken)).toEqual(chains.map(() => null));
      const migrated = report.chains.reduce((n, c) => n + c.targetRows, 0);
      expect(chains.reduce((n, c) => n + c.rows, 0)).toBeGreaterThan(migrated);
    } finally {
      await db.destroy();
    }
  });

  it('a run killed with -9 mid-copy, then one stopped by SIGINT, resume; the end result verifies', async () => {
    const to = await pgc.database();
    const waitFor = async (run: Awaited<ReturnType<typeof runTool>>, atLeast: number): Promise<void> => {
      while ((await copiedSoFar(to)).copied < atLeast) {
        if (run.child.exitCode !== null) throw new Error(`finished before it was interrupted:\n${(await run.done).stderr}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    // One row a batch: every row its own transaction, so the copy outlasts the test's reaction by far.
    const first = await runTool(args(to, '--batch-size', '1'));
    await waitFor(first, 20);
    first.child.kill('SIGKILL');
    expect((await first.done).code).toBe(null);
    const afterKill = await copiedSoFar(to);
    expect(afterKill.tablesDone).toBeLessThan(afterKill.tables);
    // A server started on the half-filled database refuses, naming the command to finish.
    await expect(startServer({ dataDir: inst.dataDir, dbUrl: to })).rejects.toThrow(/being filled by npm run migrate:pg .* never verified/);

    const second = await runTool(args(to, '--batch-size', '1'));
    await waitFor(second, afterKill.copied + 20);
    second.child.kill('SIGINT');
    const stopped = await second.done;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toContain('resuming the interrupted run');
    expect(stopped.stderr).toContain('run the same command again to resume');
    const afterInt = await copiedSoFar(to);
    expect(afterInt.copied).toBeGreaterThan(afterKill.copied);
    expect(afterInt.tablesDone).toBeLessThan(afterInt.tables);

    const last = await (await runTool(args(to, '--json'))).done;
    expect(last.code, last.stderr).toBe(0);
    const report = JSON.parse(last.stdout) as MigrateReport;
    expect(report.resumed).toBe(true);
    expect(report.ok).toBe(true);
    const total = report.tables.reduce((n, t) => n + t.sourceRows, 0);
    expect(report.copiedRows).toBe(total - afterInt.copied);
    expect(report.tables.filter((t) => !t.ok)).toEqual([]);
  });

  it('refuses a target that holds other data, and an interrupted or finished move whose source changed since', async () => {
    const foreign = await pgc.database();
    await withPg(foreign, (c) => c.query(`create table notes (id integer primary key, body text); insert into notes values (1, 'keep me')`));
    const refused = await (await runTool(args(foreign))).done;
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toContain('target database is not empty (notes 1)');
    expect((await withPg(foreign, (c) => c.query('select body from notes'))).rows).toEqual([{ body: 'keep me' }]);

    const interrupted = await pgc.database();
    const first = await runTool(args(interrupted, '--batch-size', '1'));
    while ((await copiedSoFar(interrupted)).copied < 5) await new Promise((r) => setTimeout(r, 10));
    first.child.kill('SIGKILL');
    await first.done;
    // The operator starts the old server again: a login writes sessions and log rows.
    const server = await startServer({ dataDir: inst.dataDir, dbUrl: undefined });
    await loggedInClient(server, ADMIN);
    await server.app.close();
    const changed = await (await runTool(args(interrupted))).done;
    expect(changed.code, changed.stderr).toBe(3);
    expect(changed.stderr).toContain('no longer match');
    const diverged = await (await runTool(args(movedTo!))).done;
    expect(diverged.code, diverged.stderr).toBe(3);
    expect(diverged.stderr).toContain('the two databases have diverged');
  });
});
