import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_NETWORK_ENV, HEADER_PLATFORM } from '../../common/api/client-env';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { FileEntry } from '../../common/api/types';
import type { ActionLogHeadsTable } from '../../server/db/schema';
import { canonicalForm, chainHash, headMac } from '../../server/services/action-log/chain';
import { loadChainKey } from '../../server/storage/chain-key';
import { testDbUrl } from '../support/test-database';
import { expectChainsHold, logRows, oneRowOf, rowsOf, verifyServer, type LogRow } from './action-log-kit';
import {
  addTenantWithUser,
  ADMIN,
  Client,
  liftPasswordGate,
  loggedInClient,
  login,
  MEMBER,
  startServer,
  userIdOf,
  withDb,
  type TestServer,
} from './helpers';

const DAY = 24 * 3600 * 1000;
const run = promisify(execFile);

let server: TestServer;
let admin: Client;
let member: Client;
let tenantId: string;

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  await liftPasswordGate(server, MEMBER.username);
  member = await loggedInClient(server, MEMBER);
  tenantId = await withDb(server, (db) => (db.prepare("select tenant_id from users where username = 'admin'").get() as { tenant_id: string }).tenant_id);
});
afterAll(async () => {
  await server.close();
});

describe('what the action log records', () => {
  it('a login: who, tenant, from where (address, client type, network, platform, user agent), when, outcome', async () => {
    const headers = { [HEADER_NETWORK_ENV]: 'public', [HEADER_PLATFORM]: 'desktop', 'user-agent': 'AuditTest/1.0 (desktop)' };
    const before = Date.now();
    const row = await oneRowOf(server, () => login(server, new Client(server.baseUrl), ADMIN, headers), 'login');
    expect(row).toMatchObject({
      tenant_id: tenantId,
      action: 'auth.login',
      outcome: 'ok',
      error_code: null,
      actor_account: 'admin',
      actor_name: '管理员',
      actor_role: 'admin',
      address: '127.0.0.1',
      client_type: 4,
      network_env: 'public',
      platform: 'desktop',
      user_agent: 'AuditTest/1.0 (desktop)',
    });
    expect(row.actor_id).toBe(await userIdOf(server, 'admin'));
    expect(row.at).toBeGreaterThanOrEqual(before);
    expect(row.at).toBeLessThanOrEqual(Date.now());
  });

  it('a failed login is refused with its code; an unknown account goes to the platform chain as typed', async () => {
    const wrong = await oneRowOf(server, () => login(server, new Client(server.baseUrl), { username: 'admin', password: 'Wrong@2024' }));
    expect(wrong).toMatchObject({ tenant_id: tenantId, action: 'auth.login', outcome: 'refused', error_code: ERRORS.LOGIN_FAILED.code, actor_account: 'admin' });
    const unknown = await oneRowOf(server, () => login(server, new Client(server.baseUrl), { username: 'nobody-here', password: 'Wrong@2024' }));
    expect(unknown).toMatchObject({ tenant_id: '', action: 'auth.login', outcome: 'refused', error_code: ERRORS.LOGIN_FAILED.code, actor_account: 'nobody-here', actor_id: null });
  });

  it('logout is one row; a logout without a session is none', async () => {
    const client = await loggedInClient(server, ADMIN);
    const row = await oneRowOf(server, () => client.post(API.logout, {}));
    expect(row).toMatchObject({ action: 'auth.logout', outcome: 'ok', actor_account: 'admin' });
    expect(await rowsOf(server, () => new Client(server.baseUrl).post(API.logout, {}))).toEqual([]);
  });

  it('file actions carry the names at that time and what changed', async () => {
    let folder: FileEntry | undefined;
    const mk = await oneRowOf(server, async () => {
      folder = (await admin.post<{ data: FileEntry }>(API.mkdir, { parentId: null, category: 1, name: '审计目录' })).body.data;
    });
    expect(mk).toMatchObject({ action: 'file.mkdir', outcome: 'ok' });
    expect(mk.parsedTargets).toEqual([{ type: 'folder', id: folder!.id, name: '审计目录' }]);
    const rn = await oneRowOf(server, () => admin.post(API.rename, { id: folder!.id, name: '审计目录-改' }));
    expect(rn.parsedTargets).toEqual([{ type: 'folder', id: folder!.id, name: '审计目录' }]);
    expect(rn.parsedDetail).toEqual({ from: '审计目录', to: '审计目录-改' });
    expect(rn.names_key).toBe('审计目录');
    const rm = await oneRowOf(server, () => admin.post(API.removeFiles, { ids: [folder!.id] }));
    expect(rm).toMatchObject({ action: 'file.delete', outcome: 'ok' });
    expect(rm.parsedTargets).toEqual([{ type: 'folder', id: folder!.id, name: '审计目录-改' }]);
  });

  it('a refused action is recorded with the code the caller got, also when the guard refused it', async () => {
    const clash = await admin.post<{ data: FileEntry }>(API.mkdir, { parentId: null, category: 1, name: 'dup' });
    expect(clash.status).toBe(200);
    const again = await oneRowOf(server, () => admin.post(API.mkdir, { parentId: null, category: 1, name: 'dup' }));
    expect(again).toMatchObject({ action: 'file.mkdir', outcome: 'refused', error_code: ERRORS.NAME_CONFLICT.code });
    const memberId = await userIdOf(server, 'member');
    const tenantAdminId = await userIdOf(server, 'admin');
    const forbidden = await oneRowOf(server, () => member.post(API.setRoles, { userId: memberId, roles: ['admin'] }));
    expect(forbidden).toMatchObject({ action: 'user.setRole', outcome: 'refused', error_code: ERRORS.FORBIDDEN.code, actor_account: 'member' });
    // The guard refuses before the body is read: the route says what was tried.
    expect(forbidden.parsedDetail).toEqual({ route: `POST ${API.setRoles}` });
    const lockSelf = await oneRowOf(server, () => admin.post(API.accountLock, { userId: tenantAdminId }));
    expect(lockSelf).toMatchObject({ action: 'user.lock', outcome: 'refused', error_code: ERRORS.CANNOT_LOCK_SELF.code });
    expect(lockSelf.parsedTargets).toEqual([{ type: 'user', id: tenantAdminId, name: '管理员（admin）' }]);
  });

  it("another tenant's ids: the 404 is recorded as denied access in the prober's tenant; anonymous calls leave nothing", async () => {
    const folder = (await admin.post<{ data: FileEntry }>(API.mkdir, { parentId: null, category: 1, name: 'private' })).body.data;
    await addTenantWithUser(server, 'prober', 'Prober@2024');
    const prober = await loggedInClient(server, { username: 'prober', password: 'Prober@2024' });
    const proberTenant = await withDb(server, (db) => (db.prepare("select tenant_id from users where username = 'prober'").get() as { tenant_id: string }).tenant_id);
    const row = await oneRowOf(server, () => prober.post(API.fileList, { parentId: folder.id, category: 1 }));
    expect(row).toMatchObject({ tenant_id: proberTenant, action: 'access.denied', outcome: 'refused', error_code: ERRORS.NOT_FOUND.code, actor_account: 'prober' });
    expect(row.parsedTargets.map((t) => t.id)).toEqual([folder.id]);
    expect(row.parsedDetail).toEqual({ route: `POST ${API.fileList}` });
    expect(await rowsOf(server, () => new Client(server.baseUrl).post(API.mkdir, { parentId: null, category: 1, name: 'x' }))).toEqual([]);
    // Reads that succeed are not actions.
    expect(await rowsOf(server, () => admin.post(API.fileList, { parentId: null, category: 1 }))).toEqual([]);
  });
});

describe('the hash chain', () => {
  it('holds: every row links to the previous row of its tenant, seq without gaps', async () => {
    await expectChainsHold(server);
    const rows = (await logRows(server)).filter((r) => r.tenant_id === tenantId);
    expect(rows.length).toBeGreaterThan(5);
    rows.forEach((r, i) => {
      expect(r.seq).toBe(i + 1);
      if (i > 0) expect(r.prev_hash).toBe(rows[i - 1]!.hash);
    });
    expect(canonicalForm(rows[0]!)).toMatch(/^\["v1",/);
  });

  it('finds an edited row, even one re-hashed without the key', async () => {
    const target = (await logRows(server)).find((r) => r.tenant_id === tenantId && r.action === 'file.rename')!;
    const set = (names: string, hash: string) =>
      withDb(server, (db) => db.prepare('update action_log set names_key = ?, hash = ? where tenant_id = ? and seq = ?').run(names, hash, tenantId, target.seq));
    await set('something else', target.hash);
    let broken = (await verifyServer(server)).find((r) => r.tenantId === tenantId)!.broken;
    expect(broken).toMatchObject({ seq: target.seq, reason: 'edited' });
    // A forger without the key computes the hash with another one: still caught.
    await set('something else', chainHash(Buffer.alloc(32, 7), { ...target, names_key: 'something else' }));
    broken = (await verifyServer(server)).find((r) => r.tenantId === tenantId)!.broken;
    expect(broken).toMatchObject({ seq: target.seq, reason: 'edited' });
    await set(target.names_key, target.hash);
    await expectChainsHold(server);
  });

  it('finds a deleted row (in the middle and at the end)', async () => {
    const rows = (await logRows(server)).filter((r) => r.tenant_id === tenantId);
    const middle = rows[2]!;
    const last = rows[rows.length - 1]!;
    const columns = Object.keys(middle).filter((k) => !k.startsWith('parsed'));
    const reinsert = (row: LogRow) =>
      withDb(server, (db) => db.prepare(`insert into action_log (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`).run(...columns.map((c) => (row as unknown as Record<string, unknown>)[c])));
    const remove = (seq: number) => withDb(server, (db) => db.prepare('delete from action_log where tenant_id = ? and seq = ?').run(tenantId, seq));

    await remove(middle.seq);
    expect((await verifyServer(server)).find((r) => r.tenantId === tenantId)!.broken).toMatchObject({ seq: middle.seq, reason: 'missing' });
    await reinsert(middle);
    await remove(last.seq);
    expect((await verifyServer(server)).find((r) => r.tenantId === tenantId)!.broken).toMatchObject({ seq: last.seq, reason: 'tail' });
    await reinsert(last);
    await expectChainsHold(server);
  });

  it('`npm run audit:verify -- --data-dir D` exits 0 when every chain holds and 1 naming the first broken link', async () => {
    const script = path.resolve('server/audit-verify.ts');
    const env = { ...process.env, DB_URL: (await testDbUrl(server.dataDir)) ?? '' };
    const ok = await run(process.execPath, ['--import', 'tsx', script, '--data-dir', server.dataDir], { env });
    expect(ok.stdout).toContain(`ok      tenant ${tenantId}`);
    const victim = (await logRows(server)).find((r) => r.tenant_id === tenantId && r.action === 'file.mkdir')!;
    await withDb(server, (db) => db.prepare("update action_log set actor_account = 'someone' where tenant_id = ? and seq = ?").run(tenantId, victim.seq));
    const failed = await run(process.execPath, ['--import', 'tsx', script, '--data-dir', server.dataDir], { env }).catch((err: { code: number; stdout: string }) => err);
    expect(failed).toMatchObject({ code: 1 });
    expect(failed.stdout).toContain(`BROKEN  tenant ${tenantId}: first broken link at row ${victim.seq} (edited)`);
    await withDb(server, (db) => db.prepare('update action_log set actor_account = ? where tenant_id = ? and seq = ?').run(victim.actor_account, tenantId, victim.seq));
    await expectChainsHold(server);
  });
});

describe('retention', () => {
  it('the sweeper prunes records past the retention, records that it did, and the chain still verifies', async () => {
    const local = await startServer({ auditRetentionDays: 30 });
    try {
      const client = await loggedInClient(local, ADMIN);
      await client.post(API.mkdir, { parentId: null, category: 1, name: 'old' });
      const before = (await logRows(local)).filter((r) => r.tenant_id !== '');
      expect(before.length).toBe(2);
      // Nothing is old enough yet.
      expect((await local.app.sweeper.sweepOnce()).actionLog).toBe(0);
      const result = await local.app.sweeper.sweepOnce(Date.now() + 31 * DAY);
      expect(result.actionLog).toBe(2);
      const after = (await logRows(local)).filter((r) => r.tenant_id !== '');
      expect(after.map((r) => [r.seq, r.action])).toEqual([[3, 'audit.prune']]);
      expect(after[0]!.parsedDetail).toMatchObject({ fromSeq: 1, throughSeq: 2, anchorHash: before[1]!.hash, count: 2, retentionDays: 30 });
      await expectChainsHold(local);
      // The chain goes on from the prune record.
      await client.post(API.mkdir, { parentId: null, category: 1, name: 'new' });
      await expectChainsHold(local);
      // Deleting more rows and moving the anchor over them is caught: without the key the head's MAC
      // no longer holds; with it, no prune record states that anchor.
      await withDb(local, (db) => {
        db.prepare("update action_log_heads set anchor_seq = 3, anchor_hash = ? where tenant_id != ''").run(after[0]!.hash);
        db.prepare("delete from action_log where tenant_id != '' and seq = 3").run();
      });
      expect((await verifyServer(local)).find((r) => r.tenantId !== '')!.broken).toMatchObject({ reason: 'head' });
      const key = await loadChainKey(local.dataDir, undefined, false);
      await withDb(local, (db) => {
        const head = db.prepare("select * from action_log_heads where tenant_id != ''").get() as ActionLogHeadsTable;
        db.prepare('update action_log_heads set mac = ? where tenant_id = ?').run(headMac(key, head), head.tenant_id);
      });
      expect((await verifyServer(local)).find((r) => r.tenantId !== '')!.broken).toMatchObject({ reason: 'anchor' });
    } finally {
      await local.close();
    }
  });

  it("the recycle bin purge of the sweeper is on record, as the server's own action in the tenant", async () => {
    const local = await startServer();
    try {
      const client = await loggedInClient(local, ADMIN);
      const folder = (await client.post<{ data: FileEntry }>(API.mkdir, { parentId: null, category: 1, name: '过期文件夹' })).body.data;
      await client.post(API.removeFiles, { ids: [folder.id] });
      const rows = await rowsOf(local, () => local.app.sweeper.sweepOnce(Date.now() + 31 * DAY));
      expect(rows.map((r) => [r.action, r.actor_account, r.actor_role, r.outcome])).toEqual([['file.purge', 'system', 'system', 'ok']]);
      expect(rows[0]!.parsedTargets).toEqual([{ type: 'folder', id: folder.id, name: '过期文件夹' }]);
      expect(rows[0]!.parsedDetail).toEqual({ reason: 'recycleRetention' });
      await expectChainsHold(local);
    } finally {
      await local.close();
    }
  });
});
