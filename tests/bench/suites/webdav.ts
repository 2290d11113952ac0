/**
 * WebDAV (issue 39) against the web engine, on the transfer benches' server child, in the same run:
 *  - 1 GiB: `rclone copy` of a generated file to /dav/个人文件/ (WebDAV remote, vendor other, rclone's
 *    defaults), the Node engine uploading another file of that size (enqueue → done, hashing included),
 *    and `curl -T` of the rclone file into the raw sink, BENCH_DAV_ROUNDS (3) interleaved rounds of new
 *    content, each timed phase after `sync` and the settle (lib/transfer-context). davUploadRatio =
 *    rclone MB/s ÷ curl's, the baseline every upload ratio here uses (uploadRatio, browserUploadRatio);
 *    davVsEngineUploadRatio = rclone ÷ engine.
 *  - 1,000 small files (4 KiB, 10 × 10 × 10 folders, as browser-small-files): `rclone copy` of the tree
 *    against the Node engine's folder upload (enqueueFolder) of another tree of that shape, BENCH_DAV_SMALL_ROUNDS (3)
 *    rounds: davSmallFilesPerSecond, engineSmallFilesPerSecond (medians), every file checked stored.
 *  - 4 GiB PUT (lib/dav-put-memory.ts) to a fresh server started as `npm start` starts it: its peak RSS
 *    while one PUT streams a generated 4 GiB body, davPut4GiBPeakMB (absolute: the issue's ≤ 200 MB),
 *    with its idle RSS and the growth over it beside.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { ADMIN } from '../../server/helpers';
import { createNodeEngine, waitUntilSettled } from '../../replay/engine-harness';
import { openFileSource } from '../../replay/node-runtime';
import { devicePassword, rcloneSetup, run } from '../../support/dav-clients';
import { freePort, startServerProcess, withServerDb, writeGeneratedFile } from '../../support/drive-server';
import { putMeasuringServer, type PutMemory } from '../lib/dav-put-memory';
import { npmStartServer } from '../../support/npm-start-args';
import { median } from '../lib/median';
import { procCpuSeconds } from '../lib/proc-cpu';
import { megabytesPerSecond, MIB, type BenchModule, type BenchRow } from '../lib/report';
import { GiB, round1, round3, settleBeforeTimedPhase, transferContext, type TransferContext } from '../lib/transfer-context';
import { hasCurl, rawUploadCurl, rawUploadNode } from './upload';

const ROUNDS = Math.max(1, Number(process.env.BENCH_DAV_ROUNDS ?? 3));
const SMALL_ROUNDS = Math.max(1, Number(process.env.BENCH_DAV_SMALL_ROUNDS ?? 3));
const SMALL_COUNT = 1000;
const SMALL_BYTES = 4096;
const FAN_OUT = 10;
const PUT_BYTES = 4 * GiB;
/** BENCH_DAV_PARTS: which parts run (upload = 1 GiB, small = 1,000 files, put = 4 GiB memory); default all. */
const PARTS = new Set((process.env.BENCH_DAV_PARTS ?? 'upload,small,put').split(',').map((p) => p.trim()));

/** COUNT files of random bytes under `root` (root/dA/dB/fC.bin), as browser-small-files writes them; relative paths. */
async function writeTree(root: string): Promise<string[]> {
  const files: string[] = [];
  for (let i = 0; i < SMALL_COUNT; i++) {
    const rel = path.join(`d${Math.floor(i / (FAN_OUT * FAN_OUT))}`, `d${Math.floor(i / FAN_OUT) % FAN_OUT}`, `f${i % FAN_OUT}-${i}.bin`);
    if (i % FAN_OUT === 0) await fsp.mkdir(path.join(root, path.dirname(rel)), { recursive: true });
    await fsp.writeFile(path.join(root, rel), randomBytes(SMALL_BYTES));
    files.push(rel);
  }
  return files;
}

/** Files (not folders) the server stored since `sinceMs`. */
function filesStoredSince(dataDir: string, sinceMs: number): Promise<number> {
  return withServerDb(dataDir, (db) => (db.prepare('select count(*) as n from files where is_dir = 0 and created_at >= ?').get(sinceMs) as { n: number }).n);
}

interface Rclone {
  /** `rclone copy from dav:to`, timed (rclone's own start included: a user's copy includes it too). */
  copy(from: string, to: string): Promise<number>;
}

async function rcloneFor(ctx: TransferContext): Promise<Rclone> {
  const password = await devicePassword(ctx.dataDir, ADMIN.username, 'bench-webdav');
  const dir = path.join(ctx.dir, 'rclone');
  const setup = await rcloneSetup({ server: ctx.server, user: ADMIN.username, password }, dir);
  return {
    async copy(from, to) {
      const started = performance.now();
      const r = await run('rclone', [...setup.args, 'copy', '-q', from, `dav:${to}`], { cwd: dir, env: setup.env, timeoutMs: 900_000 });
      const ms = performance.now() - started;
      if (r.code !== 0) throw new Error(`rclone copy ${from} → ${to} exited ${r.code}: ${r.stderr.slice(-2000)}`);
      return ms;
    },
  };
}

/**
 * The 4 GiB PUT on a server process of its own, started as `npm start` starts it (the built bundle and
 * its node flags: the memory a user's server has, not tsx compiling sources) and fresh (its idle RSS
 * is a server's, not what the suites before left in a long-lived one), on a data directory of its own
 * that goes afterwards.
 */
async function putFourGiB(ctx: TransferContext): Promise<PutMemory> {
  const dataDir = path.join(ctx.dir, 'put-server');
  const server = await startServerProcess({ dataDir, port: await freePort(), nodeArgs: await npmStartServer() });
  try {
    const password = await devicePassword(dataDir, ADMIN.username, 'bench-webdav-put');
    const auth = { authorization: `Basic ${Buffer.from(`${ADMIN.username}:${password}`).toString('base64')}` };
    await settleBeforeTimedPhase();
    const put = await putMeasuringServer(`${server.url}/dav/${encodeURIComponent('个人文件')}/bench-put-4gib.bin`, auth, PUT_BYTES, server.child.pid ?? -1);
    if (put.status !== 201) throw new Error(`the 4 GiB PUT answered ${put.status}`);
    return put;
  } finally {
    await server.stop();
    await fsp.rm(dataDir, { recursive: true, force: true });
  }
}

const cpuCell = (s: number): string => (Number.isFinite(s) ? s.toFixed(2) : '-');

export const webdavBenchmark: BenchModule = {
  name: 'webdav',
  columns: ['what', 'MiB', 'files', 'seconds', 'MB/s', 'files/s', 'ratio', 'server CPU s', 'server RSS MiB'],
  async run() {
    const ctx = await transferContext();
    const serverPid = ctx.server.child.pid ?? -1;
    const rclone = await rcloneFor(ctx);
    const curl = hasCurl();
    const rows: BenchRow[] = [];
    const rates = { rclone: [] as number[], engine: [] as number[], raw: [] as number[] };
    const small = { rclone: [] as number[], engine: [] as number[] };
    const { engine, close } = createNodeEngine(ctx.server.url, ctx.jar);
    const work = path.join(ctx.dir, 'webdav');
    await fsp.mkdir(work, { recursive: true });
    try {
      for (let round = 0; PARTS.has('upload') && round < ROUNDS; round++) {
        // New content each round and each client (the engine would otherwise send nothing: a second upload).
        const size = GiB + 100 + round;
        const davDir = path.join(work, `dav-${round}`);
        await fsp.mkdir(davDir, { recursive: true });
        const davFile = path.join(davDir, `dav-round-${round}.bin`);
        const engineFile = path.join(work, `engine-round-${round}.bin`);
        await writeGeneratedFile(davFile, size);
        await writeGeneratedFile(engineFile, size);
        const timed = async (fn: () => Promise<number>) => {
          await settleBeforeTimedPhase();
          const cpu0 = procCpuSeconds(serverPid);
          const ms = await fn();
          return { ms, cpu: procCpuSeconds(serverPid) - cpu0 };
        };
        const phases = {
          rclone: () => timed(() => rclone.copy(davDir, `个人文件/bench-dav-${round}`)),
          engine: () =>
            timed(async () => {
              const started = performance.now();
              const [id] = await engine.enqueueUploads([await openFileSource(engineFile)], { parentId: null, category: 1 });
              const s = await waitUntilSettled(engine, { ids: [id!], timeoutMs: 900_000, pollMs: 10 });
              const item = s.items.find((i) => i.id === id)!;
              if (item.state !== 'done') throw new Error(`engine upload ended ${item.state}: ${item.lastError}`);
              return performance.now() - started;
            }),
          raw: () => timed(() => (curl ? rawUploadCurl(ctx.server.url, ctx.jar.cookie(), davFile) : rawUploadNode(ctx.server.url, ctx.jar.cookie(), davFile, size))),
        };
        // Who goes first turns each round, so drift over the run cancels out.
        const order = (['rclone', 'engine', 'raw'] as const).map((_, i, all) => all[(i + round) % all.length]!);
        const results: Partial<Record<keyof typeof phases, { ms: number; cpu: number }>> = {};
        for (const phase of order) results[phase] = await phases[phase]();
        const mib = (size / MIB).toFixed(0);
        const raw = megabytesPerSecond(size, results.raw!.ms);
        for (const phase of ['raw', 'engine', 'rclone'] as const) {
          const mbps = megabytesPerSecond(size, results[phase]!.ms);
          rates[phase].push(mbps);
          const label = { raw: `raw, ${curl ? 'curl -T' : 'Node http PUT'} → /api/test/raw-sink`, engine: 'engine (Node, hashing included, enqueue → done)', rclone: 'rclone copy → /dav/个人文件/' }[phase];
          rows.push({ label: `round ${round + 1}: ${label}`, cells: { MiB: mib, seconds: (results[phase]!.ms / 1000).toFixed(2), 'MB/s': mbps.toFixed(0), ratio: (mbps / raw).toFixed(2), 'server CPU s': cpuCell(results[phase]!.cpu) } });
        }
        await fsp.rm(davDir, { recursive: true, force: true });
        await fsp.rm(engineFile, { force: true });
      }
      // The raw sink's kept copies served their purpose.
      await fsp.rm(path.join(ctx.dataDir, 'tmp', 'raw-sink'), { recursive: true, force: true });

      for (let round = 0; PARTS.has('small') && round < SMALL_ROUNDS; round++) {
        const davRoot = path.join(work, `small-dav-${round}`);
        const engineRoot = path.join(work, `small-engine-${round}`);
        await writeTree(davRoot);
        const engineFiles = await writeTree(engineRoot);
        const timeRclone = async () => {
          await settleBeforeTimedPhase();
          const since = Date.now() - 1000;
          const cpu0 = procCpuSeconds(serverPid);
          const ms = await rclone.copy(davRoot, `个人文件/bench-small-dav-${round}`);
          const cpu = procCpuSeconds(serverPid) - cpu0;
          const stored = await filesStoredSince(ctx.dataDir, since);
          if (stored < SMALL_COUNT) throw new Error(`rclone finished but the server stored ${stored} of ${SMALL_COUNT} files`);
          return { ms, cpu };
        };
        const timeEngine = async () => {
          const entries = await Promise.all(engineFiles.map(async (rel) => ({ relativePath: `bench-small-engine-${round}/${rel.split(path.sep).join('/')}`, file: await openFileSource(path.join(engineRoot, rel)) })));
          await settleBeforeTimedPhase();
          const since = Date.now() - 1000;
          const cpu0 = procCpuSeconds(serverPid);
          const started = performance.now();
          const ids = await engine.enqueueFolder(entries, { parentId: null, category: 1 });
          const s = await waitUntilSettled(engine, { ids, timeoutMs: 900_000, pollMs: 20 });
          const ms = performance.now() - started;
          const cpu = procCpuSeconds(serverPid) - cpu0;
          const failed = s.items.filter((i) => ids.includes(i.id) && i.state !== 'done');
          if (failed.length > 0) throw new Error(`engine folder upload: ${failed.length} not done, e.g. ${failed[0]!.name} ${failed[0]!.state} ${failed[0]!.lastError}`);
          const stored = await filesStoredSince(ctx.dataDir, since);
          if (stored < SMALL_COUNT) throw new Error(`the engine finished but the server stored ${stored} of ${SMALL_COUNT} files`);
          return { ms, cpu };
        };
        const first = round % 2 === 0 ? await timeRclone() : await timeEngine();
        const second = round % 2 === 0 ? await timeEngine() : await timeRclone();
        const [r, e] = round % 2 === 0 ? [first, second] : [second, first];
        small.rclone.push(SMALL_COUNT / (r.ms / 1000));
        small.engine.push(SMALL_COUNT / (e.ms / 1000));
        const cells = (t: { ms: number; cpu: number }, vs: number) => ({ files: String(SMALL_COUNT), seconds: (t.ms / 1000).toFixed(2), 'files/s': (SMALL_COUNT / (t.ms / 1000)).toFixed(1), ratio: vs.toFixed(2), 'server CPU s': cpuCell(t.cpu) });
        rows.push({ label: `small round ${round + 1}: engine folder upload (Node, enqueueFolder)`, cells: cells(e, 1) });
        rows.push({ label: `small round ${round + 1}: rclone copy → /dav/个人文件/`, cells: cells(r, e.ms / r.ms) });
        await fsp.rm(davRoot, { recursive: true, force: true });
        await fsp.rm(engineRoot, { recursive: true, force: true });
      }
    } finally {
      await close();
    }

    const put = PARTS.has('put') ? await putFourGiB(ctx) : null;
    if (put) rows.push({ label: `PUT of 4 GiB (generated body), a server of its own: RSS idle → peak (${put.samples} samples)`, cells: { MiB: '4096', seconds: (put.ms / 1000).toFixed(1), 'MB/s': megabytesPerSecond(PUT_BYTES, put.ms).toFixed(0), 'server RSS MiB': `${put.baselineMB.toFixed(0)} → ${put.peakMB.toFixed(0)}` } });

    const metrics: Record<string, number | string> = {};
    if (rates.rclone.length > 0) {
      const davUploadRatio = median(rates.rclone.map((r, i) => r / rates.raw[i]!));
      const davVsEngine = median(rates.rclone.map((r, i) => r / rates.engine[i]!));
      rows.push({ label: `median of ${ROUNDS}: rclone / raw (davUploadRatio); rclone / engine ${davVsEngine.toFixed(2)}`, cells: { 'MB/s': `${median(rates.rclone).toFixed(0)} / ${median(rates.raw).toFixed(0)}`, ratio: davUploadRatio.toFixed(2) } });
      Object.assign(metrics, {
        davUploadRatio: round3(davUploadRatio),
        davUploadRatioRounds: rates.rclone.map((r, i) => round3(r / rates.raw[i]!)).join(' '),
        davUploadMBps: round1(median(rates.rclone)),
        davEngineUploadMBps: round1(median(rates.engine)),
        davRawUploadMBps: round1(median(rates.raw)),
        davVsEngineUploadRatio: round3(davVsEngine),
      });
    }
    if (small.rclone.length > 0) {
      rows.push({ label: `median of ${SMALL_ROUNDS}: small files rclone / engine`, cells: { 'files/s': `${median(small.rclone).toFixed(1)} / ${median(small.engine).toFixed(1)}`, ratio: (median(small.rclone) / median(small.engine)).toFixed(2) } });
      Object.assign(metrics, {
        davSmallFilesPerSecond: round1(median(small.rclone)),
        davSmallFilesPerSecondRounds: small.rclone.map(round1).join(' '),
        davEngineSmallFilesPerSecond: round1(median(small.engine)),
        davSmallFilesVsEngine: round3(median(small.rclone) / median(small.engine)),
      });
    }
    if (put) {
      Object.assign(metrics, { davPut4GiBPeakMB: round1(put.peakMB), davPut4GiBIdleMB: round1(put.baselineMB), davPut4GiBGrowthMB: round1(put.peakMB - put.baselineMB), davPut4GiBMBps: round1(megabytesPerSecond(PUT_BYTES, put.ms)) });
    }
    return { rows, metrics };
  },
};
