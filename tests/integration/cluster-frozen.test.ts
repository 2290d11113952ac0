/**
 * The balancer's connection to one server process lost while uploads run (issue 36, "Faults").
 *
 * Frozen: the process stops (SIGSTOP) in the middle of a merge, at its worst point (the upload's
 * chunks renamed into a blob directory, the merge intent recorded, the upload's lock held), with the
 * chunk bodies of the other uploads in flight to it. A frozen process still accepts connections (its
 * kernel answers) and answers nothing; its PostgreSQL sessions stay open with every lock it holds.
 * Cut: haproxy's runtime API takes a process out (`state maint`) and cuts its sessions mid-transfer.
 *
 * What must hold: the uploads finish on the other processes while that one stays out, every file
 * byte-exact, every refusal coded; the frozen process, thawed, finds its merge taken over and breaks
 * nothing, and rejoins; the store agrees with the database and the action-log chains verify.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balancerCommand } from '../../server/cluster/balancer-socket';
import { BACKEND } from '../../server/cluster/haproxy-config';
import type { Cluster } from '../../server/cluster/start-cluster';
import { startPostgresCluster, type PostgresCluster } from '../../server/cluster/postgres-cluster';
import { createNodeEngine, waitUntilSettled } from '../replay/engine-harness';
import { openFileSource } from '../replay/node-runtime';
import { downloadSha256, loggedInJar, writeRandomFile } from '../support/drive-server';
import { FAST_STALL_TIMEOUT_MS, fastSleep } from '../support/engine-deps';
import { startTestCluster, storeProblems, withPg } from './cluster-kit';
import { auditVerify, recording, uncoded, type Refusal } from './cluster-fault-kit';

const MiB = 1024 * 1024;
/** The process that freezes (s2) at its first merge. */
const VICTIM = 1;
/** How long a frozen process keeps its locks (LOCK_LEASE_MS; the default is longer). */
const LEASE_MS = 3_000;
let dir: string;
let dataDir: string;
let postgres: PostgresCluster;
let cluster: Cluster;
let log: string[];

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-cluster-frozen-'));
  dataDir = path.join(dir, 'data');
  postgres = await startPostgresCluster();
  await withPg(postgres.url('postgres'), (c) => c.query('create database drive'));
  ({ cluster, log } = await startTestCluster(dataDir, {
    processes: 3,
    dbUrl: postgres.url('drive'),
    env: { LOCK_LEASE_MS: String(LEASE_MS) },
    processEnv: (i): Record<string, string> => (i === VICTIM ? { DRIVE_TEST_CRASH_POINT: 'merge-after-rename', DRIVE_TEST_CRASH_SIGNAL: 'SIGSTOP' } : {}),
  }));
}, 120_000);

afterAll(async () => {
  for (const pid of cluster?.pids() ?? []) if (pid) process.kill(pid, 'SIGCONT');
  await cluster?.stop();
  await postgres?.stop();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

afterAll(() => {
  if (log?.some((l) => /"level":(50|60)/.test(l))) console.warn(log.filter((l) => /"level":(50|60)|cluster\]|haproxy\]/.test(l)).slice(-60).join('\n'));
});

/** Whether process `pid` is stopped (state T in /proc/<pid>/stat). */
async function isStopped(pid: number): Promise<boolean> {
  const stat = await fsp.readFile(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T');
}

const setState = (names: readonly string[], state: 'ready' | 'drain' | 'maint') =>
  Promise.all(names.map((n) => balancerCommand(cluster.adminSocket, `set server ${BACKEND}/${n} state ${state}`)));

/** Random files of `sizes` under dir, with their digests. */
function sourceFiles(prefix: string, sizes: readonly number[]) {
  return Promise.all(
    sizes.map(async (size, i) => {
      const file = path.join(dir, `${prefix}-${i}.bin`);
      return { file, size, sha256: await writeRandomFile(file, size) };
    }),
  );
}

/**
 * Uploads `sources` with the engine through the balancer, calling `during` with each snapshot's
 * bytes done; every item done and byte-exact, every refusal coded.
 */
async function uploadAll(sources: Awaited<ReturnType<typeof sourceFiles>>, during: (bytesDone: number) => Promise<void> | void): Promise<void> {
  const jar = await loggedInJar(cluster.url, dataDir);
  const refusals: Refusal[] = [];
  const { engine, close } = createNodeEngine(cluster.url, jar, {
    chunkConcurrency: 3,
    random: () => 0.5,
    sleep: fastSleep,
    stallTimeoutMs: FAST_STALL_TIMEOUT_MS,
    ...recording(jar, refusals),
  });
  try {
    const ids = await engine.enqueueUploads(await Promise.all(sources.map((s) => openFileSource(s.file))), { parentId: null, category: 1 });
    const snapshot = await waitUntilSettled(engine, {
      ids,
      timeoutMs: 40_000,
      pollMs: 20,
      onSnapshot: (s) => during(s.items.reduce((a, item) => a + item.bytesDone, 0)),
    });
    for (const item of snapshot.items) {
      expect(item.state, `${item.name}: ${item.lastError ?? ''}`).toBe('done');
      const source = sources[ids.indexOf(item.id)]!;
      expect(await downloadSha256(cluster.url, jar, item.fileId!), item.name).toEqual({ sha256: source.sha256, size: source.size });
    }
    expect(uncoded(refusals), JSON.stringify(refusals.slice(0, 5))).toEqual([]);
  } finally {
    await close();
  }
}

async function storeAndChainsHold(): Promise<void> {
  expect(await storeProblems(dataDir, cluster.dbUrl)).toEqual([]);
  const chains = await auditVerify(cluster, dataDir);
  expect(chains.length).toBeGreaterThan(0);
  expect(chains.filter((c) => c.broken)).toEqual([]);
}

describe('one process frozen (SIGSTOP) mid-merge, past its health check', () => {
  it('the uploads finish on the others while it stays frozen; thawed, it breaks nothing and rejoins; the chain verifies', async () => {
    const pid = cluster.pids()[VICTIM]!;
    const others = cluster.names.filter((_, i) => i !== VICTIM);
    const sources = await sourceFiles('frozen', [6 * MiB + 17, 5 * MiB + 3, 4 * MiB, 3 * MiB + 999]);
    // Everything goes to the victim until it freezes: the merge, the other uploads' chunk bodies, their locks.
    await setState(others, 'drain');
    const started = Date.now();
    let frozenAt = 0;
    try {
      await uploadAll(sources, async () => {
        if (frozenAt || !(await isStopped(pid))) return;
        frozenAt = Date.now();
        await setState(others, 'ready');
      });
      console.info(`frozen after ${frozenAt - started} ms; every upload done ${Date.now() - frozenAt} ms later`);
      expect(frozenAt, 'the victim froze mid-merge').toBeGreaterThan(0);
      expect(await isStopped(pid), 'still frozen when the uploads were done').toBe(true);
    } finally {
      await setState(others, 'ready');
      process.kill(pid, 'SIGCONT');
    }
    await cluster.waitHealthy(VICTIM, 20_000);
    expect(cluster.pids()[VICTIM], 'the same process, thawed').toBe(pid);
    // The thawed process goes on with its merge (taken over meanwhile) before anything else it does.
    await new Promise((r) => setTimeout(r, 500));
    await storeAndChainsHold();
  }, 90_000);
});

describe("the balancer's connection to one process cut mid-transfer (runtime API)", () => {
  it('maint + shutdown sessions: the uploads finish on the others, byte-exact; back in rotation after', async () => {
    const cut = cluster.names[2]!;
    const sources = await sourceFiles('cut', [5 * MiB + 5, 4 * MiB + 1, 3 * MiB]);
    const total = sources.reduce((a, s) => a + s.size, 0);
    let cutAt = -1;
    try {
      await uploadAll(sources, async (done) => {
        if (cutAt >= 0 || done < total / 4) return;
        cutAt = done;
        await setState([cut], 'maint');
        await balancerCommand(cluster.adminSocket, `shutdown sessions server ${BACKEND}/${cut}`);
      });
      expect(cutAt, 'cut mid-upload').toBeGreaterThan(0);
      expect(cutAt).toBeLessThan(total);
    } finally {
      await setState([cut], 'ready');
    }
    await cluster.waitHealthy(2, 10_000);
    await storeAndChainsHold();
  }, 60_000);
});
