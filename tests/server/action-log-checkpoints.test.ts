import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionLogCheckpoint } from '../../common/api/action-log';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import { openReadOnlyDatabase } from '../../server/db/database';
import { testDbUrl } from '../support/test-database';
import type { ActionLogHeadsTable } from '../../server/db/schema';
import { ActionLogRepository } from '../../server/repositories/action-log-repository';
import { keyIdOf, publicKeyBase64, signCheckpoint } from '../../server/services/action-log/checkpoint';
import { verifyChains } from '../../server/services/action-log/verify';
import { verifyCheckpoints, type CheckpointReport } from '../../server/services/action-log/verify-checkpoints';
import { loadChainKey } from '../../server/storage/chain-key';
import { checkpointFileName } from '../../server/storage/checkpoint-directory';
import { loadCheckpointSigner } from '../../server/storage/checkpoint-key';
import { oneRowOf, verifyServer } from './action-log-kit';
import { addTenantWithUser, ADMIN, Client, liftPasswordGate, loggedInClient, MEMBER, startServer, withDb, type TestServer } from './helpers';

const DAY = 24 * 3600 * 1000;
const run = promisify(execFile);
const script = path.resolve('server/audit-verify.ts');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run audit:verify -- --data-dir D [args]`, whatever its exit code. */
async function verifyCli(server: TestServer, ...args: string[]): Promise<Run> {
  try {
    const env = { ...process.env, DB_URL: (await testDbUrl(server.dataDir)) ?? '' };
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', script, '--data-dir', server.dataDir, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** What audit:verify does with checkpoints, in process (trusting the data directory's key). */
async function checkpointReports(server: TestServer, values: unknown[]): Promise<CheckpointReport[]> {
  const key = await loadChainKey(server.dataDir, undefined, false);
  const signer = await loadCheckpointSigner(server.dataDir, false);
  const db = openReadOnlyDatabase(server.dataDir, await testDbUrl(server.dataDir));
  try {
    const repo = new ActionLogRepository(db, key);
    const chains = await verifyChains(repo, key);
    return await verifyCheckpoints(repo, chains, values.map((value, i) => ({ source: `#${i + 1}`, value })), new Map([[signer.keyId, signer.publicKey]]));
  } finally {
    await db.destroy();
  }
}

async function tenantOf(server: TestServer, username = 'admin'): Promise<string> {
  return withDb(server, (db) => (db.prepare('select tenant_id from users where username = ?').get(username) as { tenant_id: string }).tenant_id);
}

function headOf(server: TestServer, tenant: string): Promise<ActionLogHeadsTable> {
  return withDb(server, (db) => db.prepare('select * from action_log_heads where tenant_id = ?').get(tenant) as ActionLogHeadsTable);
}

async function actions(client: Client, n: number, prefix: string): Promise<void> {
  for (let i = 0; i < n; i++) expect((await client.post(API.mkdir, { parentId: null, category: 1, name: `${prefix}-${i}` })).status).toBe(200);
}

/** What the outside test did: the newest `n` rows deleted, the head pointed at the new last row (no key). */
async function cutTail(s: TestServer, tenant: string, n: number): Promise<{ from: number; to: number }> {
  return withDb(s, (db) => {
    const head = db.prepare('select * from action_log_heads where tenant_id = ?').get(tenant) as ActionLogHeadsTable;
    const keep = head.seq - n;
    const last = db.prepare('select hash from action_log where tenant_id = ? and seq = ?').get(tenant, keep) as { hash: string };
    db.prepare('delete from action_log where tenant_id = ? and seq > ?').run(tenant, keep);
    db.prepare('update action_log_heads set seq = ?, hash = ? where tenant_id = ?').run(keep, last.hash, tenant);
    return { from: keep + 1, to: head.seq };
  });
}

/** The same cut, but with the head put back to values it had earlier, MAC included (read off the database then). */
async function cutTailToEarlierHead(s: TestServer, earlier: ActionLogHeadsTable): Promise<void> {
  await withDb(s, (db) => {
    db.prepare('delete from action_log where tenant_id = ? and seq > ?').run(earlier.tenant_id, earlier.seq);
    db.prepare('update action_log_heads set seq = ?, hash = ?, anchor_seq = ?, anchor_hash = ?, mac = ? where tenant_id = ?').run(
      earlier.seq, earlier.hash, earlier.anchor_seq, earlier.anchor_hash, earlier.mac, earlier.tenant_id,
    );
  });
}

async function writeJson(dir: string, name: string, value: unknown): Promise<string> {
  const file = path.join(dir, name);
  await fsp.writeFile(file, JSON.stringify(value));
  return file;
}

let server: TestServer;
let admin: Client;
let member: Client;
let tenantId: string;
let scratch: string;

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  await liftPasswordGate(server, MEMBER.username);
  member = await loggedInClient(server, MEMBER);
  tenantId = await tenantOf(server);
  scratch = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-checkpoints-'));
});
afterAll(async () => {
  await server.close();
  await fsp.rm(scratch, { recursive: true, force: true });
});

describe('a cut-off tail without a checkpoint', () => {
  it('deleting the newest 5 rows and pointing the head at the new last row, without the key, is found', async () => {
    const local = await startServer();
    try {
      const client = await loggedInClient(local, ADMIN);
      await actions(client, 8, 'cut');
      const tenant = await tenantOf(local);
      expect((await verifyCli(local)).code).toBe(0);
      const cut = await cutTail(local, tenant, 5);
      const after = await verifyCli(local);
      expect(after.code).toBe(1);
      expect(after.stdout).toContain(`BROKEN  tenant ${tenant}: first broken link at row ${cut.from - 1} (head)`);

      // The server goes on recording from that head, but does not seal it: the next action does not
      // launder the cut, nor does retention prune the evidence.
      const rowsBefore = await withDb(local, (db) => (db.prepare('select count(*) as n from action_log where tenant_id = ?').get(tenant) as { n: number }).n);
      await actions(client, 2, 'later');
      expect((await headOf(local, tenant)).mac).toBe(`broken:${cut.from - 1}`);
      expect((await local.app.sweeper.sweepOnce(Date.now() + 181 * DAY)).actionLog).toBe(0);
      expect(await withDb(local, (db) => (db.prepare('select count(*) as n from action_log where tenant_id = ?').get(tenant) as { n: number }).n)).toBe(rowsBefore + 2);
      expect((await verifyServer(local)).find((r) => r.tenantId === tenant)!.broken).toMatchObject({ seq: cut.from - 1, reason: 'head' });
      expect(await local.app.auditCheckpoints.checkpointOnce()).not.toContainEqual(expect.objectContaining({ tenantId: tenant }));
    } finally {
      await local.close();
    }
  });

  it('a cleared MAC is reported, and no later start seals it again', async () => {
    const local = await startServer();
    try {
      const client = await loggedInClient(local, ADMIN);
      await actions(client, 2, 'clear');
      const tenant = await tenantOf(local);
      await withDb(local, (db) => db.prepare('update action_log_heads set mac = null where tenant_id = ?').run(tenant));
      expect((await verifyServer(local)).find((r) => r.tenantId === tenant)!.broken).toMatchObject({ reason: 'head' });
      await local.app.close();
      const again = await startServer({ dataDir: local.dataDir });
      await again.app.close();
      expect((await headOf(local, tenant)).mac).toBeNull();
      expect((await verifyServer(local)).find((r) => r.tenantId === tenant)!.broken).toMatchObject({ reason: 'head' });
    } finally {
      await fsp.rm(local.dataDir, { recursive: true, force: true });
    }
  });

  it('heads of a database from before the head MAC are sealed by the start that adds it', async () => {
    const local = await startServer();
    try {
      const client = await loggedInClient(local, ADMIN);
      await actions(client, 2, 'legacy');
      await local.app.close();
      // The database as it was before migration 0083.
      await withDb(local, (db) => {
        db.prepare('alter table action_log_heads drop column mac').run();
        db.prepare("delete from kysely_migration where name = '0083_action_log_head_mac'").run();
      });
      const again = await startServer({ dataDir: local.dataDir });
      await again.app.close();
      expect((await verifyServer(local)).filter((r) => r.broken)).toEqual([]);
    } finally {
      await fsp.rm(local.dataDir, { recursive: true, force: true });
    }
  });
});

describe('a cut-off tail after a checkpoint', () => {
  it('a head put back with its earlier MAC passes the chain check; the checkpoint names the rows cut after it', async () => {
    const local = await startServer();
    try {
      const client = await loggedInClient(local, ADMIN);
      const tenant = await tenantOf(local);
      await actions(client, 3, 'before');
      const earlier = await headOf(local, tenant);
      await actions(client, 5, 'after');
      const res = await client.get<ActionLogCheckpoint>(API.actionLogCheckpoint);
      expect(res.status).toBe(200);
      const checkpoint = res.body;
      const file = await writeJson(scratch, 'replay.json', checkpoint);
      expect((await verifyCli(local, '--checkpoint', file)).code).toBe(0);

      await cutTailToEarlierHead(local, earlier);
      // The chain alone cannot tell: the head is one the server wrote.
      expect((await verifyCli(local)).code).toBe(0);
      const withCheckpoint = await verifyCli(local, '--checkpoint', file);
      expect(withCheckpoint.code).toBe(1);
      expect(withCheckpoint.stdout).toContain(`ok      tenant ${tenant}`);
      expect(withCheckpoint.stdout).toContain(
        `BROKEN  checkpoint ${file}#1 (missing) tenant ${tenant}: row ${checkpoint.seq} of ${checkpoint.time}: the chain ends at row ${earlier.seq}: rows ${earlier.seq + 1}–${checkpoint.seq}`,
      );
      // The server signs no checkpoint of a head that went back from one it signed.
      expect(await local.app.auditCheckpoints.checkpointOnce()).toEqual([]);
      expect((await client.get<{ errorCode: string }>(API.actionLogCheckpoint)).body.errorCode).toBe(ERRORS.AUDIT_HEAD_INVALID.code);
      // The server goes on from the earlier head (that refusal is on record, and more actions): once the
      // chain is past the checkpoint's row again, that row is another row.
      await actions(client, 5, 'again');
      expect(await checkpointReports(local, [checkpoint])).toMatchObject([{ status: 'forked' }]);
    } finally {
      await local.close();
    }
  });

  it('the outside test\'s cut (head forged without the key) is reported by the head and by the checkpoint', async () => {
    const local = await startServer();
    try {
      const client = await loggedInClient(local, ADMIN);
      const tenant = await tenantOf(local);
      await actions(client, 8, 'forged');
      const checkpoint = (await client.get<ActionLogCheckpoint>(API.actionLogCheckpoint)).body;
      const cut = await cutTail(local, tenant, 5);
      const reports = await checkpointReports(local, [checkpoint]);
      expect(reports).toMatchObject([{ status: 'missing', missingFrom: cut.from, missingTo: checkpoint.seq }]);
      expect((await verifyServer(local)).find((r) => r.tenantId === tenant)!.broken).toMatchObject({ reason: 'head' });
      // The server went on writing after the cut (its own head check failing aside): the checkpoint's
      // row is another row now.
      await withDb(local, (db) => {
        const head = db.prepare('select * from action_log_heads where tenant_id = ?').get(tenant) as ActionLogHeadsTable;
        expect(head.seq).toBe(cut.from - 1);
      });
    } finally {
      await local.close();
    }
  });
});

describe('a head that went back across a restart', () => {
  it('is not signed: the server starts from the last checkpoints it wrote to AUDIT_CHECKPOINT_DIR', async () => {
    const dir = path.join(scratch, 'restart');
    const local = await startServer({ auditCheckpointDir: dir, auditCheckpointIntervalMs: 0 });
    try {
      const client = await loggedInClient(local, ADMIN);
      const tenant = await tenantOf(local);
      await actions(client, 2, 'kept');
      const earlier = await headOf(local, tenant);
      await actions(client, 4, 'lost');
      const signed = await local.app.auditCheckpoints.checkpointOnce();
      expect(signed).toContainEqual(expect.objectContaining({ tenantId: tenant, seq: Number(earlier.seq) + 4 }));
      await local.app.close();
      await cutTailToEarlierHead(local, earlier);
      const again = await startServer({ dataDir: local.dataDir, auditCheckpointDir: dir, auditCheckpointIntervalMs: 0 });
      try {
        const admin2 = await loggedInClient(again, ADMIN);
        expect((await again.app.auditCheckpoints.checkpointOnce()).map((c) => c.tenantId)).not.toContain(tenant);
        expect((await admin2.get<{ errorCode: string }>(API.actionLogCheckpoint)).body.errorCode).toBe(ERRORS.AUDIT_HEAD_INVALID.code);
        // The directory's own file names the cut.
        const file = path.join(dir, checkpointFileName(signed[0]!.at));
        const cli = await verifyCli(again, '--checkpoint', file);
        expect(cli.code).toBe(1);
        expect(cli.stdout).toMatch(/\((missing|forked)\) tenant /);
      } finally {
        await again.app.close();
      }
    } finally {
      await fsp.rm(local.dataDir, { recursive: true, force: true });
    }
  });
});

describe('checkpoint signatures', () => {
  it('a changed field, a changed signature, another key or no checkpoint at all: reported, exit 1', async () => {
    const good = (await admin.get<ActionLogCheckpoint>(API.actionLogCheckpoint)).body;
    expect((await checkpointReports(server, [good]))[0]).toMatchObject({ status: 'reached' });
    const flipped = Buffer.from(good.signature, 'base64');
    flipped[0]! ^= 1;
    const other = generateKeyPairSync('ed25519');
    const otherSigner = { privateKey: other.privateKey, publicKey: other.publicKey, publicKeyBase64: publicKeyBase64(other.publicKey), keyId: keyIdOf(other.publicKey) };
    const forged = signCheckpoint(otherSigner, { tenantId, seq: good.seq + 100, hash: good.hash }, Date.now());
    const cases: Array<[string, unknown, string]> = [
      ['seq', { ...good, seq: good.seq - 1 }, 'its signature does not hold'],
      ['hash', { ...good, hash: 'a'.repeat(64) }, 'its signature does not hold'],
      ['time', { ...good, at: good.at + 1 }, 'its signature does not hold'],
      ['signature', { ...good, signature: flipped.toString('base64') }, 'its signature does not hold'],
      ['key', forged, "not this server's checkpoint key"],
      ['key swapped in', { ...good, publicKey: otherSigner.publicKeyBase64 }, 'its public key is not the key'],
      ['not one', { hello: 'world' }, 'not a checkpoint'],
    ];
    const reports = await checkpointReports(server, cases.map(([, value]) => value));
    cases.forEach(([label, , problem], i) => {
      expect(reports[i], label).toMatchObject({ status: 'invalid' });
      expect(reports[i]!.message, label).toContain(problem);
    });
    const file = await writeJson(scratch, 'tampered.json', [good, { ...good, seq: good.seq - 1 }]);
    const cli = await verifyCli(server, '--checkpoint', file);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain(`ok      checkpoint ${file}#1 (reached)`);
    expect(cli.stdout).toContain(`BROKEN  checkpoint ${file}#2 (invalid)`);
    // The other key's checkpoint verifies once its public key is trusted (and then says what it claims: rows missing).
    const pem = path.join(scratch, 'other.pub');
    await fsp.writeFile(pem, other.publicKey.export({ type: 'spki', format: 'pem' }).toString());
    const forgedFile = await writeJson(scratch, 'forged.json', forged);
    const trusted = await verifyCli(server, '--checkpoint', forgedFile, '--public-key', pem);
    expect(trusted.stdout).toContain('(missing)');
  });

  it('the checkpoint key is Ed25519, owner-only beside the chain key, its public half in audit-checkpoint.pub', async () => {
    const stat = await fsp.stat(path.join(server.dataDir, 'audit-checkpoint.key'));
    expect(stat.mode & 0o077).toBe(0);
    const signer = await loadCheckpointSigner(server.dataDir, false);
    expect(signer.privateKey.asymmetricKeyType).toBe('ed25519');
    const pub = await fsp.readFile(path.join(server.dataDir, 'audit-checkpoint.pub'), 'utf8');
    expect(pub).toContain('BEGIN PUBLIC KEY');
    expect(server.app.auditCheckpoints.keyId).toBe(signer.keyId);
  });
});

describe('retention is not a cut', () => {
  it('checkpoints written to AUDIT_CHECKPOINT_DIR before the sweeper prunes still verify after it; a cut after the prune is still found', async () => {
    const dir = path.join(scratch, 'checkpoints');
    const local = await startServer({ auditRetentionDays: 30, auditCheckpointDir: dir, auditCheckpointIntervalMs: 0 });
    try {
      let client = await loggedInClient(local, ADMIN);
      const tenant = await tenantOf(local);
      await actions(client, 4, 'old');
      const first = await local.app.auditCheckpoints.checkpointOnce();
      expect(first.map((c) => c.tenantId)).toContain(tenant);
      // Nothing moved: nothing signed again.
      expect(await local.app.auditCheckpoints.checkpointOnce()).toEqual([]);
      await actions(client, 1, 'older');
      const second = await local.app.auditCheckpoints.checkpointOnce();
      expect(second.map((c) => c.tenantId)).toEqual([tenant]);
      const file = path.join(dir, checkpointFileName(second[0]!.at));
      const lines = (await fsp.readFile(file, 'utf8')).trim().split('\n');
      expect(lines).toHaveLength(first.length + 1);

      // Past the retention: every row of both checkpoints goes, under prune records.
      expect((await local.app.sweeper.sweepOnce(Date.now() + 31 * DAY)).actionLog).toBeGreaterThan(5);
      // That pass also ended the sessions (a month later).
      client = await loggedInClient(local, ADMIN);
      const pruned = await verifyCli(local, '--checkpoint', file);
      expect(pruned.code).toBe(0);
      expect(pruned.stdout).toContain(`ok      checkpoint ${file}#${lines.length} (pruned) tenant ${tenant}`);

      // A checkpoint of the pruned chain, then rows, then a cut: found.
      const afterPrune = await local.app.auditCheckpoints.current(tenant);
      await actions(client, 5, 'new');
      const latest = await local.app.auditCheckpoints.current(tenant);
      expect((await checkpointReports(local, [afterPrune, latest])).map((r) => r.status)).toEqual(['reached', 'reached']);
      await cutTail(local, tenant, 3);
      expect((await checkpointReports(local, [afterPrune, latest])).map((r) => r.status)).toEqual(['reached', 'missing']);
    } finally {
      await local.close();
    }
  });
});

describe('GET /api/actionLog/checkpoint', () => {
  it('admins download a signed checkpoint of their tenant; it is on record', async () => {
    const head = await headOf(server, tenantId);
    const row = await oneRowOf(server, async () => {
      const res = await admin.raw(API.actionLogCheckpoint);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.headers.get('content-disposition')).toContain('attachment');
      expect(res.headers.get('cache-control')).toContain('no-store');
      const checkpoint = (await res.json()) as ActionLogCheckpoint;
      expect(checkpoint).toMatchObject({ format: 'drive-audit-checkpoint', version: 1, tenantId, seq: Number(head.seq), hash: head.hash });
      expect((await checkpointReports(server, [checkpoint]))[0]).toMatchObject({ status: 'reached' });
    });
    expect(row).toMatchObject({ action: 'audit.checkpoint', outcome: 'ok', actor_account: 'admin' });
    expect(row.parsedDetail).toMatchObject({ seq: row.seq - 1 });
  });

  it('members are refused; another tenant is not found; anonymous needs a session', async () => {
    expect((await member.get<{ errorCode: string }>(API.actionLogCheckpoint)).body.errorCode).toBe(ERRORS.FORBIDDEN.code);
    await addTenantWithUser(server, 'cp-other-admin', 'Other@2024');
    await withDb(server, (db) => db.prepare("update users set role = 'admin' where username = 'cp-other-admin'").run());
    const other = await loggedInClient(server, { username: 'cp-other-admin', password: 'Other@2024' });
    const foreign = await other.get<{ errorCode: string }>(`${API.actionLogCheckpoint}?tenantId=${tenantId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.errorCode).toBe(ERRORS.TENANT_NOT_FOUND.code);
    // Their own: their tenant's chain, not ours.
    const own = (await other.get<ActionLogCheckpoint>(API.actionLogCheckpoint)).body;
    expect(own.tenantId).toBe(await tenantOf(server, 'cp-other-admin'));
    expect((await new Client(server.baseUrl).get(API.actionLogCheckpoint)).status).toBe(401);
  });
});
