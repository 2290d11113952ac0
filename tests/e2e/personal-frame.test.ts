/**
 * 个人文件 paints its frame before any script (issue 43; src/app/personal-frame.tsx, personal.html), in
 * Chromium against `npm start` at 1440 px: with every script held back the frame is there (header,
 * side menu, breadcrumb, search, sort, view, the list's header, the transfer rail) and shows nothing of
 * anyone's; when the app takes over, each of those parts is drawn exactly where the frame had it, the
 * loading screen is never seen in between, and no test id of the app is ever found twice. Also through
 * the service worker (its precached frame), and a phone gets the loading screen, not the frame.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, closeBrowserSession, loginAsAdmin, openBrowserSession } from './browser';

/** The parts both the frame and the shell draw, by selector inside either. */
const PARTS: Record<string, string> = {
  header: '.ant-layout-header',
  brandLogo: '.ant-layout-header img',
  brandName: '.ant-layout-header span > span',
  sider: '.ant-layout-sider',
  content: 'main.ant-layout-content',
  breadcrumb: '.ant-breadcrumb',
  search: '.ant-input-search input',
  searchButton: '.ant-input-search-btn',
  sort: 'button[title^="排序"]',
  listView: 'button[aria-label="列表视图"]',
  gridView: 'button[aria-label="缩略图视图"]',
  // The list's own box ends 16 px lower in the shell (its footer): a blank area, not compared.
  headerCells: '.ft-head',
  rail: 'aside.transfer-panel',
};

type Rects = Record<string, { x: number; y: number; width: number; height: number } | null>;

/** Where each part is inside `scope` (the frame, or the app's root). */
function rectsIn(page: Page, scope: string): Promise<Rects> {
  return page.evaluate(
    ({ scope, parts }) => {
      const root = document.querySelector(scope);
      const out: Record<string, { x: number; y: number; width: number; height: number } | null> = {};
      for (const [name, selector] of Object.entries(parts)) {
        const el = root?.querySelector(selector);
        const r = el?.getBoundingClientRect();
        out[name] = r ? { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) } : null;
      }
      return out;
    },
    { scope, parts: PARTS },
  );
}

/**
 * Before each paint from the document's start: whether the loading screen was what the user saw (no
 * frame over it and no shell), and the most elements carrying one test id at once.
 */
function watchTakeover(): void {
  const seen = { frameAtStart: false, spinnerShown: 0, shellShown: false, duplicateTestIds: [] as string[] };
  (window as unknown as { __takeover: typeof seen }).__takeover = seen;
  document.addEventListener('DOMContentLoaded', () => (seen.frameAtStart = document.getElementById('boot-frame') !== null));
  const tick = () => {
    const frame = document.getElementById('boot-frame');
    const shell = document.querySelector('[data-testid="files-page"]');
    const spinner = document.querySelector('#root [aria-busy="true"]');
    if (shell && !frame) seen.shellShown = true;
    else if (spinner && !(frame && getComputedStyle(frame).display !== 'none')) seen.spinnerShown++;
    const counts = new Map<string, number>();
    for (const el of document.querySelectorAll('[data-testid]')) {
      const id = el.getAttribute('data-testid')!;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    for (const [id, n] of counts) if (n > 1 && ['files-page', 'file-table', 'toolbar-search', 'toolbar-sort', 'breadcrumb', 'view-list', 'transfer-panel', 'main-content'].includes(id) && !seen.duplicateTestIds.includes(id)) seen.duplicateTestIds.push(id);
    if (!seen.shellShown) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

describe('个人文件 frame before scripts', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let workDir: string;

  beforeAll(async () => {
    ({ browser, context, page, workDir } = await openBrowserSession('personal-frame', { viewport: { width: 1440, height: 900 } }));
    await loginAsAdmin(page);
    await page.getByTestId('file-table').waitFor();
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('paints the frame with every script held back, and the shell takes over in the same places', async () => {
    // Without the service worker (page.route does not see what it answers), with this session's cookie.
    const bare = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
    await bare.addCookies(await context.cookies());
    const held = await bare.newPage();
    await held.route('**/*.js', (route) => route.abort());
    await held.goto(baseUrl() + '/main/file/personal');
    await held.locator('#boot-frame .ft-table').waitFor();
    const frame = await rectsIn(held, '#boot-frame');
    // Nothing of a user's: no rows, no names, no buttons that depend on permissions.
    const frameText = await held.locator('#boot-frame').innerText();
    expect(frameText).not.toMatch(/admin|管理员/);
    expect(await held.locator('#boot-frame .ft-row, #boot-frame .file-toolbar button').count()).toBe(0);
    expect(await held.locator('#boot-frame [data-testid], #boot-frame [id]').count()).toBe(0);
    for (const [name, rect] of Object.entries(frame)) expect(rect, name).not.toBeNull();
    // The shell's scripts are asked for by the page itself (no script has run to add these links), so
    // they are fetched and compiled while the boot chunk runs.
    for (const chunk of ['shell', 'link-shell']) expect(await held.locator(`head link[rel="modulepreload"][href^="/assets/${chunk}-"]`).count(), chunk).toBe(1);

    await held.unroute('**/*.js');
    await held.addInitScript(watchTakeover);
    await held.reload();
    await held.getByTestId('file-table').waitFor();
    await held.locator('#boot-frame').waitFor({ state: 'detached' });
    const shell = await rectsIn(held, '#root');
    expect(shell).toEqual(frame);
    const seen = await held.evaluate(() => (window as unknown as { __takeover: { frameAtStart: boolean; spinnerShown: number; shellShown: boolean; duplicateTestIds: string[] } }).__takeover);
    expect(seen).toEqual({ frameAtStart: true, spinnerShown: 0, shellShown: true, duplicateTestIds: [] });
    await bare.close();
  });

  it('opens on the frame through the service worker too, and a phone gets the loading screen', async () => {
    // This page's service worker has precached the frame under the page's own address.
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.addInitScript(watchTakeover);
    await page.goto(baseUrl() + '/main/file/personal?dir=');
    await page.getByTestId('file-table').waitFor();
    const seen = await page.evaluate(() => (window as unknown as { __takeover: { frameAtStart: boolean; spinnerShown: number } }).__takeover);
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    expect(seen.frameAtStart).toBe(true);
    expect(seen.spinnerShown).toBe(0);

    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
    await phone.addCookies(await context.cookies());
    const small = await phone.newPage();
    await small.route('**/*.js', (route) => route.abort());
    await small.goto(baseUrl() + '/main/file/personal');
    await expect(small.locator('#boot-frame').isVisible()).resolves.toBe(false);
    await expect(small.locator('#root').getByText('加载中…').isVisible()).resolves.toBe(true);
    await phone.close();
  });
});
