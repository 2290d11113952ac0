/**
 * The link page an outsider opens (`/shareLink/<token>`, a file with an extraction code), cold: a fresh
 * Chromium context each round (empty HTTP cache, no cookies, no service worker installed yet — what a
 * first visitor's browser has), service workers allowed as for any visitor. Timed from navigation to the
 * code entry on screen, naming the sharer and the file when the page names them (`data-testid
 * link-summary`); Chromium's first-contentful-paint beside it. The login page is timed the same way at
 * the same moments, as a reference: on a shared machine the ratio says more than the milliseconds.
 */
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

/** `rounds` measured rounds after one warming round (the server's first statements, its files read once). */
export async function measureLinkPagePaint(browser: Browser, baseUrl: string, link: { token: string; sharer: string; fileName: string }, rounds: number): Promise<LinkPaintFigures> {
  const codePage: number[] = [];
  const fcp: number[] = [];
  const login: number[] = [];
  let jsKB = 0;
  let named = false;
  for (let round = 0; round <= rounds; round++) {
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
    await page.goto(baseUrl + shareLinkPath(link.token), { waitUntil: 'commit' });
    const summary = page.getByTestId('link-summary');
    await page.getByTestId('link-code-entry').waitFor();
    // A page that names the sharer and the file is timed to them; one that does not, to its form.
    named = (await summary.count()) > 0;
    if (named) {
      await summary.getByText(link.fileName).waitFor();
      await summary.getByText(link.sharer).waitFor();
    }
    const ms = performance.now() - start;
    const bytes = scripts();
    if (round > 0) {
      codePage.push(ms);
      fcp.push(await fcpOf(page));
      jsKB = Math.round(bytes / 1000);
    }
    await context.close();
  }
  return { codePageMs: Math.round(median(codePage)), codePageRuns: codePage.map(Math.round), fcpMs: Math.round(median(fcp)), loginMs: Math.round(median(login)), jsKB, named };
}
