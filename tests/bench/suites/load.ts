/**
 * Load, side by side (issue 36): the same three loads on SQLite-1-process and on
 * PostgreSQL-3-processes-behind-haproxy, in one run, each topology on its own temp data directory:
 *  1. list: C connections (200) listing their 个人文件 root for BENCH_LOAD_SECONDS (20), each request
 *     with the session of one of C users (lib/load-wrk.ts: wrk + Lua), after an unmeasured warm-up of
 *     the same closed loop for BENCH_LOAD_WARMUP_SECONDS (10) on either topology. Once closed-loop (capacity:
 *     `loadListRps`), once paced at the same offered load on both topologies (`loadListP50Ms`,
 *     `loadListP99Ms`: half SQLite-1's capacity unless BENCH_LOAD_PACED_RPS says);
 *  2. upload: 50 users each uploading a distinct 20 MiB file at once through the real engine
 *     (`loadUploadMBps`), every file downloaded and compared afterwards;
 *  3. same file: 100 users uploading the same 20 MiB file at once: one blob (`sameFileBlobs`), every
 *     user's file byte-exact, each user's file the only reference to it and its size in their quota;
 *  4. (PostgreSQL-3 only) kill: 50 more users uploading distinct files, one server process SIGKILLed
 *     at 30 % of the bytes: `killUploadFailedFiles`.
 * CPU-seconds per 1,000 requests of each phase, split into server processes, balancer and database
 * (from /proc). The suite sets a non-zero exit code when a correctness check fails (errors, a file that
 * is not byte-exact, more than one blob, a wrong reference count, a failed file after the kill).
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clientHeaders } from '../../../common/api/client-env';
import { API } from '../../../common/api/paths';
import { writeGeneratedFile } from '../../support/drive-server';
import type { BenchModule, BenchRow } from '../lib/report';
import { megabytesPerSecond, MIB } from '../lib/report';
import { loadGoals } from '../lib/load-goals';
import { startPg3, startSqlite1, type CpuSeconds, type LoadTopology } from '../lib/load-topologies';
import { uploadAll, verifyDownloads, type UploadJob } from '../lib/load-uploads';
import { createLoadUsers, openTopologyDb, type LoadUser } from '../lib/load-users';
import { hasWrk, runWrk, type WrkResult } from '../lib/load-wrk';

const num = (name: string, fallback: number): number => (process.env[name] ? Number(process.env[name]) : fallback);
const CONNECTIONS = num('BENCH_LOAD_CONNECTIONS', 200);
const SECONDS = num('BENCH_LOAD_SECONDS', 20);
/**
 * The same closed loop, unmeasured, before the measured list runs (0 = none): every server process has
 * compiled its hot code and every database connection has prepared its statements, so the figures are
 * a warm server's. PostgreSQL-3 spreads its requests over three processes that each start cold, where
 * SQLite-1's one process warms on all of them: measured cold, round 1 of a process cost 20–40 % more
 * CPU per request than round 2 (docs/postgresql.md).
 */
const WARMUP_SECONDS = num('BENCH_LOAD_WARMUP_SECONDS', 10);
const UPLOAD_USERS = num('BENCH_LOAD_UPLOAD_USERS', 50);
const SAME_USERS = num('BENCH_LOAD_SAME_USERS', 100);
const KILL_USERS = num('BENCH_LOAD_KILL_USERS', 50);
const FILE_BYTES = num('BENCH_LOAD_FILE_MIB', 20) * MIB;
const FOLDERS_PER_USER = 10;
const KILL_AT_FRACTION = 0.3;
const UPLOAD_TIMEOUT_MS = 15 * 60_000;
const TOPOLOGIES = (process.env.BENCH_LOAD_TOPOLOGIES ?? 'sqlite1,pg3').split(',').map((s) => s.trim());
/** BENCH_LOAD_LIST_ONLY=1: the list phases only (a quick measure of a request's cost); the upload phases are skipped. */
const LIST_ONLY = process.env.BENCH_LOAD_LIST_ONLY === '1';
/** BENCH_LOAD_KILL_RESTART=0: the killed process stays down (startCluster restarts it by default). */
const KILL_RESTART = process.env.BENCH_LOAD_KILL_RESTART !== '0';

/** One line on stderr per step: the suite runs for a quarter of an hour and prints its table at the end. */
const progress = (line: string): void => void process.stderr.write(`[load] ${new Date().toISOString().slice(11, 19)} ${line} (load ${os.loadavg()[0]!.toFixed(1)})\n`);

type Suffix = 'Sqlite1' | 'Pg3';
const suffixOf = (t: LoadTopology): Suffix => (t.key === 'sqlite1' ? 'Sqlite1' : 'Pg3');
const r2 = (n: number): number => Math.round(n * 100) / 100;
const r3 = (n: number): number => Math.round(n * 1000) / 1000;
const load1 = (): number => r2(os.loadavg()[0]!);

/** CPU-seconds per 1,000 requests of one phase, by part. */
function costPer1k(before: CpuSeconds, after: CpuSeconds, requests: number) {
  const per = (a: number, b: number) => (requests > 0 ? ((b - a) / requests) * 1000 : NaN);
  const servers = per(before.servers, after.servers);
  const balancer = per(before.balancer, after.balancer);
  const database = per(before.database, after.database);
  const seconds = after.servers - before.servers + (after.balancer - before.balancer) + (after.database - before.database);
  return { servers, balancer, database, total: servers + balancer + database, seconds };
}

/** CPU-seconds (all parts) per GiB a phase uploaded. */
const perGiB = (cost: { seconds: number }, bytes: number): number => r2(cost.seconds / (bytes / 1024 ** 3));

const LIST_REQUEST = {
  method: 'POST' as const,
  path: API.fileList,
  body: JSON.stringify({ parentId: null, category: 1, pageSize: 100, sortField: 'name', sortOrder: 'asc' }),
  headers: clientHeaders('web', 'internal'),
  expectInBody: '"items"',
};

interface PhaseRow {
  phase: string;
  load: string;
  requests: number;
  rate: string;
  p50?: number;
  p99?: number;
  errors: number;
  cost: ReturnType<typeof costPer1k>;
}

function toRow(t: LoadTopology, p: PhaseRow): BenchRow {
  const f = (n: number | undefined, d = 1) => (n === undefined || !Number.isFinite(n) ? '-' : n.toFixed(d));
  return {
    label: `${t.key} ${p.phase}`,
    cells: {
      load: p.load,
      requests: String(p.requests),
      rate: p.rate,
      'p50 ms': f(p.p50),
      'p99 ms': f(p.p99),
      errors: String(p.errors),
      'CPU s/1k srv': f(p.cost.servers, 3),
      'bal': f(p.cost.balancer, 3),
      'db': f(p.cost.database, 3),
      'total': f(p.cost.total, 3),
    },
  };
}

async function generateFiles(dir: string, prefix: string, count: number): Promise<Array<{ file: string; sha256: string }>> {
  await fsp.mkdir(dir, { recursive: true });
  const out: Array<{ file: string; sha256: string }> = [];
  for (let i = 0; i < count; i++) {
    const file = path.join(dir, `${prefix}-${i}.bin`);
    out.push({ file, sha256: await writeGeneratedFile(file, FILE_BYTES, 4 * MIB) });
  }
  return out;
}

interface TopologyRun {
  rows: PhaseRow[];
  metrics: Record<string, number | string>;
  failures: string[];
  saturatedRps: number;
}

/** The list phase, closed loop then paced at `pacedRps` (0 = half of this run's own capacity). */
async function listPhases(t: LoadTopology, users: LoadUser[], dir: string, pacedRps: number) {
  const run = async (rate: number, seconds = SECONDS): Promise<{ wrk: WrkResult; cost: ReturnType<typeof costPer1k>; load: string }> => {
    const loadStart = load1();
    const before = t.cpu();
    const wrk = await runWrk({ url: t.url, cookies: users.slice(0, CONNECTIONS).map((u) => u.jar.cookie()), connections: CONNECTIONS, seconds, ratePerSecond: rate, request: LIST_REQUEST, workDir: path.join(dir, 'wrk') });
    return { wrk, cost: costPer1k(before, t.cpu(), wrk.requests), load: `${loadStart}→${load1()}` };
  };
  const warmup = WARMUP_SECONDS > 0 ? await run(0, WARMUP_SECONDS) : null;
  const saturated = await run(0);
  const rate = pacedRps > 0 ? pacedRps : Math.max(10, Math.round(saturated.wrk.rps / 2));
  const paced = await run(rate);
  return { warmup, saturated, paced, rate };
}

async function runTopology(t: LoadTopology, dir: string, pacedRps: number): Promise<TopologyRun> {
  const s = suffixOf(t);
  const rows: PhaseRow[] = [];
  const metrics: Record<string, number | string> = {};
  const failures: string[] = [];
  const loads: string[] = [];
  const userCount = LIST_ONLY ? CONNECTIONS : Math.max(CONNECTIONS, UPLOAD_USERS + SAME_USERS + (t.serverCount > 1 ? KILL_USERS : 0));
  progress(`${t.key}: ${userCount} users, logged in with ${FOLDERS_PER_USER} folders each`);
  const users = await createLoadUsers({ url: t.url, dataDir: t.dataDir, dbUrl: t.dbUrl, count: userCount, folders: FOLDERS_PER_USER });

  // 1. list
  progress(`${t.key}: list, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up, ${SECONDS} s closed loop then ${SECONDS} s paced`);
  const list = await listPhases(t, users, dir, pacedRps);
  if (list.warmup) {
    // Shown, never judged: its figures are a cold server's.
    const w = list.warmup;
    rows.push({ phase: 'list warm-up', load: w.load, requests: w.wrk.requests, rate: `${w.wrk.rps.toFixed(0)}/s`, p50: w.wrk.p50Ms, p99: w.wrk.p99Ms, errors: w.wrk.errors, cost: w.cost });
    if (w.wrk.errors > 0) failures.push(`${t.key} list warm-up: ${w.wrk.errors} errors ${JSON.stringify(w.wrk.errorDetail)}`);
    Object.assign(metrics, { [`loadListWarmupRps${s}`]: Math.round(w.wrk.rps), [`loadListWarmupCpuSPer1k${s}`]: r3(w.cost.total) });
  }
  for (const [phase, r, rate] of [
    ['list closed loop', list.saturated, `${list.saturated.wrk.rps.toFixed(0)}/s`],
    [`list paced`, list.paced, `${list.paced.wrk.rps.toFixed(0)}/s of ${list.rate}`],
  ] as const) {
    rows.push({ phase, load: r.load, requests: r.wrk.requests, rate, p50: r.wrk.p50Ms, p99: r.wrk.p99Ms, errors: r.wrk.errors, cost: r.cost });
    if (r.wrk.errors > 0) failures.push(`${t.key} ${phase}: ${r.wrk.errors} errors ${JSON.stringify(r.wrk.errorDetail)}`);
  }
  loads.push(`${list.warmup ? `warm-up ${list.warmup.load}, ` : ''}list ${list.saturated.load}, paced ${list.paced.load}`);
  Object.assign(metrics, {
    [`loadListRps${s}`]: Math.round(list.saturated.wrk.rps),
    [`loadListSaturatedP99Ms${s}`]: r2(list.saturated.wrk.p99Ms),
    [`loadListPacedRps${s}`]: Math.round(list.paced.wrk.rps),
    [`loadListP50Ms${s}`]: r2(list.paced.wrk.p50Ms),
    [`loadListP99Ms${s}`]: r2(list.paced.wrk.p99Ms),
    [`loadListErrors${s}`]: (list.warmup?.wrk.errors ?? 0) + list.saturated.wrk.errors + list.paced.wrk.errors,
    [`loadListCpuSPer1k${s}`]: r3(list.saturated.cost.total),
  });

  if (LIST_ONLY) {
    metrics[`loadAvg${s}`] = loads.join('; ');
    return { rows, metrics, failures, saturatedRps: list.saturated.wrk.rps };
  }

  // 2. distinct files
  progress(`${t.key}: ${UPLOAD_USERS} users upload distinct files`);
  const distinct = await generateFiles(path.join(dir, 'files'), 'distinct', UPLOAD_USERS);
  const distinctJobs: UploadJob[] = distinct.map((f, i) => ({ user: users[i]!, file: f.file, name: `上传 ${i}.bin`, sha256: f.sha256, size: FILE_BYTES }));
  {
    const loadStart = load1();
    const before = t.cpu();
    const up = await uploadAll(t.url, distinctJobs, { timeoutMs: UPLOAD_TIMEOUT_MS });
    const cost = costPer1k(before, t.cpu(), up.requests);
    const load = `${loadStart}→${load1()}`;
    const bad = await verifyDownloads(t.url, distinctJobs, up.fileIds);
    const errors = up.failed.length + bad.length;
    failures.push(...[...up.failed, ...bad].map((f) => `${t.key} upload: ${f}`));
    const mbps = megabytesPerSecond(up.bytes, up.ms);
    rows.push({ phase: `upload ${UPLOAD_USERS}×${FILE_BYTES / MIB} MiB`, load, requests: up.requests, rate: `${mbps.toFixed(0)} MB/s`, errors, cost });
    loads.push(`upload ${load}`);
    Object.assign(metrics, { [`loadUploadMBps${s}`]: r2(mbps), [`loadUploadErrors${s}`]: errors, [`loadUploadCpuSPer1k${s}`]: r3(cost.total), [`loadUploadCpuSPerGiB${s}`]: perGiB(cost, up.bytes) });
  }

  // 3. the same file
  progress(`${t.key}: ${SAME_USERS} users upload the same file`);
  const [same] = await generateFiles(path.join(dir, 'files'), 'same', 1);
  const sameUsers = users.slice(UPLOAD_USERS, UPLOAD_USERS + SAME_USERS);
  const sameJobs: UploadJob[] = sameUsers.map((user) => ({ user, file: same!.file, name: '同一个文件.bin', sha256: same!.sha256, size: FILE_BYTES }));
  {
    const db = await openTopologyDb(t.dataDir, t.dbUrl);
    try {
      const usedBefore = new Map((await db.selectFrom('users').select(['id', 'used_size']).where('id', 'in', sameUsers.map((u) => u.id)).execute()).map((r) => [r.id, Number(r.used_size)]));
      const phaseStart = Date.now();
      const loadStart = load1();
      const before = t.cpu();
      const up = await uploadAll(t.url, sameJobs, { timeoutMs: UPLOAD_TIMEOUT_MS });
      const cost = costPer1k(before, t.cpu(), up.requests);
      const load = `${loadStart}→${load1()}`;
      const bad = await verifyDownloads(t.url, sameJobs, up.fileIds);
      const errors = up.failed.length + bad.length;
      failures.push(...[...up.failed, ...bad].map((f) => `${t.key} same file: ${f}`));
      // One blob for the content; each user's file the only row pointing at it; each quota charged once.
      const blobs = await db.selectFrom('blobs').select(['id', 'size']).where('created_at', '>=', phaseStart).execute();
      const refProblems: string[] = [];
      if (blobs.length !== 1) refProblems.push(`${blobs.length} blobs created for one content`);
      const blobIds = blobs.map((b) => b.id);
      const files = blobIds.length ? await db.selectFrom('files').select(['id', 'owner_id', 'blob_id', 'deleted_at']).where('blob_id', 'in', blobIds).execute() : [];
      const live = files.filter((f) => f.deleted_at === null || f.deleted_at === undefined);
      const owners = new Set(live.map((f) => f.owner_id));
      if (live.length !== SAME_USERS || owners.size !== SAME_USERS || sameUsers.some((u) => !owners.has(u.id))) {
        refProblems.push(`${live.length} live files (${owners.size} owners) reference the content's blobs, expected ${SAME_USERS}, one per user`);
      }
      const versions = blobIds.length ? await db.selectFrom('file_versions').select('id').where('blob_id', 'in', blobIds).execute() : [];
      if (versions.length) refProblems.push(`${versions.length} file versions reference it`);
      const usedAfter = await db.selectFrom('users').select(['id', 'used_size']).where('id', 'in', sameUsers.map((u) => u.id)).execute();
      const wrongQuota = usedAfter.filter((r) => Number(r.used_size) - (usedBefore.get(r.id) ?? NaN) !== FILE_BYTES);
      if (wrongQuota.length) refProblems.push(`${wrongQuota.length} users' used size did not grow by the file's size`);
      failures.push(...refProblems.map((p) => `${t.key} same file: ${p}`));
      rows.push({ phase: `same file ${SAME_USERS}×${FILE_BYTES / MIB} MiB`, load, requests: up.requests, rate: `${megabytesPerSecond(up.bytes, up.ms).toFixed(0)} MB/s`, errors: errors + refProblems.length, cost });
      loads.push(`same file ${load}`);
      Object.assign(metrics, {
        [`sameFileBlobs${s}`]: blobs.length,
        [`sameFileErrors${s}`]: errors,
        [`sameFileRefErrors${s}`]: refProblems.length,
        [`sameFileCpuSPer1k${s}`]: r3(cost.total),
        [`sameFileCpuSPerGiB${s}`]: perGiB(cost, up.bytes),
      });
    } finally {
      await db.destroy();
    }
  }

  // 4. kill -9 of one of several processes during an upload phase
  if (t.serverCount > 1) {
    progress(`${t.key}: ${KILL_USERS} users upload, one process SIGKILLed at ${KILL_AT_FRACTION * 100} %${KILL_RESTART ? ' (restarted)' : ' (left down)'}`);
    const killFiles = await generateFiles(path.join(dir, 'files'), 'kill', KILL_USERS);
    const killUsers = users.slice(UPLOAD_USERS + SAME_USERS, UPLOAD_USERS + SAME_USERS + KILL_USERS);
    const jobs: UploadJob[] = killFiles.map((f, i) => ({ user: killUsers[i]!, file: f.file, name: `断电 ${i}.bin`, sha256: f.sha256, size: FILE_BYTES }));
    let killedAt = NaN;
    const loadStart = load1();
    const before = t.cpu();
    const up = await uploadAll(t.url, jobs, {
      timeoutMs: UPLOAD_TIMEOUT_MS,
      onProgress: async (fraction) => {
        if (Number.isNaN(killedAt) && fraction >= KILL_AT_FRACTION) {
          killedAt = fraction;
          progress(`${t.key}: SIGKILL of process 2 at ${Math.round(fraction * 100)} %`);
          await t.killServer(1);
        }
      },
    });
    const cost = costPer1k(before, t.cpu(), up.requests);
    const load = `${loadStart}→${load1()}`;
    const bad = await verifyDownloads(t.url, jobs, up.fileIds);
    const failed = up.failed.length + bad.length;
    if (Number.isNaN(killedAt)) failures.push(`${t.key} kill: the uploads ended before ${KILL_AT_FRACTION * 100} % was seen; nothing was killed`);
    failures.push(...[...up.failed, ...bad].map((f) => `${t.key} kill: ${f}`));
    rows.push({ phase: `kill -9 1 of ${t.serverCount} at ${Math.round(killedAt * 100)} %`, load, requests: up.requests, rate: `${megabytesPerSecond(up.bytes, up.ms).toFixed(0)} MB/s`, errors: failed, cost });
    loads.push(`kill ${load}`);
    Object.assign(metrics, { killUploadFailedFiles: failed, killUploadMBps: r2(megabytesPerSecond(up.bytes, up.ms)), killUploadCpuSPer1k: r3(cost.total) });
  }
  metrics[`loadAvg${s}`] = loads.join('; ');
  return { rows, metrics, failures, saturatedRps: list.saturated.wrk.rps };
}

export const loadBenchmark: BenchModule = {
  name: 'load',
  columns: ['topology phase', 'load', 'requests', 'rate', 'p50 ms', 'p99 ms', 'errors', 'CPU s/1k srv', 'bal', 'db', 'total'],
  async run() {
    if (!hasWrk()) throw new Error('the load suite drives its HTTP load with wrk: apt-get install wrk (Debian package)');
    const dir = await fsp.mkdtemp(path.join(process.env.BENCH_TMPDIR ?? os.tmpdir(), 'drive-load-'));
    const rows: BenchRow[] = [];
    const metrics: Record<string, number | string> = {
      loadConnections: CONNECTIONS,
      loadSeconds: SECONDS,
      loadWarmupSeconds: WARMUP_SECONDS,
      loadFileMiB: FILE_BYTES / MIB,
    };
    const failures: string[] = [];
    let pacedRps = num('BENCH_LOAD_PACED_RPS', 0);
    try {
      for (const key of TOPOLOGIES) {
        const start = key === 'sqlite1' ? startSqlite1 : key === 'pg3' ? (d: string) => startPg3(d, 3, { restart: KILL_RESTART }) : null;
        if (!start) throw new Error(`BENCH_LOAD_TOPOLOGIES: unknown topology ${key} (sqlite1, pg3)`);
        progress(`${key}: starting`);
        const topology = await start(path.join(dir, key));
        try {
          const result = await runTopology(topology, path.join(dir, key), pacedRps);
          // Every later topology is paced at the first one's offered load.
          if (pacedRps === 0) pacedRps = Math.max(10, Math.round(result.saturatedRps / 2));
          rows.push(...result.rows.map((r) => toRow(topology, r)));
          Object.assign(metrics, result.metrics);
          failures.push(...result.failures);
          if (result.failures.length && topology.logTail()) console.error(`\n[load] ${topology.key}: the last log lines\n${topology.logTail()}`);
        } finally {
          await topology.stop();
        }
      }
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
    metrics.loadPacedRps = pacedRps;
    const sqliteP99 = metrics.loadListP99MsSqlite1;
    const pgP99 = metrics.loadListP99MsPg3;
    if (typeof sqliteP99 === 'number' && typeof pgP99 === 'number') metrics.loadListP99RatioPg3 = r2(pgP99 / sqliteP99);
    metrics.loadCorrectnessFailures = failures.length;
    // The issue's goals, each 'met' or 'not met: why', beside the figures.
    Object.assign(metrics, loadGoals(metrics));
    if (failures.length) {
      // The table and the JSON still print (they are the evidence); the exit code says the run failed.
      console.error(`\n[load] ${failures.length} correctness check(s) failed:\n${failures.slice(0, 40).map((f) => `  - ${f}`).join('\n')}`);
      process.exitCode = 1;
    }
    return { rows, metrics };
  },
};
