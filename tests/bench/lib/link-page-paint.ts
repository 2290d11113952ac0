/**
 * The link page an outsider opens (`/shareLink/<token>`, a file with an extraction code), cold: a fresh
 * Chromium context each round (empty HTTP cache, no cookies, no service worker installed yet — what a
 * first visitor's browser has), service workers allowed as for any visitor. Timed from navigation to the
 * code entry on screen, naming the sharer and the file when the page names them (`data-testid
 * link-summary`); in the browser's own clock (no round trips of the driver in it) Chromium's
 * first-contentful-paint, the file's name first painted (Element Timing) and the moment the page's
 * script took the server-drawn code entry over (its performance mark). Timed the
 * same way at the same moments, as references: on a shared machine the ratios say more than the
 * milliseconds — the login page, and the browser's floor: the same page's HTML (same bytes, its
 * scripts cut out) as a static file of the same server, navigation → the same code entry.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { shareLinkPath } from '../../../common/api/sharing';
import { LINK_PAGE_PAINT_MARK, LINK_PAGE_TAKEOVER_MARK } from '../../../common/link-page/served';
import { median } from './median';

export interface LinkPaintFigures {
  /** Median ms, navigation → the code entry (with the sharer and the file, when the page names them). */
  codePageMs: number;
  /** Every measured round's, in order. */
  codePageRuns: number[];
  /** Median first-contentful-paint of the link page (ms after navigation start). */
  fcpMs: number;
  /** Median ms, navigation → the login form (reference). */
  loginMs: number;
  /** Median ms (the browser's clock from navigation start), the file's name first painted (Element Timing). */
  paintMs: number | null;
  /** Median ms (the browser's clock), the page's script has taken the server-drawn code entry over (null: nothing was drawn). */
  takeoverMs: number | null;
  /** Median ms, navigation → the same code entry in a static copy of the page's HTML without scripts (the browser's floor). */
  floorMs: number | null;
  /** Median ms (the browser's clock), the floor page's file name first painted. */
  floorPaintMs: number | null;
  /** Compressed JS the link page loaded before its code entry showed. */
  jsKB: number;
  /** The page showed the sharer's name and the file's name before the code. */
  named: boolean;
}

function scriptBytes(page: Page): () => number {
  let bytes = 0;
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    void request.sizes().then(
      (s) => (bytes += s.responseBodySize),
      () => undefined,
    );
  });
  return () => bytes;
}

// A string, not a function: tsx's transform would name the callback's helpers (__name), unknown in the page.
const FCP = `new Promise((resolve) => {
  const entry = () => performance.getEntriesByName('first-contentful-paint')[0];
  if (entry()) return resolve(entry().startTime);
  new PerformanceObserver(() => resolve(entry() ? entry().startTime : NaN)).observe({ type: 'paint', buffered: true });
})`;
const fcpOf = (page: Page) => page.evaluate<number>(FCP);

// The file's name first painted (Element Timing, the browser's clock from navigation start), and the
// script's takeover mark; NaN when the page has none.
// Element Timing's entries are not in the timeline's buffer (getEntriesByType): only a buffered observer sees them.
const PAINTED = `new Promise((resolve) => {
  new PerformanceObserver((list) => {
    const entry = list.getEntries().find((e) => e.identifier === '${LINK_PAGE_PAINT_MARK}');
    if (entry) resolve(entry.renderTime || entry.loadTime);
  }).observe({ type: 'element', buffered: true });
  setTimeout(() => resolve(NaN), 5000);
})`;
const paintedOf = (page: Page) => page.evaluate<number>(PAINTED);
const TAKEN_OVER = `new Promise((resolve) => {
  const mark = () => performance.getEntriesByName('${LINK_PAGE_TAKEOVER_MARK}')[0];
  const poll = () => (mark() ? resolve(mark().startTime) : setTimeout(poll, 20));
  poll();
  setTimeout(() => resolve(NaN), 15000);
})`;
const takenOverOf = (page: Page) => page.evaluate<number>(TAKEN_OVER);

/** Navigation → the code entry naming the sharer and the file (those that the page names). */
async function timeCodeEntry(page: Page, url: string, link: { sharer: string; fileName: string }): Promise<{ ms: number; named: boolean }> {
  const start = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  const summary = page.getByTestId('link-summary');
  await page.getByTestId('link-code-entry').waitFor();
  // A page that names the sharer and the file is timed to them; one that does not, to its form.
  const named = (await summary.count()) > 0;
  if (named) {
    await summary.getByText(link.fileName).waitFor();
    await summary.getByText(link.sharer).waitFor();
  }
  return { ms: performance.now() - start, named };
}

/**
 * The browser's floor: the link page's HTML as the server sent it, its scripts cut out and padded back
 * to the same size, written as a static file the same server sends (STATIC_DIR). Null when the page
 * had nothing drawn (an older build: there is no same page without its scripts).
 */
async function writeFloorPage(baseUrl: string, staticDir: string, token: string): Promise<string | null> {
  const html = await (await fetch(baseUrl + shareLinkPath(token))).text();
  if (!html.includes('data-testid="link-code-entry"')) return null;
  const bare = html.replace(/<script type="module"[^>]*><\/script>/g, '').replace(/<link rel="modulepreload"[^>]*>/g, '');
  const padding = Buffer.byteLength(html) - Buffer.byteLength(bare) - '<!---->'.length;
  writeFileSync(path.join(staticDir, 'bench-link-floor.html'), bare + `<!--${'x'.repeat(Math.max(0, padding))}-->`);
  return '/bench-link-floor.html';
}

/** `rounds` measured rounds after one warming round (the server's first statements, its files read once). */
export async function measureLinkPagePaint(browser: Browser, baseUrl: string, link: { token: string; sharer: string; fileName: string }, rounds: number, staticDir: string): Promise<LinkPaintFigures> {
  const codePage: number[] = [];
  const fcp: number[] = [];
  const login: number[] = [];
  const takeover: number[] = [];
  const floor: number[] = [];
  const paint: number[] = [];
  const floorPaint: number[] = [];
  const floorPath = await writeFloorPage(baseUrl, staticDir, link.token);
  let jsKB = 0;
  let named = false;
  for (let round = 0; round <= rounds; round++) {
    if (floorPath) {
      const bare = await browser.newContext();
      const floorPage = await bare.newPage();
      const { ms } = await timeCodeEntry(floorPage, baseUrl + floorPath, link);
      const painted = await paintedOf(floorPage);
      if (round > 0) {
        floor.push(ms);
        if (Number.isFinite(painted)) floorPaint.push(painted);
      }
      await bare.close();
    }

    const reference = await browser.newContext();
    const loginPage = await reference.newPage();
    const loginStart = performance.now();
    await loginPage.goto(baseUrl + '/login', { waitUntil: 'commit' });
    await loginPage.getByTestId('login-submit').waitFor();
    if (round > 0) login.push(performance.now() - loginStart);
    await reference.close();

    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts = scriptBytes(page);
    const entry = await timeCodeEntry(page, baseUrl + shareLinkPath(link.token), link);
    named = entry.named;
    const bytes = scripts();
    await page.locator('[data-testid="link-code-form"]:not([data-drawn])').waitFor();
    const painted = await paintedOf(page);
    const takenOver = await takenOverOf(page);
    if (round > 0) {
      codePage.push(entry.ms);
      fcp.push(await fcpOf(page));
      jsKB = Math.round(bytes / 1000);
      if (Number.isFinite(painted)) paint.push(painted);
      if (Number.isFinite(takenOver)) takeover.push(takenOver);
    }
    await context.close();
  }
  const medianOrNull = (xs: number[]) => (xs.length ? Math.round(median(xs)) : null);
  return {
    codePageMs: Math.round(median(codePage)),
    codePageRuns: codePage.map(Math.round),
    fcpMs: Math.round(median(fcp)),
    loginMs: Math.round(median(login)),
    paintMs: medianOrNull(paint),
    takeoverMs: medianOrNull(takeover),
    floorMs: medianOrNull(floor),
    floorPaintMs: medianOrNull(floorPaint),
    jsKB,
    named,
  };
}
