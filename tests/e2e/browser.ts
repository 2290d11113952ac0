/** Shared end-to-end helpers: a Chromium per test file, and logging in through the real captcha. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type CDPSession, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { clientHeaders } from '../../common/api/client-env';
import { API } from '../../common/api/paths';
import type { CaptchaImage, FileEntry } from '../../common/api/types';
import { CHROMIUM_ARGS } from '../support/chromium';
import { outboxRecords } from '../support/test-outbox';

export const baseUrl = (): string => inject('baseUrl');

/** Every browser a test file has open, for the failure report (tests/e2e/failure-report.ts). */
export const openBrowsers = new Set<Browser>();

/** The last warnings, errors and uncaught exceptions of each browser's pages, newest last. */
export const recentConsole = new WeakMap<Browser, string[]>();
const RECENT_CONSOLE_LINES = 30;

/**
 * With reduced motion the app turns antd's animations off (App.tsx). Tests want that: on a loaded
 * machine Playwright could take a menu or dialog still in its opening zoom for stable (two frames,
 * same box, before the animation's first step), aim at the shrunken button, and press where, at full
 * size, a gap or another item was: the click did nothing (seen with 取消收藏, 保留两者, and 确定 of
 * 新建文件夹 whose dialog had opened 30 ms before). Every context asks for it (`reducedMotion`, which
 * Playwright emulates through the DevTools protocol) unless a test says otherwise. Chromium's
 * --force-prefers-reduced-motion switch, used before, does nothing in the headless Chromium here
 * (matchMedia still said no-preference), so for a while no test ran without the animations.
 *
 * Every browser is also listed for the failure report, with its pages' last console lines.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: inject('chromiumPath'), args: CHROMIUM_ARGS });
  openBrowsers.add(browser);
  browser.on('disconnected', () => openBrowsers.delete(browser));
  const lines: string[] = [];
  recentConsole.set(browser, lines);
  const note = (line: string) => {
    lines.push(`${new Date().toISOString().slice(11, 23)} ${line.slice(0, 1200)}`);
    if (lines.length > RECENT_CONSOLE_LINES) lines.shift();
  };
  // Every context, including the one browser.newPage() makes, comes from newContext.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext({ reducedMotion: 'reduce', ...options });
    context.on('console', (m) => {
      if (m.type() === 'warning' || m.type() === 'error') note(`${m.type()} ${m.page()?.url() ?? ''}: ${m.text()}`);
    });
    context.on('weberror', (e) => note(`uncaught ${e.page()?.url() ?? ''}: ${e.error().message}`));
    return context;
  };
  return browser;
}

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** A temp folder of its own for the files a test writes, named `drive-e2e-<label>-…`. */
  workDir: string;
}

/** Launches Chromium with one context and one page in it, and makes the test file's temp work folder. */
export async function openBrowserSession(label: string, contextOptions: BrowserContextOptions = {}): Promise<BrowserSession> {
  const browser = await launchBrowser();
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const workDir = mkdtempSync(path.join(tmpdir(), `drive-e2e-${label}-`));
  return { browser, context, page, workDir };
}

/** Closes the browser (if it was launched) and removes the work folder. */
export async function closeBrowserSession(browser: Browser | undefined, workDir: string): Promise<void> {
  await browser?.close();
  rmSync(workDir, { recursive: true, force: true });
}

/**
 * The answer the server recorded for `captchaId` (test hook outbox), waiting briefly for the write.
 * `dataDir`: the DATA_DIR of the server that issued it (default: the one every e2e test shares).
 */
export async function captchaAnswer(captchaId: string, dataDir: string = inject('dataDir')): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const rec = outboxRecords(dataDir, 'captcha').find((r) => r.captchaId === captchaId);
    if (rec) return rec.answer;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no captcha answer recorded for ${captchaId}`);
}

/** How many messages the test gateway has sent: take it before pressing 发送, then read the code with smsCodeFor. */
export function smsOutboxMark(): number {
  return outboxRecords(inject('dataDir'), 'sms').length;
}

/**
 * The 6-digit code of the newest message the server's test gateway sent to `phone` after `mark`
 * (smsOutboxMark, taken before the send). By position, not by time: a code sent to the same phone a
 * moment before (the login code of the test before) is never taken for the one this send brings.
 */
export async function smsCodeFor(phone: string, mark: number): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const hit = outboxRecords(inject('dataDir'), 'sms').slice(mark).reverse().find((m) => m.phone === phone);
    const code = hit && /(\d{6})/.exec(hit.text)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no SMS code recorded for ${phone}`);
}

/**
 * Opens /login (or, with `reachLogin`, lets the caller get there: a redirect to it), waits for its
 * captcha, fills the form, accepts the user agreement and submits. Does not wait for navigation.
 */
export async function submitLogin(page: Page, username: string, password: string, reachLogin?: () => Promise<unknown>): Promise<void> {
  await (reachLogin ? reachLogin() : page.goto(baseUrl() + '/login'));
  // The picture shown, a click brings the one answered: a captcha answer read from a response of
  // the page before (a /login already open when this one was asked for) may be gone or stale.
  await page.locator('img[data-testid="login-captcha-image"]').waitFor();
  const captchaResponse = page.waitForResponse((r) => r.url().includes(API.captcha) && r.ok());
  await page.getByTestId('login-captcha-image').click();
  const { data } = (await (await captchaResponse).json()) as { data: CaptchaImage };
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-captcha').fill(await captchaAnswer(data.captchaId));
  await page.getByTestId('login-agreement-box').check();
  await page.getByTestId('login-submit').click();
}

/** Logs in as the seeded admin and waits for the personal files page with its transfer engine connected. */
export async function loginAsAdmin(page: Page): Promise<void> {
  await submitLogin(page, 'admin', 'Admin@2024');
  await page.waitForURL('**/main/file/personal**');
  await page.getByTestId('file-table').waitFor();
  await waitForRole(page);
}

/** The tab's role in the one-engine-per-origin election, once its worker has reported it. */
export async function waitForRole(page: Page): Promise<'leader' | 'follower'> {
  const tag = page.locator('[data-testid="transfer-role"][data-role="leader"], [data-testid="transfer-role"][data-role="follower"]');
  await tag.waitFor();
  return (await tag.getAttribute('data-role')) as 'leader' | 'follower';
}

/** Opens the transfer side sheet if it is closed (it opens by itself only in the tab a transfer starts in). */
export async function openTransferPanel(page: Page): Promise<void> {
  // The panel opens by itself when a transfer is queued, which may land between a look at the panel and
  // a click on its toggle: the click then hit the open panel's 收起 (same test id) and closed it. Look
  // and click in one task of the page, where the DOM cannot change in between; the rail's toggle only opens.
  const open = page.locator('[data-testid="transfer-panel"][data-expanded="true"]');
  await open.or(page.getByTestId('transfer-toggle')).first().waitFor();
  await page.evaluate(() => {
    const panel = document.querySelector<HTMLElement>('[data-testid="transfer-panel"]');
    if (panel?.dataset.expanded !== 'true') panel?.querySelector<HTMLElement>('[data-testid="transfer-toggle"]')?.click();
  });
  await open.waitFor();
}

/** What the engine role marker says: the tag's text in the open panel, the dot's label on the closed rail. */
export async function transferRoleText(page: Page): Promise<string> {
  return page.getByTestId('transfer-role').evaluate((el) => el.textContent || el.getAttribute('aria-label') || '');
}

/** Transfer items (upload or download list, whichever is shown) whose name shows `name`. */
export function transferItems(page: Page, name: string, state?: string) {
  const items = page.getByTestId('transfer-item').filter({ has: page.getByTestId('transfer-name').getByText(name, { exact: true }) });
  return state ? items.and(page.locator(`[data-state="${state}"]`)) : items;
}

/** The file table row showing `name`. */
export function fileRow(page: Page, name: string) {
  return page.getByTestId('file-table').locator('[data-testid="file-row"][data-row-key]', { has: page.getByText(name, { exact: true }) });
}

/**
 * The row of `name` once it is in the DOM, scrolling the list's virtualised window to it. All e2e files
 * share one server, so by the time a test runs the admin's folders hold the entries of earlier files,
 * and a new entry may sort below the screenful of rows the table keeps in the DOM: a plain
 * `fileRow(…).waitFor()` then waits for a row the table will never render where it is scrolled.
 */
export function revealFileRow(page: Page, name: string, timeout = 30_000) {
  return reveal(page, fileRow(page, name), page.getByTestId('file-table').locator('.ft-body'), `no row named ${name} in the file list`, timeout);
}

/** The grid view's tile showing `name`, once it is in the DOM (the grid is virtualised by rows of tiles, as the list). */
export function fileTile(page: Page, name: string) {
  return page.getByTestId('file-grid').locator('[data-testid="file-tile"]', { has: page.getByText(name, { exact: true }) });
}

/** fileTile, scrolling the grid's window to it (revealFileRow's reason). */
export function revealFileTile(page: Page, name: string, timeout = 30_000) {
  return reveal(page, fileTile(page, name), page.getByTestId('file-grid').locator('.ft-body'), `no tile named ${name} in the file grid`, timeout);
}

async function reveal(page: Page, target: Locator, body: Locator, missing: string, timeout: number) {
  const deadline = Date.now() + timeout;
  while ((await target.count()) === 0) {
    if (Date.now() > deadline) throw new Error(`${missing} within ${timeout} ms`);
    // One screen further down; back to the top after the end (the list may still be reloading).
    await body
      .evaluate((el) => {
        el.scrollTop = el.scrollTop + el.clientHeight >= el.scrollHeight - 1 ? 0 : el.scrollTop + el.clientHeight;
      })
      .catch(() => undefined);
    await page.waitForTimeout(100);
  }
  return target;
}

/**
 * Makes a folder of the test's own at the top of the signed-in user's 个人文件 and opens it (a load,
 * then the transfer engine's role). What the test makes there is all the folder holds, so its rows
 * are rendered whatever earlier files left in the root: look for rows of a shared folder with
 * revealFileRow, and make a test's entries here.
 */
export async function openOwnFolder(page: Page, name: string): Promise<FileEntry> {
  const folder = await page.evaluate(
    async ({ url, name, headers }) => {
      const r = await fetch(url, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ parentId: null, category: 1, name }) });
      const body = (await r.json()) as { data: FileEntry };
      if (r.status !== 200) throw new Error(`mkdir ${name}: ${r.status} ${JSON.stringify(body)}`);
      return body.data;
    },
    { url: API.mkdir, name, headers: clientHeaders('web', 'internal') },
  );
  await page.goto(`${baseUrl()}${ownFolderPath(folder)}`);
  await page.getByTestId('breadcrumb').getByText(name, { exact: true }).waitFor();
  await page.getByTestId('file-table').waitFor();
  await waitForRole(page);
  return folder;
}

/** The address of a folder of 个人文件 (openOwnFolder's). */
export const ownFolderPath = (folder: FileEntry): string => `/main/file/personal?dir=${encodeURIComponent(folder.id)}`;

/** Chunk-upload requests carry `index` in their query. */
export function chunkIndexOf(url: string): number | null {
  if (!url.includes(API.chunkUpload)) return null;
  const index = new URL(url).searchParams.get('index');
  return index === null ? null : Number(index);
}

/** The chunk indexes a chunk-upload request carries: `index`, or `index`..`through` for a range upload (a new file's whole File). */
export function chunkIndexesOf(url: string): number[] {
  const index = chunkIndexOf(url);
  if (index === null) return [];
  const through = new URL(url).searchParams.get('through');
  const last = through === null ? index : Number(through);
  return Array.from({ length: last - index + 1 }, (_, i) => index + i);
}

/** Every byte the server read from chunk upload bodies so far (test hook), kept or not. */
export async function serverChunkBytes(context: BrowserContext): Promise<number> {
  const res = await context.request.get(baseUrl() + API.testStats);
  if (res.status() !== 200) throw new Error(`test stats: ${res.status()}`);
  return ((await res.json()) as { data: { chunkBytesReceived: number } }).data.chunkBytesReceived;
}

const throttles = new WeakMap<Page, CDPSession>();

/**
 * Limits the page's upload rate (Chromium's DevTools network emulation, which its dedicated workers'
 * requests follow), `null` lifts it. A new file goes up as one whole-file request, which a route()
 * delay before the request cannot slow down; a byte rate can, so a pause or reload lands mid-upload.
 */
export async function throttleUploads(page: Page, bytesPerSecond: number | null): Promise<void> {
  let cdp = throttles.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    throttles.set(page, cdp);
  }
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond ?? -1 });
}

/**
 * Clicks a batch action of the file toolbar: its button, or its item under 更多 when the bar was too
 * narrow to show it (the toolbar never wraps).
 */
export async function clickSelectionAction(page: Page, action: string): Promise<void> {
  const bar = page.getByTestId('selection-actions');
  await bar.waitFor();
  const button = bar.getByTestId(`action-${action}`);
  if (await button.isVisible()) return button.click();
  await bar.getByTestId('toolbar-more').click();
  await page.locator(`.ant-dropdown:visible [data-testid="action-${action}"]`).click();
}

/**
 * Goes to `path` inside the app without a reload (the router follows history, as after a menu click),
 * then waits until no spinner or skeleton is left (up to 10 s: a page that keeps one is the test's to see).
 */
export async function visitInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL((url) => url.pathname === path.split('?')[0]);
  // Two frames: the new page has rendered (its loading state, if any, is on screen).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  // Its chunk still loading (PageLoading, aria-busy), then its data (a spinner or a skeleton): a walk
  // that looked while the chunk loaded saw the loading screen, not the page, and checked nothing on it.
  await page
    .locator('[aria-busy="true"]:visible')
    .first()
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
  await page
    .locator('.ant-spin-spinning:visible, .ant-skeleton:visible')
    .first()
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
}
