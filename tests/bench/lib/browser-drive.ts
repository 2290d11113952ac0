/**
 * What the browser transfer suites share: the product as users get it (`npm start`: the production build
 * and one server, on a temp DATA_DIR/STATIC_DIR with test hooks for the captcha answer and the raw sink),
 * Debian's Chromium logged in as admin on 个人文件, and the pids whose CPU and memory the suites report.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_MISSING_MESSAGE, findChromium } from '../../support/chromium';
import { API } from '../../../common/api/paths';
import { freePort } from '../../support/free-port';
import { startNpmStart, type NpmStartInstance } from '../../support/npm-start';
import { npmStartNodeArgs } from '../../support/npm-start-args';
import { logIn } from './browser-login';
import { npmStartServerPid } from './chromium-procs';

export interface BrowserDrive {
  /** Temp directory holding DATA_DIR, STATIC_DIR and the npm start log (deleted by close()). */
  dir: string;
  dataDir: string;
  app: NpmStartInstance;
  serverPid: number;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** The session cookie, as a Cookie header value (for curl and fetch beside the browser). */
  cookie(): Promise<string>;
  close(): Promise<void>;
}

export interface BrowserDriveOptions {
  /**
   * Profile mode: instead of `npm start`, the web app is built unminified (`vite build --minify false`,
   * so profiles name functions) and the server runs from its sources with `npm start`'s node flags and
   * `--cpu-prof`, writing its profile into this directory when it stops.
   */
  profileDir?: string;
}

/**
 * `vite build --minify false` into `staticDir`, then the server alone under `--cpu-prof` (a flag Node 20
 * refuses in NODE_OPTIONS, so the server is spawned here) and `npm start`'s node flags (its young
 * generation's size moves the garbage collector's share several-fold), test hooks on.
 */
async function startProfiledServer(dir: string, dataDir: string, profileDir: string): Promise<{ app: NpmStartInstance; serverPid: number }> {
  const staticDir = path.join(dir, 'dist');
  const build = spawn('npx', ['vite', 'build', '--minify', 'false', '--logLevel', 'warn'], { env: { ...process.env, STATIC_DIR: staticDir }, stdio: ['ignore', 'inherit', 'inherit'] });
  const [code] = (await once(build, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`vite build exited ${code}`);
  const port = await freePort();
  const startFlags = npmStartNodeArgs().filter((arg) => arg.startsWith('--'));
  const child = spawn(process.execPath, [...startFlags, `--cpu-prof`, `--cpu-prof-dir=${profileDir}`, '--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, STATIC_DIR: staticDir, DRIVE_TEST_HOOKS: '1', LOG_REQUESTS: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the profiled server exited ${child.exitCode} while starting`);
    if (await fetch(baseUrl + API.systemConfig).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the profiled server did not come up');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM'); // a graceful exit writes the .cpuprofile
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };
  return { app: { baseUrl, stop }, serverPid: child.pid! };
}

export async function openBrowserDrive(label: string, options: BrowserDriveOptions = {}): Promise<BrowserDrive> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(CHROMIUM_MISSING_MESSAGE);
  const dir = mkdtempSync(path.join(process.env.BENCH_TMPDIR ?? os.tmpdir(), `drive-bench-${label}-`));
  const dataDir = path.join(dir, 'data');
  let app: NpmStartInstance | null = null;
  let browser: Browser | null = null;
  const close = async () => {
    await browser?.close().catch(() => undefined);
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    let serverPid: number;
    if (options.profileDir) {
      ({ app, serverPid } = await startProfiledServer(dir, dataDir, options.profileDir));
    } else {
      app = await startNpmStart({ DATA_DIR: dataDir, STATIC_DIR: path.join(dir, 'dist'), DRIVE_TEST_HOOKS: '1', LOG_REQUESTS: '0' }, path.join(dir, 'npm-start.log'));
      serverPid = npmStartServerPid(Number(new URL(app.baseUrl).port));
    }
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    // The service worker stays allowed: users have it, and uploads do not go through it.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await logIn(page, app.baseUrl, dataDir);
    await page.getByTestId('file-table').waitFor();
    await page.getByTestId('upload-input').waitFor({ state: 'attached' });
    const started = app;
    return {
      dir,
      dataDir,
      app: started,
      serverPid,
      browser,
      context,
      page,
      async cookie() {
        return (await context.cookies(started.baseUrl)).map((c) => `${c.name}=${c.value}`).join('; ');
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Resolves when the upload list shows `count` uploads and none unfinished (the panel title counts the
 * unfinished ones: '传输列表（n）'). Polled inside the page every `pollMs` (the list is virtualized, so
 * rows of 1,000 items are not all in the DOM). Throws on timeout with what the panel showed.
 */
export async function waitForAllUploadsFinished(page: Page, count: number, timeoutMs: number, pollMs = 50): Promise<void> {
  try {
    await page.waitForFunction(
      (n) => {
        const tab = document.querySelector('[data-testid="transfer-heading-upload"]')?.textContent ?? '';
        const title = document.querySelector('[data-testid="transfer-panel"]')?.textContent ?? '';
        return tab === `上传（${n}）` && title.includes('传输列表') && !/传输列表（\d+）/.test(title);
      },
      count,
      { polling: pollMs, timeout: timeoutMs },
    );
  } catch (err) {
    const shown = await page.getByTestId('transfer-panel').textContent().catch(() => '?');
    throw new Error(`uploads did not all finish: ${String(err)}\npanel: ${shown?.slice(0, 2000)}`);
  }
}

/**
 * The page side of waitForUploadDone, as source text: a function compiled by tsx would carry esbuild's
 * `__name` helper for its inner functions, which the page does not have.
 */
const WATCH_ROW_SOURCE = `function watchRow(n, stall) {
  return new Promise((resolve) => {
    const start = Date.now();
    const messages = [];
    let last = { text: '', since: Date.now() };
    let ended = false;
    let observer = null;
    let timer = null;
    function finish(result) {
      ended = true;
      if (observer) observer.disconnect();
      clearInterval(timer);
      resolve(result);
    }
    function check(timed) {
      if (ended) return;
      // Toasts (antd message) vanish after seconds: keep what they said for the diagnosis.
      const toast = document.querySelector('.ant-message')?.textContent;
      if (toast && !messages.includes(toast)) messages.push(toast);
      for (const row of document.querySelectorAll('[data-testid="transfer-item"]')) {
        if (row.querySelector('[data-testid="transfer-name"]')?.textContent !== n) continue;
        const state = row.getAttribute('data-state');
        if (state === 'done' || state === 'failed' || state === 'held' || state === 'cancelled') return finish(state + ' ' + (row.textContent ?? ''));
        if (!timed) return;
        const text = state + ' ' + (row.textContent ?? '');
        if (last.text !== text) last = { text, since: Date.now() };
        else if (Date.now() - last.since > stall) finish('stalled: ' + text);
        return;
      }
      // No row of that name at all (refused before it was queued, or listed elsewhere): what the panel shows.
      if (timed && Date.now() - start > stall) {
        const panel = document.querySelector('[data-testid="transfer-panel"]')?.textContent ?? '(no panel)';
        finish('never listed; messages: ' + (messages.join(' | ') || '(none)') + '; panel: ' + panel);
      }
    }
    observer = new MutationObserver(() => check(false));
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
    timer = setInterval(() => check(true), 1000);
    check(false);
  });
}`;

/**
 * Resolves when the upload row named `name` reads 已完成 (data-state="done"); throws if it fails, is
 * held or cancelled, or shows no change at all (state, bytes) for `stallMs`, with what the row showed.
 *
 * Watched from inside the page by a MutationObserver on rows being added and their data-state changing
 * (checked when one happens, and once a second for the stall), not polled: a 50 ms poll of the rows
 * cost the page's renderer ~5 ms of CPU a second, which the bare XHR it is compared with never paid
 * (issue 43's renderer goal is 2× the bare XHR's CPU). The time of the check that saw 已完成 is in the
 * page's clock; the caller's clock stops when this resolves, ~1 round trip later, as before.
 */
export async function waitForUploadDone(page: Page, name: string, timeoutMs: number, stallMs = 120_000): Promise<void> {
  const watched = page.evaluate(`(${WATCH_ROW_SOURCE})(${JSON.stringify(name)}, ${stallMs})`) as Promise<string>;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the upload of ${name} did not end within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const result = await Promise.race([watched, timeout]);
    if (!result.startsWith('done')) throw new Error(`the upload of ${name} ended ${result}`);
  } finally {
    clearTimeout(timer);
  }
}
