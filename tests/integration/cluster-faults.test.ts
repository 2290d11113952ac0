/**
 * Faults under the cluster (issue 36, "Faults"): three bundled server processes on a real PostgreSQL
 * behind haproxy (startCluster), and the database or the balancer's link to one process taken away
 * while work is in flight. What must hold: every operation the server acknowledged is intact, every
 * refused one was answered with a coded error (§8: `errorCode`), the client's own retries finish the
 * rest, and the action-log chain verifies with `npm run audit:verify`'s tool.
 *
 * The PostgreSQL is started here (not by startCluster) so the test can restart it with `pg_ctl`.
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../server/cluster/start-cluster';
import { postgresBinDir, startPostgresCluster, type PostgresCluster } from '../../server/cluster/postgres-cluster';
import { createNodeEngine, waitUntilSettled } from '../replay/engine-harness';
import { openFileSource } from '../replay/node-runtime';
import { downloadSha256, loggedInJar, writeRandomFile } from '../support/drive-server';
import { FAST_STALL_TIMEOUT_MS } from '../support/engine-deps';
import { API } from '../../common/api/paths';
import { ADMIN, Client, login, type TestServer } from '../server/helpers';
import { text } from '../server/file-kit';
import { addUser, INITIAL_PASSWORD } from '../server/org-kit';
import { department, setManager, setPolicy, submit } from '../server/sharing-kit';
import { startTestCluster, storeProblems, withPg } from './cluster-kit';
import { auditVerify, recording, uncoded, type Refusal } from './cluster-fault-kit';

const run = promisify(execFile);
const MiB = 1024 * 1024;
let dir: string;
let dataDir: string;
let postgres: PostgresCluster;
let cluster: Cluster;
let log: string[];
let admin: Client;

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-cluster-faults-'));
  dataDir = path.join(dir, 'data');
  postgres = await startPostgresCluster();
  await withPg(postgres.url('postgres'), (c) => c.query('create database drive'));
  ({ cluster, log } = await startTestCluster(dataDir, { processes: 3, dbUrl: postgres.url('drive') }));
  admin = new Client(cluster.url);
  const res = await login({ dataDir } as TestServer, admin, ADMIN);
  expect(res.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  await postgres?.stop();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

afterAll(() => {
  // On failure the servers' last lines say why.
  if (log?.some((l) => /"level":(50|60)/.test(l))) console.warn(log.filter((l) => /"level":(50|60)|cluster\]/.test(l)).slice(-60).join('\n'));
});

/** `pg_ctl restart -m fast` (as the postgres user when root): every connection of every process is cut. */
async function restartPostgres(): Promise<void> {
  const ctl = path.join(postgresBinDir()!, 'pg_ctl');
  const args = ['-D', path.join(postgres.dir, 'data'), '-l', path.join(postgres.dir, 'server.log'), '-m', 'fast', '-w', 'restart'];
  const [bin, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', ctl, ...args]] : [ctl, args];
  await run(bin, argv);
}

describe('PostgreSQL restarted', () => {
  it("during concurrent uploads: acknowledged files are byte-exact, refusals are coded, the engine's retries finish the rest, the chain verifies", async () => {
    const sizes = [9 * MiB + 17, 6 * MiB + 3, 5 * MiB, 3 * MiB + 999];
    const sources = await Promise.all(
      sizes.map(async (size, i) => {
        const file = path.join(dir, `pg-restart-${i}.bin`);
        return { file, size, sha256: await writeRandomFile(file, size) };
      }),
    );
    const total = sizes.reduce((a, b) => a + b, 0);
    const jar = await loggedInJar(cluster.url, dataDir);
    const refusals: Refusal[] = [];
    const { engine, close } = createNodeEngine(cluster.url, jar, {
      chunkConcurrency: 3,
      random: () => 0.5,
      stallTimeoutMs: FAST_STALL_TIMEOUT_MS,
      ...recording(jar, refusals),
    });
    try {
      const ids = await engine.enqueueUploads(await Promise.all(sources.map((s) => openFileSource(s.file))), { parentId: null, category: 1 });
      let restarted: Promise<void> | null = null;
      let doneAtRestart = -1;
      const snapshot = await waitUntilSettled(engine, {
        ids,
        timeoutMs: 80_000,
        pollMs: 20,
        onSnapshot: (s) => {
          const done = s.items.reduce((a, item) => a + item.bytesDone, 0);
          if (!restarted && done >= total / 4) {
            doneAtRestart = done;
            restarted = restartPostgres();
          }
        },
      });
      await restarted;
      expect(doneAtRestart, 'restarted mid-upload').toBeGreaterThan(0);
      expect(doneAtRestart).toBeLessThan(total);
      for (const [i, item] of snapshot.items.entries()) {
        expect(item.state, `${item.name}: ${item.lastError ?? ''}`).toBe('done');
        const source = sources[ids.indexOf(item.id)] ?? sources[i]!;
        expect(await downloadSha256(cluster.url, jar, item.fileId!), item.name).toEqual({ sha256: source.sha256, size: source.size });
      }
      expect(uncoded(refusals), JSON.stringify(refusals.slice(0, 5))).toEqual([]);
      expect(await storeProblems(dataDir, cluster.dbUrl)).toEqual([]);
      const chains = await auditVerify(cluster, dataDir);
      expect(chains.length).toBeGreaterThan(0);
      expect(chains.filter((c) => c.broken)).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);
});

/** A member of `departmentId`, logged in through the balancer (initial password gate lifted in the database). */
async function member(account: string, departmentId: string): Promise<{ id: string; client: Client }> {
  const row = await addUser(admin, account, departmentId);
  await withPg(cluster.dbUrl, (c) => c.query('update users set must_change_password = 0 where username = $1', [account]));
  const client = new Client(cluster.url);
  const res = await login({ dataDir } as TestServer, client, { username: account, password: INITIAL_PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: row.id, client };
}

describe('PostgreSQL restarted during a sharing approval', () => {
  it('the approval happened fully or was refused with a coded error; approved afterwards, the chain verifies', async () => {
    const rd = await department(admin, '研发部');
    const sam = await member('sam', rd);
    const mgr = await member('mgr', rd);
    await setManager(admin, rd, mgr.id);
    await setPolicy(admin, { link: { always: true } });
    const file = await text(sam.client, '合同草案.txt', '第一条：……');
    const applied = await submit(sam.client, { kind: 'link', fileIds: [file.id], link: { code: '', validityDays: 0, downloadLimit: null, previewOnly: false }, reason: '客户要看', approverId: mgr.id });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const id = applied.body.data.id;
    const restart = restartPostgres();
    const answers: Array<{ status: number; body: unknown }> = [];
    // Approvals sent while PostgreSQL goes down and comes back, until one is acknowledged.
    for (let i = 0; i < 400 && !answers.some((a) => a.status === 200); i++) {
      const res = await mgr.client.post(API.applyApprove, { ids: [id], comment: '同意' });
      answers.push({ status: res.status, body: res.body });
      if (res.status !== 200) await new Promise((r) => setTimeout(r, 25));
    }
    await restart;
    const refused = answers.filter((a) => a.status !== 200);
    console.info(`approvals sent during the restart: ${answers.length} (${refused.length} refused)`);
    expect(uncoded(refused.map((a) => ({ what: 'approve', ...a }))), JSON.stringify(refused.slice(0, 3))).toEqual([]);
    expect(answers.at(-1)!.status, JSON.stringify(answers.at(-1))).toBe(200);
    // Acknowledged means approved (a refused attempt left nothing half done that blocks the next).
    const state = await withPg(cluster.dbUrl, async (c) => ({
      status: (await c.query<{ state: string }>('select state from share_applications where id = $1', [id])).rows[0]?.state,
    }));
    expect(state.status).toBe('approved');
    const chains = await auditVerify(cluster, dataDir);
    expect(chains.filter((c) => c.broken)).toEqual([]);
  }, 60_000);
});
