/**
 * A download as a user makes it (issue 18): `npm start` (the production build) opened in Debian's
 * Chromium, logged in as admin, one click on 下载 of a 512 MiB file in 个人文件, timed from the click
 * event in the page (wall clock, so Playwright's actionability checks before it are not counted) until
 * the file is complete on disk (Playwright's `download.path()` resolves when Chromium has finished
 * writing it and renamed it into place). The
 * baseline is `curl -o` of the same download URL with the browser's session cookie, in the same run.
 * Rounds are interleaved (the order alternates) and each timed phase starts after `sync` and a settle;
 * the ratio reported is the median of the rounds' ratios. CPU-seconds of the server and of the client
 * (every Chromium process, or curl) are shown per round: on this 2-core machine they share the cores,
 * so a client that needs more CPU per byte leaves less to the server and is slower for it.
 *
 * Metrics: `browserDownloadRatio` (browser MB/s ÷ curl MB/s, goal ≥ 0.9), `browserDownloadMBps`,
 * `curlDownloadMBps` (medians). `BENCH_BROWSER_DOWNLOAD_ROUNDS` (default 3), `BENCH_BROWSER_DOWNLOAD_MIB`
 * (default 512). Temp files live under os.tmpdir() (or BENCH_TMPDIR) and are deleted afterwards.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, promises as fsp, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { downloadUrl } from '../../../common/api/paths';
import { openFileSource } from '../../replay/node-runtime';
import { createNodeEngine, waitUntilSettled } from '../../replay/engine-harness';
import { CHROMIUM_ARGS, CHROMIUM_MISSING_MESSAGE, findChromium } from '../../support/chromium';
import { loggedInJar, sha256OfFile, writeGeneratedFile } from '../../support/drive-server';
import { startNpmStart } from '../../support/npm-start';
import { logIn } from '../lib/browser-login';
import { median } from '../lib/median';
import { commandLineOf, descendantPids, procCpuSeconds } from '../lib/proc-cpu';
import { settleBeforeTimedPhase } from '../lib/transfer-context';
import { megabytesPerSecond, MIB, type BenchModule, type BenchRow } from '../lib/report';

const ROUNDS = Math.max(1, Number(process.env.BENCH_BROWSER_DOWNLOAD_ROUNDS ?? 3));
const SIZE = Math.max(1, Number(process.env.BENCH_BROWSER_DOWNLOAD_MIB ?? 512)) * MIB;
/** One round's download, either way; generous, so a slow path is measured rather than cut off. */
const ROUND_TIMEOUT_MS = 15 * 60_000;

/** Seconds in bash's `times` notation ('0m1.234s'). */
function parseTimesSeconds(value: string): number {
  const m = /^(\d+)m([\d.]+)s$/.exec(value);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
}

/**
 * `curl -o out` of `url` with `cookie`, run under bash so its CPU time can be read (`times`: the
 * children's user and system time). Resolves with the wall time in ms once curl has exited.
 */
function curlDownload(url: string, cookie: string, out: string): Promise<{ ms: number; cpu: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const script = 'curl -sS --fail -o "$1" -H "Cookie: $2" "$3" || exit $?; times';
    const child = spawn('bash', ['-c', script, 'curl-download', out, cookie, url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) return reject(new Error(`curl exited ${code}: ${stderr}`));
      // Second line of `times`: user and system time of the shell's children (curl).
      const [user = '', system = ''] = (stdout.trim().split('\n')[1] ?? '').trim().split(/\s+/);
      resolve({ ms, cpu: parseTimesSeconds(user) + parseTimesSeconds(system) });
    });
  });
}

/** CPU-seconds used so far by every Chromium process this benchmark started. */
function chromiumCpuSeconds(): number {
  return descendantPids(process.pid)
    .filter((pid) => /chrom/.test(commandLineOf(pid).split(' ')[0] ?? ''))
    .reduce((sum, pid) => sum + (procCpuSeconds(pid) || 0), 0);
}

const cpuCell = (seconds: number): string => (Number.isFinite(seconds) ? seconds.toFixed(2) : '-');

async function expectFile(file: string, size: number, sha256: string, what: string): Promise<void> {
  const stat = await fsp.stat(file);
  if (stat.size !== size) throw new Error(`${what}: ${stat.size} bytes on disk, expected ${size}`);
  if ((await sha256OfFile(file)) !== sha256) throw new Error(`${what}: the bytes on disk differ from the uploaded file`);
}

export const browserDownloadBenchmark: BenchModule = {
  name: 'browser-download',
  columns: ['what', 'MiB', 'seconds', 'MB/s', 'ratio', 'start s', 'client CPU s', 'server CPU s'],
  async run() {
    const chromePath = findChromium();
    if (!chromePath) throw new Error(CHROMIUM_MISSING_MESSAGE);
    if (spawnSync('curl', ['--version']).status !== 0) throw new Error('the browser-download benchmark needs curl for its baseline');
    const dir = mkdtempSync(path.join(process.env.BENCH_TMPDIR ?? os.tmpdir(), 'drive-bench-browser-download-'));
    const dataDir = path.join(dir, 'data');
    const downloadsDir = path.join(dir, 'downloads');
    const app = await startNpmStart({ DATA_DIR: dataDir, STATIC_DIR: path.join(dir, 'dist'), DRIVE_TEST_HOOKS: '1', LOG_REQUESTS: '0' }, path.join(dir, 'npm-start.log'));
    let browser: Awaited<ReturnType<typeof chromium.launch>> | null = null;
    try {
      // Setup, not timed: the file goes to 个人文件 through the API (the engine under Node).
      const name = `bench-download-${SIZE / MIB}mib.bin`;
      const source = path.join(dir, name);
      await writeGeneratedFile(source, SIZE);
      const sourceSha = await sha256OfFile(source);
      const jar = await loggedInJar(app.baseUrl, dataDir);
      const uploader = createNodeEngine(app.baseUrl, jar);
      let fileId: string;
      try {
        const [id] = await uploader.engine.enqueueUploads([await openFileSource(source, name)], { parentId: null, category: 1 });
        const settled = await waitUntilSettled(uploader.engine, { ids: [id!], timeoutMs: 600_000, pollMs: 50 });
        const item = settled.items.find((i) => i.id === id)!;
        if (item.state !== 'done' || !item.fileId) throw new Error(`setup upload ended ${item.state}: ${item.lastError}`);
        fileId = item.fileId;
      } finally {
        await uploader.close();
      }
      await fsp.rm(source, { force: true });

      browser = await chromium.launch({ executablePath: chromePath, args: CHROMIUM_ARGS, downloadsPath: downloadsDir });
      const context = await browser.newContext({ acceptDownloads: true });
      const page = await context.newPage();
      await logIn(page, app.baseUrl, dataDir);
      const button = page.getByTestId(`download-${fileId}`);
      await button.waitFor();
      const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
      const url = app.baseUrl + downloadUrl(fileId);
      // The server process itself (not npm, nor the shell running the start script).
      const serverPid = descendantPids(process.pid).find((pid) => /(^|\/)node$/.test(commandLineOf(pid).split(' ')[0] ?? '') && commandLineOf(pid).includes('server/main.ts')) ?? -1;

      const rows: BenchRow[] = [];
      const ratios: number[] = [];
      const browserRates: number[] = [];
      const curlRates: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        let browserMs = 0;
        let browserStartMs = 0;
        let browserCpu = NaN;
        let browserServerCpu = NaN;
        let curlMs = 0;
        let curlCpu = NaN;
        let curlServerCpu = NaN;
        const timeBrowser = async () => {
          await settleBeforeTimedPhase();
          // The page notes the wall-clock time of the click itself (same clock as Date.now() here).
          await page.evaluate(() => {
            const w = window as unknown as { clickAt?: number };
            delete w.clickAt;
            document.addEventListener('click', () => (w.clickAt = Date.now()), { capture: true, once: true });
          });
          const cpu0 = chromiumCpuSeconds();
          const server0 = procCpuSeconds(serverPid);
          const downloadEvent = page.waitForEvent('download', { timeout: ROUND_TIMEOUT_MS });
          await button.click();
          const download = await downloadEvent;
          const startedAt = Date.now();
          const file = await download.path(); // resolves once the download has finished
          const doneAt = Date.now();
          const clickAt = await page.evaluate(() => (window as unknown as { clickAt?: number }).clickAt);
          if (typeof clickAt !== 'number') throw new Error('the click on 下载 was not seen by the page');
          browserStartMs = startedAt - clickAt;
          browserMs = doneAt - clickAt;
          browserCpu = chromiumCpuSeconds() - cpu0;
          browserServerCpu = procCpuSeconds(serverPid) - server0;
          const failure = await download.failure();
          if (failure) throw new Error(`browser download failed: ${failure}`);
          await expectFile(file, SIZE, sourceSha, `browser round ${round + 1}`);
          await download.delete();
        };
        const timeCurl = async () => {
          const out = path.join(dir, `curl-${round}.bin`);
          await settleBeforeTimedPhase();
          const server0 = procCpuSeconds(serverPid);
          ({ ms: curlMs, cpu: curlCpu } = await curlDownload(url, cookie, out));
          curlServerCpu = procCpuSeconds(serverPid) - server0;
          await expectFile(out, SIZE, sourceSha, `curl round ${round + 1}`);
          await fsp.rm(out, { force: true });
        };
        if (round % 2 === 0) {
          await timeBrowser();
          await timeCurl();
        } else {
          await timeCurl();
          await timeBrowser();
        }
        const browserMBps = megabytesPerSecond(SIZE, browserMs);
        const curlMBps = megabytesPerSecond(SIZE, curlMs);
        browserRates.push(browserMBps);
        curlRates.push(curlMBps);
        ratios.push(browserMBps / curlMBps);
        const mib = String(SIZE / MIB);
        rows.push({
          label: `round ${round + 1}: curl -o (same URL and cookie)`,
          cells: { MiB: mib, seconds: (curlMs / 1000).toFixed(2), 'MB/s': curlMBps.toFixed(0), ratio: '1.00', 'client CPU s': cpuCell(curlCpu), 'server CPU s': cpuCell(curlServerCpu) },
        });
        rows.push({
          label: `round ${round + 1}: Chromium, click 下载 → file on disk`,
          cells: {
            MiB: mib,
            seconds: (browserMs / 1000).toFixed(2),
            'MB/s': browserMBps.toFixed(1),
            ratio: (browserMBps / curlMBps).toFixed(3),
            'start s': (browserStartMs / 1000).toFixed(2),
            'client CPU s': cpuCell(browserCpu),
            'server CPU s': cpuCell(browserServerCpu),
          },
        });
      }
      const browserDownloadRatio = Number(median(ratios).toFixed(3));
      rows.push({ label: `median of ${ROUNDS} rounds`, cells: { MiB: String(SIZE / MIB), 'MB/s': median(browserRates).toFixed(1), ratio: browserDownloadRatio.toFixed(3) } });
      await context.close();
      return {
        rows,
        metrics: {
          browserDownloadRatio,
          browserDownloadMBps: Number(median(browserRates).toFixed(1)),
          curlDownloadMBps: Number(median(curlRates).toFixed(1)),
          browserDownloadBytes: SIZE,
          browserDownloadRounds: ROUNDS,
        },
      };
    } finally {
      await browser?.close();
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
