/**
 * The link page an outsider opens (`/shareLink/<token>`, a file with an extraction code), cold: a fresh
 * Chromium context each round (empty HTTP cache, no cookies, no service worker installed yet — what a
 * first visitor's browser has), service workers allowed as for any visitor. Timed from navigation to the
 * code entry on screen, naming the sharer and the file when the page names them (`data-testid
 * link-summary`); Chromium's first-contentful-paint beside it, and the moment the page's script took the
 * code entry over (the server draws the page, issue 44 item 6: a form without `data-drawn`). Timed the
 * same way at the same moments, as references: on a shared machine the ratios say more than the
 * milliseconds — the login page, and the browser's floor: the same page's HTML (same bytes, its
 * scripts cut out) as a static file of the same server, navigation → the same code entry.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { shareLinkPath } from '../../../common/api/sharing';
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
  /** Median ms, navigation → the page's script has taken the code entry over (null: the page had no server-drawn entry). */
  takeoverMs: number | null;
  /** Median ms, navigation → the same code entry in a static copy of the page's HTML without scripts (the browser's floor). */
  floorMs: number | null;
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
  const floorPath = await writeFloorPage(baseUrl, staticDir, link.token);
  let jsKB = 0;
  let named = false;
  for (let round = 0; round <= rounds; round++) {
    if (floorPath) {
      const bare = await browser.newContext();
      const { ms } = await timeCodeEntry(await bare.newPage(), baseUrl + floorPath, link);
      if (round > 0) floor.push(ms);
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
    const start = performance.now();
    const entry = await timeCodeEntry(page, baseUrl + shareLinkPath(link.token), link);
    named = entry.named;
    const bytes = scripts();
    const drawn = (await page.locator('[data-testid="link-code-form"][data-drawn]').count()) > 0;
    await page.locator('[data-testid="link-code-form"]:not([data-drawn])').waitFor();
    const takenOver = performance.now() - start;
    if (round > 0) {
      codePage.push(entry.ms);
      fcp.push(await fcpOf(page));
      jsKB = Math.round(bytes / 1000);
      if (drawn) takeover.push(takenOver);
    }
    await context.close();
  }
  const medianOrNull = (xs: number[]) => (xs.length ? Math.round(median(xs)) : null);
  return {
    codePageMs: Math.round(median(codePage)),
    codePageRuns: codePage.map(Math.round),
    fcpMs: Math.round(median(fcp)),
    loginMs: Math.round(median(login)),
    takeoverMs: medianOrNull(takeover),
    floorMs: medianOrNull(floor),
    jsKB,
    named,
  };
}
