/**
 * Many small files through the browser (issue 18): `npm start`, Chromium logged in on 个人文件, a
 * generated folder of BENCH_SMALL_FILES_COUNT (1,000) files of 4 KiB in nested folders (10 × 10 × 10)
 * picked through 上传文件夹 (`upload-folder-input`, an <input webkitdirectory>), timed from the pick until
 * the upload list holds every file and none unfinished, then checked against the server's database (every
 * file stored). Beside it in the same run, interleaved: the same files PUT one after another into the raw
 * sink (PUT /api/test/raw-sink?keep=1, one kept, fsynced file per request, one keep-alive connection).
 * smallFilesPerSecond (goal ≥ 150) and rawSinkFilesPerSecond are medians over BENCH_SMALL_FILES_ROUNDS (3)
 * rounds, each on new content under a new folder name (the engine deduplicates by content).
 *
 * Profile mode, BENCH_BROWSER_PROFILE=<dir>: one traced folder upload, no raw loop (lib/browser-profile).
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clientHeaders } from '../../../common/api/client-env';
import { withServerDb } from '../../support/drive-server';
import { recordBrowserProfile } from '../lib/browser-profile';
import { openBrowserDrive, waitForAllUploadsFinished, type BrowserDrive } from '../lib/browser-drive';
import { cpuDelta, cpuSnapshot, type CpuByKind } from '../lib/chromium-procs';
import type { BenchModule, BenchRow } from '../lib/report';
import { round1, round3, settleBeforeTimedPhase } from '../lib/transfer-context';
import { median } from '../lib/median';
import { RAW_SINK_PATH } from './upload';

const COUNT = Math.max(1, Number(process.env.BENCH_SMALL_FILES_COUNT ?? 1000));
const ROUNDS = Math.max(1, Number(process.env.BENCH_SMALL_FILES_ROUNDS ?? 3));
const FILE_BYTES = 4096;
/** Files per folder at each level: 10 × 10 × 10 = 1,000 files in 110 folders under the root. */
const FAN_OUT = 10;

/** Writes COUNT files of random bytes under `root` (root/dA/dB/fC.bin); their paths. */
async function writeTree(root: string): Promise<string[]> {
  const files: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const a = Math.floor(i / (FAN_OUT * FAN_OUT));
    const b = Math.floor(i / FAN_OUT) % FAN_OUT;
    const dir = path.join(root, `d${a}`, `d${b}`);
    if (i % FAN_OUT === 0) await fsp.mkdir(dir, { recursive: true });
    const file = path.join(dir, `f${i % FAN_OUT}-${i}.bin`);
    await fsp.writeFile(file, randomBytes(FILE_BYTES));
    files.push(file);
  }
  return files;
}

/** Files (not folders) the server stored since `sinceMs`. */
async function filesStoredSince(dataDir: string, sinceMs: number): Promise<number> {
  return withServerDb(dataDir, (db) => (db.prepare('select count(*) as n from files where is_dir = 0 and created_at >= ?').get(sinceMs) as { n: number }).n);
}

async function clearFinished(drive: BrowserDrive): Promise<void> {
  // The transfer panel stays closed until a transfer starts (or the user opens it).
  if ((await drive.page.getByTestId('transfer-panel').getAttribute('data-expanded')) !== 'true') await drive.page.getByTestId('transfer-toggle').click();
  const button = drive.page.getByTestId('transfer-clear-finished');
  if (await button.isEnabled()) await button.click();
  await drive.page.getByTestId('transfer-heading-upload').getByText('上传（0）').waitFor({ timeout: 30_000 });
}

/** The same files, one PUT after another into the raw sink (fetch keeps one connection alive). */
async function rawSinkLoop(drive: BrowserDrive, cookie: string, files: string[]): Promise<number> {
  const headers = { cookie, ...clientHeaders('web', 'internal'), 'content-type': 'application/octet-stream' };
  const started = performance.now();
  for (const file of files) {
    const res = await fetch(`${drive.app.baseUrl}${RAW_SINK_PATH}?keep=1`, { method: 'PUT', headers, body: await fsp.readFile(file) });
    await res.text();
    if (!res.ok) throw new Error(`raw sink answered ${res.status}`);
  }
  return performance.now() - started;
}

async function runProfile(profileDir: string): Promise<{ rows: BenchRow[]; metrics: Record<string, number | string> }> {
  const workDir = await fsp.mkdtemp(path.join(process.env.BENCH_TMPDIR ?? os.tmpdir(), 'drive-bench-small-files-profile-'));
  const root = path.join(workDir, `small-files-profiled-${Date.now()}`);
  let ms = NaN;
  try {
    const { report } = await recordBrowserProfile(
      profileDir,
      'small-files-profile',
      async () => {
        await writeTree(root);
        await settleBeforeTimedPhase();
      },
      async (drive) => {
        const cpu0 = cpuSnapshot(drive.serverPid);
        const started = performance.now();
        await drive.page.getByTestId('upload-folder-input').setInputFiles(root);
        await waitForAllUploadsFinished(drive.page, COUNT, 1_800_000);
        ms = performance.now() - started;
        const cpu = Object.fromEntries(Object.entries(cpuDelta(cpu0, cpuSnapshot(drive.serverPid))).map(([k, v]) => [k, round3(v)]));
        return `profiled folder upload of ${COUNT} files of ${FILE_BYTES} B: ${(ms / 1000).toFixed(2)} s, ${(COUNT / (ms / 1000)).toFixed(1)} files/s (traced: slower than unprofiled)\nCPU s: ${JSON.stringify(cpu)}`;
      },
    );
    console.log(report);
  } finally {
    await fsp.rm(workDir, { recursive: true, force: true });
  }
  return {
    rows: [{ label: `profiled folder upload (see ${path.join(profileDir, 'summary.txt')})`, cells: { files: String(COUNT), seconds: (ms / 1000).toFixed(2), 'files/s': (COUNT / (ms / 1000)).toFixed(1) } }],
    metrics: { smallFilesProfiledPerSecond: round1(COUNT / (ms / 1000)) },
  };
}

export const browserSmallFilesBenchmark: BenchModule = {
  name: 'browser-small-files',
  columns: ['what', 'files', 'seconds', 'files/s', 'renderer CPU s', 'browser CPU s', 'network CPU s', 'storage CPU s', 'other Chromium CPU s', 'server CPU s'],
  async run() {
    if (process.env.BENCH_BROWSER_PROFILE) return runProfile(path.resolve(process.env.BENCH_BROWSER_PROFILE));
    const workDir = await fsp.mkdtemp(path.join(process.env.BENCH_TMPDIR ?? os.tmpdir(), 'drive-bench-small-files-'));
    const drive = await openBrowserDrive('small-files');
    const rows: BenchRow[] = [];
    const browserRates: number[] = [];
    const rawRates: number[] = [];
    const cpus: CpuByKind[] = [];
    try {
      const cookie = await drive.cookie();
      for (let round = 0; round < ROUNDS; round++) {
        const root = path.join(workDir, `small-files-r${round + 1}-${Date.now()}`);
        const files = await writeTree(root);
        const timed: { browserMs?: number; cpu?: CpuByKind; rawMs?: number; rawCpu?: number } = {};
        const timeBrowser = async () => {
          await clearFinished(drive);
          await settleBeforeTimedPhase();
          const since = Date.now() - 1000;
          const cpu0 = cpuSnapshot(drive.serverPid);
          const started = performance.now();
          await drive.page.getByTestId('upload-folder-input').setInputFiles(root);
          await waitForAllUploadsFinished(drive.page, COUNT, 900_000);
          timed.browserMs = performance.now() - started;
          timed.cpu = cpuDelta(cpu0, cpuSnapshot(drive.serverPid));
          const stored = await filesStoredSince(drive.dataDir, since);
          if (stored < COUNT) throw new Error(`the upload list finished but the server stored ${stored} of ${COUNT} files`);
        };
        const timeRaw = async () => {
          await settleBeforeTimedPhase();
          const cpu0 = cpuSnapshot(drive.serverPid);
          timed.rawMs = await rawSinkLoop(drive, cookie, files);
          timed.rawCpu = cpuDelta(cpu0, cpuSnapshot(drive.serverPid)).server;
        };
        if (round % 2 === 0) {
          await timeBrowser();
          await timeRaw();
        } else {
          await timeRaw();
          await timeBrowser();
        }
        await fsp.rm(root, { recursive: true, force: true });
        const browserRate = COUNT / (timed.browserMs! / 1000);
        const rawRate = COUNT / (timed.rawMs! / 1000);
        browserRates.push(browserRate);
        rawRates.push(rawRate);
        const c = timed.cpu!;
        cpus.push(c);
        rows.push({ label: `round ${round + 1}: raw sink, sequential PUTs (one connection)`, cells: { files: String(COUNT), seconds: (timed.rawMs! / 1000).toFixed(2), 'files/s': rawRate.toFixed(0), 'server CPU s': timed.rawCpu!.toFixed(2) } });
        rows.push({
          label: `round ${round + 1}: Chromium, 上传文件夹 pick → all 已完成`,
          cells: {
            files: String(COUNT),
            seconds: (timed.browserMs! / 1000).toFixed(2),
            'files/s': browserRate.toFixed(0),
            'renderer CPU s': c.renderer.toFixed(2),
            'browser CPU s': c.browser.toFixed(2),
            'network CPU s': c.network.toFixed(2),
            'storage CPU s': c.storage.toFixed(2),
            'other Chromium CPU s': (c.gpu + c.utility + c.zygote + c.other).toFixed(2),
            'server CPU s': c.server.toFixed(2),
          },
        });
      }
    } finally {
      await drive.close();
      await fsp.rm(workDir, { recursive: true, force: true });
    }
    const smallFilesPerSecond = median(browserRates);
    const rawSinkFilesPerSecond = median(rawRates);
    rows.push({ label: `median of ${ROUNDS} rounds: Chromium / raw sink`, cells: { 'files/s': `${smallFilesPerSecond.toFixed(0)} / ${rawSinkFilesPerSecond.toFixed(0)}` } });
    return {
      rows,
      metrics: {
        smallFilesCount: COUNT,
        smallFilesPerSecond: round1(smallFilesPerSecond),
        smallFilesPerSecondRounds: browserRates.map(round1).join(' '),
        rawSinkFilesPerSecond: round1(rawSinkFilesPerSecond),
        smallFilesRendererCpuMsPerFile: round1(median(cpus.map((c) => (c.renderer * 1000) / COUNT))),
        smallFilesServerCpuMsPerFile: round1(median(cpus.map((c) => (c.server * 1000) / COUNT))),
        smallFilesVsRawSink: round3(smallFilesPerSecond / rawSinkFilesPerSecond),
      },
    };
  },
};
