/**
 * Browser upload throughput (issue 18): `npm start` (production build), Debian's Chromium logged in on
 * 个人文件, a generated file picked through the real upload input (上传文件, `upload-input`), timed from
 * the pick to the row reading 已完成 (data-state="done"); against `curl -T` of the same file into the raw
 * sink (PUT /api/test/raw-sink?keep=1) in the same run. Rounds are interleaved (browser and curl take
 * turns going first), each on new content under a new name (the engine deduplicates by content), each
 * timed phase after `sync` and a settle (settleBeforeTimedPhase). Reported: the median of the per-round
 * ratios (browserUploadRatio, goal ≥ 0.9 for 1 GiB), the median browser MB/s, and CPU-seconds per GiB
 * of the renderer (page + engine worker + hash workers), Chromium's browser process, its network
 * service, its storage service (IndexedDB), the rest of Chromium (GPU, zygotes, other utilities) and
 * the server; plus the renderer's peak RSS while uploading.
 *
 * A third timed phase per round is Chromium's own ceiling on this machine: the same File sent by one
 * bare XMLHttpRequest from the same page into the same raw sink (no hashing, no engine, no app), so
 * `browserBareXhrRatio` (its MB/s ÷ curl's) says how much of the gap to curl is the browser's own and
 * `browserUploadVsXhrRatio` (median of the rounds' app MB/s ÷ bare XHR MB/s; goal ≥ 0.95 at 1 GiB, issue 43)
 * how close the engine comes to what the browser can do at all. `browserUploadRendererCpuVsXhr` is the
 * renderer's CPU per GiB for the app ÷ for the bare XHR, same run (goal ≤ 2), `browserUploadServerCpuVsRaw`
 * the server's for the app ÷ for curl into the raw sink.
 *
 * A fourth, the floor of any page that shows an upload's progress: the same bare XHR with an
 * `upload.onprogress` listener drawing a minimal bar and percentage (at most once a frame, nothing
 * animated), right beside the app's phase: `browserUploadVsProgressXhrRatio` and
 * `browserUploadRendererCpuVsProgressXhr` compare the app with it. Each phase's row names the load and
 * the CPU other processes took meanwhile (the machine is shared: a slow round is usually a busy one).
 *
 * A fifth, the same bare XHR into the raw sink that also computes the protocol's chunk digest of what
 * it stores (`&digest=1`, on hash threads as the upload path does): the server's share of the app's
 * cost that no client can remove (its streaming sessions record digests the browser never computes;
 * ~0.7 CPU-s per GiB of SHA-256 on this machine's 2 cores, which Chromium's network service needs too).
 * `browserUploadVsDigestXhrRatio` compares the app with it.
 *
 * BENCH_BROWSER_UPLOAD_MB (default 1024) sets the size, BENCH_BROWSER_UPLOAD_ROUNDS (default 3) the rounds.
 *
 * Profile mode, BENCH_BROWSER_PROFILE=<dir>: no timed rounds and no curl; the app is built unminified
 * and the server runs under `node --cpu-prof` (lib/browser-drive), ONE browser upload is recorded with
 * a Chromium trace (every process; V8 sampling profiles of the page and its workers), and the top
 * self-time functions per thread and of the server are printed and written to <dir>/summary.txt.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeGeneratedFile } from '../../support/drive-server';
import { openBrowserDrive, waitForUploadDone, type BrowserDrive } from '../lib/browser-drive';
import { cpuDelta, cpuSnapshot, rendererRss, rendererThreadRoles, sampleChromiumMemory, threadRolesDelta, type CpuByKind } from '../lib/chromium-procs';
import { recordBrowserProfile } from '../lib/browser-profile';
import { megabytesPerSecond, MIB, type BenchModule, type BenchRow } from '../lib/report';
import { GiB, round1, round3, settleBeforeTimedPhase } from '../lib/transfer-context';
import { median } from '../lib/median';
import { hasCurl, rawUploadCurl, rawUploadNode } from './upload';
import { machineBusySeconds, timedBareXhr, type BareXhrOptions } from '../lib/bare-xhr';

const SIZE = Math.round(Number(process.env.BENCH_BROWSER_UPLOAD_MB ?? 1024) * MIB);
const ROUNDS = Math.max(1, Number(process.env.BENCH_BROWSER_UPLOAD_ROUNDS ?? 3));
const PROFILE_DIR = process.env.BENCH_BROWSER_PROFILE;
/** BENCH_BROWSER_PROFILE_WARMUP=1: one untraced upload first, so the traced one is like rounds 2 and 3. */
const PROFILE_WARMUP = process.env.BENCH_BROWSER_PROFILE_WARMUP === '1';
/** Ten minutes per GiB at least: a stuck upload fails the suite instead of hanging it. */
const UPLOAD_TIMEOUT_MS = Math.max(600_000, (SIZE / GiB) * 600_000);

export interface BrowserUploadResult {
  ms: number;
  cpu: CpuByKind;
  baselineRendererBytes: number;
  rendererPeakBytes: number;
  othersPeakBytes: number;
  /** The renderer's CPU-seconds by thread role (rendererThreadRoles: main = the page). */
  rendererThreads: Map<string, number>;
}

/** Picks `file` through 个人文件's upload input and waits for its row to read 已完成. */
export async function timedBrowserUpload(drive: BrowserDrive, file: string): Promise<BrowserUploadResult> {
  const name = path.basename(file);
  const baselineRendererBytes = rendererRss();
  const memory = sampleChromiumMemory();
  const cpu0 = cpuSnapshot(drive.serverPid);
  const threads0 = rendererThreadRoles();
  const started = performance.now();
  await drive.page.getByTestId('upload-input').setInputFiles(file);
  await waitForUploadDone(drive.page, name, UPLOAD_TIMEOUT_MS);
  const ms = performance.now() - started;
  const cpu = cpuDelta(cpu0, cpuSnapshot(drive.serverPid));
  const rendererThreads = threadRolesDelta(threads0, rendererThreadRoles());
  const peaks = memory.stop();
  return { ms, cpu, baselineRendererBytes, rendererPeakBytes: peaks.rendererPeak, othersPeakBytes: peaks.othersPeak, rendererThreads };
}

/** A generated file (new random content) of `size` bytes in a fresh temp directory, named uniquely. */
async function newFile(dir: string, label: string, size: number): Promise<string> {
  const file = path.join(dir, `${label}-${Date.now()}.bin`);
  await writeGeneratedFile(file, size);
  return file;
}

/** The bare-XHR phases of a round (lib/bare-xhr.ts): alone, with the progress floor, into the digesting sink. */
type XhrPhase = 'bare' | 'floor' | 'digest';

const perGiB = (seconds: number, bytes: number): number => seconds / (bytes / GiB);
const cell = (n: number, digits = 2): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');

async function runProfile(profileDir: string): Promise<{ rows: BenchRow[]; metrics: Record<string, number | string> }> {
  const fileDir = await fsp.mkdtemp(path.join(process.env.BENCH_TMPDIR ?? os.tmpdir(), 'drive-bench-browser-profile-'));
  let file = '';
  let result: BrowserUploadResult | null = null;
  try {
    const { report } = await recordBrowserProfile(
      profileDir,
      'browser-profile',
      async (drive) => {
        if (PROFILE_WARMUP) {
          // As rounds 2 and 3 are: the panel already open, an earlier upload's row in it.
          const warm = await newFile(fileDir, 'warm-up-upload', SIZE);
          await timedBrowserUpload(drive, warm);
          await fsp.rm(warm, { force: true });
        }
        file = await newFile(fileDir, 'profiled-upload', SIZE);
        await settleBeforeTimedPhase();
      },
      async (drive) => {
        const r = await timedBrowserUpload(drive, file);
        result = r;
        const cpu = Object.fromEntries(Object.entries(r.cpu).map(([k, v]) => [k, round3(v)]));
        return `profiled browser upload of ${SIZE / MIB} MiB: ${(r.ms / 1000).toFixed(2)} s, ${megabytesPerSecond(SIZE, r.ms).toFixed(0)} MB/s (traced: slower than unprofiled)\nCPU s: ${JSON.stringify(cpu)}`;
      },
    );
    console.log(report);
  } finally {
    await fsp.rm(fileDir, { recursive: true, force: true });
  }
  const r = result as BrowserUploadResult | null;
  const mbps = r ? megabytesPerSecond(SIZE, r.ms) : NaN;
  return {
    rows: [{ label: `profiled upload (see ${path.join(profileDir, 'summary.txt')})`, cells: { MiB: String(SIZE / MIB), seconds: r ? (r.ms / 1000).toFixed(2) : '-', 'MB/s': mbps.toFixed(0) } }],
    metrics: { browserProfiledUploadMBps: round1(mbps) },
  };
}

export const browserUploadBenchmark: BenchModule = {
  name: 'browser-upload',
  columns: ['what', 'MiB', 'seconds', 'MB/s', 'ratio', 'renderer CPU s', 'browser CPU s', 'network CPU s', 'storage CPU s', 'other Chromium CPU s', 'server CPU s', 'renderer peak MiB'],
  async run() {
    if (PROFILE_DIR) return runProfile(path.resolve(PROFILE_DIR));
    const fileDir = await fsp.mkdtemp(path.join(process.env.BENCH_TMPDIR ?? os.tmpdir(), 'drive-bench-browser-upload-'));
    const drive = await openBrowserDrive('browser-upload');
    const rows: BenchRow[] = [];
    const ratios: number[] = [];
    const browserRates: number[] = [];
    const rawRates: number[] = [];
    const bareRates: number[] = [];
    const cpus: CpuByKind[] = [];
    /** The bare XHR's CPU: what sending the File costs Chromium and the server with no app at all (the floor). */
    const bareCpus: CpuByKind[] = [];
    /** The bare XHR with a minimal progress bar (the floor of a page that shows progress): MB/s and CPU. */
    const floorRates: number[] = [];
    const floorCpus: CpuByKind[] = [];
    /** The bare XHR into the sink that digests (the ceiling of a server that hashes what it stores). */
    const digestRates: number[] = [];
    const digestServerCpus: number[] = [];
    const rawServerCpus: number[] = [];
    /** The app's renderer CPU by thread role, per round. */
    const threadRounds: Map<string, number>[] = [];
    let rendererPeak = 0;
    let rendererBaseline = Infinity;
    try {
      const cookie = await drive.cookie();
      const curl = hasCurl();
      const rawUpload = (file: string) => (curl ? rawUploadCurl(drive.app.baseUrl, cookie, file) : rawUploadNode(drive.app.baseUrl, cookie, file, SIZE));
      for (let round = 0; round < ROUNDS; round++) {
        const file = await newFile(fileDir, `browser-upload-r${round + 1}`, SIZE);
        /** The 1-minute load average across each timed phase (the machine is shared): "start → end". */
        const loads: Record<string, string> = {};
        /** The machine's busy CPU-seconds across each phase: beside the measured processes' own, what others took. */
        const busy: Record<string, number> = {};
        const withLoad = async (phase: string, run: () => Promise<void>) => {
          await settleBeforeTimedPhase();
          const before = os.loadavg()[0]!.toFixed(1);
          const busy0 = machineBusySeconds();
          await run();
          busy[phase] = machineBusySeconds() - busy0;
          loads[phase] = `load ${before} → ${os.loadavg()[0]!.toFixed(1)}`;
        };
        const ours = (c: CpuByKind) => Object.values(c).reduce((a, b) => a + b, 0);
        const timed: { browser?: BrowserUploadResult } = {};
        let rawMs = 0;
        let rawCpu = NaN;
        const xhr: Partial<Record<XhrPhase, { ms: number; cpu: CpuByKind }>> = {};
        const timeXhr = (phase: XhrPhase, options: BareXhrOptions = {}) =>
          withLoad(phase, async () => {
            const cpu0 = cpuSnapshot(drive.serverPid);
            const ms = await timedBareXhr(drive, file, options);
            xhr[phase] = { ms, cpu: cpuDelta(cpu0, cpuSnapshot(drive.serverPid)) };
          });
        const timeBare = () => timeXhr('bare');
        const timeFloor = () => timeXhr('floor', { withProgress: true });
        const timeDigest = () => timeXhr('digest', { digest: true });
        const timeBrowser = () =>
          withLoad('app', async () => {
            timed.browser = await timedBrowserUpload(drive, file);
          });
        const timeRaw = () =>
          withLoad('raw', async () => {
            const cpu0 = cpuSnapshot(drive.serverPid);
            rawMs = await rawUpload(file);
            rawCpu = cpuDelta(cpu0, cpuSnapshot(drive.serverPid)).server;
          });
        // The app goes first in even rounds and last in odd ones; the floor always right beside it, the
        // digesting sink next.
        if (round % 2 === 0) {
          await timeBrowser();
          await timeFloor();
          await timeDigest();
          await timeRaw();
          await timeBare();
        } else {
          await timeBare();
          await timeRaw();
          await timeDigest();
          await timeFloor();
          await timeBrowser();
        }
        await fsp.rm(file, { force: true });
        const b = timed.browser!;
        const { bare, floor, digest } = xhr as Required<typeof xhr>;
        const browserMBps = megabytesPerSecond(SIZE, b.ms);
        const rawMBps = megabytesPerSecond(SIZE, rawMs);
        browserRates.push(browserMBps);
        rawRates.push(rawMBps);
        const bareMBps = megabytesPerSecond(SIZE, bare.ms);
        bareRates.push(bareMBps);
        const floorMBps = megabytesPerSecond(SIZE, floor.ms);
        floorRates.push(floorMBps);
        const digestMBps = megabytesPerSecond(SIZE, digest.ms);
        digestRates.push(digestMBps);
        digestServerCpus.push(digest.cpu.server);
        floorCpus.push(floor.cpu);
        ratios.push(browserMBps / rawMBps);
        cpus.push(b.cpu);
        threadRounds.push(b.rendererThreads);
        bareCpus.push(bare.cpu);
        rawServerCpus.push(rawCpu);
        rendererPeak = Math.max(rendererPeak, b.rendererPeakBytes);
        rendererBaseline = Math.min(rendererBaseline, b.baselineRendererBytes);
        const mib = (SIZE / MIB).toFixed(0);
        rows.push({ label: `round ${round + 1}: raw, ${curl ? 'curl -T' : 'Node http PUT'} → /api/test/raw-sink (${loads.raw})`, cells: { MiB: mib, seconds: (rawMs / 1000).toFixed(2), 'MB/s': rawMBps.toFixed(0), ratio: '1.00', 'server CPU s': cell(rawCpu) } });
        // The bare phases' rows: the XHR alone, with a minimal progress bar (the floor), into the digesting sink.
        const bareRow = (what: string, phase: XhrPhase, mbps: number): BenchRow => {
          const { ms, cpu } = xhr[phase]!;
          return {
            label: `round ${round + 1}: Chromium, ${what} (${loads[phase]}; other processes ${cell(busy[phase]! - ours(cpu), 1)} CPU-s)`,
            cells: {
              MiB: mib,
              seconds: (ms / 1000).toFixed(2),
              'MB/s': mbps.toFixed(0),
              ratio: (mbps / rawMBps).toFixed(2),
              'renderer CPU s': cell(cpu.renderer),
              'browser CPU s': cell(cpu.browser),
              'network CPU s': cell(cpu.network),
              'server CPU s': cell(cpu.server),
            },
          };
        };
        rows.push(bareRow('one bare XHR of the File → raw sink', 'bare', bareMBps));
        rows.push(bareRow('bare XHR with a minimal progress bar → raw sink, the floor', 'floor', floorMBps));
        rows.push(bareRow('one bare XHR of the File → raw sink that digests it (&digest=1)', 'digest', digestMBps));
        const other = b.cpu.gpu + b.cpu.utility + b.cpu.zygote + b.cpu.other;
        rows.push({
          label: `round ${round + 1}: Chromium, 上传文件 pick → 已完成 (${loads.app}; other processes ${cell(busy.app! - ours(b.cpu), 1)} CPU-s)`,
          cells: {
            MiB: mib,
            seconds: (b.ms / 1000).toFixed(2),
            'MB/s': browserMBps.toFixed(0),
            ratio: (browserMBps / rawMBps).toFixed(2),
            'renderer CPU s': cell(b.cpu.renderer),
            'browser CPU s': cell(b.cpu.browser),
            'network CPU s': cell(b.cpu.network),
            'storage CPU s': cell(b.cpu.storage),
            'other Chromium CPU s': cell(other),
            'server CPU s': cell(b.cpu.server),
            'renderer peak MiB': (b.rendererPeakBytes / MIB).toFixed(0),
          },
        });
      }
    } finally {
      await drive.close();
      await fsp.rm(fileDir, { recursive: true, force: true });
    }
    const med = (pick: (c: CpuByKind) => number) => median(cpus.map((c) => perGiB(pick(c), SIZE)));
    const perGiBCpu = {
      renderer: med((c) => c.renderer),
      browser: med((c) => c.browser),
      network: med((c) => c.network),
      storage: med((c) => c.storage),
      other: med((c) => c.gpu + c.utility + c.zygote + c.other),
      server: med((c) => c.server),
      rawServer: median(rawServerCpus.map((s) => perGiB(s, SIZE))),
    };
    const bareMed = (pick: (c: CpuByKind) => number) => median(bareCpus.map((c) => perGiB(pick(c), SIZE)));
    const floorRendererPerGiB = median(floorCpus.map((c) => perGiB(c.renderer, SIZE)));
    const vsFloor = median(browserRates.map((b, i) => b / floorRates[i]!));
    const bareCpuPerGiB = { renderer: bareMed((c) => c.renderer), browser: bareMed((c) => c.browser), network: bareMed((c) => c.network), server: bareMed((c) => c.server) };
    const ratio = median(ratios);
    const bareRatio = median(bareRates.map((b, i) => b / rawRates[i]!));
    const vsBare = median(browserRates.map((b, i) => b / bareRates[i]!));
    const vsDigest = median(browserRates.map((b, i) => b / digestRates[i]!));
    const digestServerPerGiB = median(digestServerCpus.map((s) => perGiB(s, SIZE)));
    rows.push({ label: `median of ${ROUNDS} rounds: Chromium / raw`, cells: { 'MB/s': `${median(browserRates).toFixed(0)} / ${median(rawRates).toFixed(0)}`, ratio: ratio.toFixed(2) } });
    rows.push({ label: `median: bare XHR / raw (the browser's ceiling); app / bare XHR ${vsBare.toFixed(2)}`, cells: { 'MB/s': `${median(bareRates).toFixed(0)} / ${median(rawRates).toFixed(0)}`, ratio: bareRatio.toFixed(2) } });
    rows.push({
      label: 'CPU-seconds per GiB, median (raw: server only)',
      cells: {
        'renderer CPU s': cell(perGiBCpu.renderer),
        'browser CPU s': cell(perGiBCpu.browser),
        'network CPU s': cell(perGiBCpu.network),
        'storage CPU s': cell(perGiBCpu.storage),
        'other Chromium CPU s': cell(perGiBCpu.other),
        'server CPU s': `${cell(perGiBCpu.server)} (raw ${cell(perGiBCpu.rawServer)})`,
      },
    });
    rows.push({
      label: 'CPU-seconds per GiB, bare XHR, median (the floor)',
      cells: { 'renderer CPU s': cell(bareCpuPerGiB.renderer), 'browser CPU s': cell(bareCpuPerGiB.browser), 'network CPU s': cell(bareCpuPerGiB.network), 'server CPU s': cell(bareCpuPerGiB.server) },
    });
    const rendererVsXhr = perGiBCpu.renderer / bareCpuPerGiB.renderer;
    const rendererVsFloor = perGiBCpu.renderer / floorRendererPerGiB;
    rows.push({
      label: `median: bare XHR with a progress bar (the floor) ${median(floorRates).toFixed(0)} MB/s, renderer ${cell(floorRendererPerGiB)} CPU-s/GiB; app / floor ${vsFloor.toFixed(2)}, renderer app / floor ${rendererVsFloor.toFixed(2)}`,
      cells: {},
    });
    // Which of the renderer's threads the app's CPU went to (median per GiB; roles under 0.01 left out).
    const roles = [...new Set(threadRounds.flatMap((m) => [...m.keys()]))];
    const threadsPerGiB = roles
      .map((role) => ({ role, s: median(threadRounds.map((m) => perGiB(m.get(role) ?? 0, SIZE))) }))
      .filter((r) => r.s >= 0.01)
      .sort((a, b) => b.s - a.s)
      .map((r) => `${r.role} ${r.s.toFixed(2)}`)
      .join(' · ');
    rows.push({ label: `renderer CPU-s per GiB by thread, app, median: ${threadsPerGiB}`, cells: {} });
    rows.push({
      label: `median: bare XHR into the sink that digests ${median(digestRates).toFixed(0)} MB/s, server ${cell(digestServerPerGiB)} CPU-s/GiB; app / digesting sink ${vsDigest.toFixed(2)}`,
      cells: {},
    });
    rows.push({
      label: `goals (issue 43): app / bare XHR ${vsBare.toFixed(2)} (≥ 0.95), renderer CPU app / bare XHR ${rendererVsXhr.toFixed(2)} (≤ 2)`,
      cells: {},
    });
    return {
      rows,
      metrics: {
        browserUploadBytes: SIZE,
        browserUploadRounds: ROUNDS,
        browserUploadRatio: round3(ratio),
        browserUploadRatioRounds: ratios.map(round3).join(' '),
        browserUploadMBps: round1(median(browserRates)),
        browserRawUploadMBps: round1(median(rawRates)),
        browserBareXhrMBps: round1(median(bareRates)),
        browserBareXhrRatio: round3(bareRatio),
        browserUploadVsXhrRatio: round3(vsBare),
        browserUploadVsXhrRatioRounds: browserRates.map((b, i) => round3(b / bareRates[i]!)).join(' '),
        browserUploadRendererCpuVsXhr: round3(rendererVsXhr),
        browserDigestXhrMBps: round1(median(digestRates)),
        browserDigestXhrServerCpuSecondsPerGiB: round3(digestServerPerGiB),
        browserUploadVsDigestXhrRatio: round3(vsDigest),
        browserUploadVsDigestXhrRatioRounds: browserRates.map((b, i) => round3(b / digestRates[i]!)).join(' '),
        browserProgressXhrMBps: round1(median(floorRates)),
        browserProgressXhrRendererCpuSecondsPerGiB: round3(floorRendererPerGiB),
        browserUploadVsProgressXhrRatio: round3(vsFloor),
        browserUploadVsProgressXhrRatioRounds: browserRates.map((b, i) => round3(b / floorRates[i]!)).join(' '),
        browserUploadRendererCpuVsProgressXhr: round3(rendererVsFloor),
        browserUploadRendererThreadsCpuSecondsPerGiB: threadsPerGiB,
        browserUploadServerCpuVsRaw: round3(perGiBCpu.server / perGiBCpu.rawServer),
        browserUploadRendererCpuSecondsPerGiB: round3(perGiBCpu.renderer),
        browserUploadBrowserCpuSecondsPerGiB: round3(perGiBCpu.browser),
        browserUploadNetworkCpuSecondsPerGiB: round3(perGiBCpu.network),
        browserUploadStorageCpuSecondsPerGiB: round3(perGiBCpu.storage),
        browserUploadOtherChromiumCpuSecondsPerGiB: round3(perGiBCpu.other),
        browserUploadServerCpuSecondsPerGiB: round3(perGiBCpu.server),
        browserRawUploadServerCpuSecondsPerGiB: round3(perGiBCpu.rawServer),
        browserBareXhrRendererCpuSecondsPerGiB: round3(bareCpuPerGiB.renderer),
        browserBareXhrBrowserCpuSecondsPerGiB: round3(bareCpuPerGiB.browser),
        browserBareXhrNetworkCpuSecondsPerGiB: round3(bareCpuPerGiB.network),
        browserBareXhrServerCpuSecondsPerGiB: round3(bareCpuPerGiB.server),
        browserUploadRendererPeakMB: round1(rendererPeak / MIB),
        browserUploadRendererBaselineMB: round1(rendererBaseline / MIB),
      },
    };
  },
};
