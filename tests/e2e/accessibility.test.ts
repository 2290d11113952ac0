/**
 * Accessibility of the main pages (issue 20): Lighthouse's accessibility category (axe rules: names
 * and labels, contrast AA, ARIA, focusable controls…) scores at least 95 on each, logged in as the
 * admin where a session is needed, at Lighthouse's desktop preset. Labels are Chinese: no English
 * "Select all" / "Select row N" left from a component library.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLighthouse } from '../support/lighthouse';
import { baseUrl, launchBrowser, loginAsAdmin } from './browser';

const PAGES = ['/login', '/main/file/personal', '/main/file/unifiedSearch', '/main/user/userInfo', '/main/system/user/list'];

interface Finding {
  id: string;
  title: string;
  items: string[];
}

async function accessibility(url: string, cookie: string | null): Promise<{ score: number; failing: Finding[] }> {
  const { lhr } = await runLighthouse(url, { categories: ['accessibility'], cookie });
  const refs = lhr.categories.accessibility!.auditRefs.filter((r) => r.weight > 0);
  const failing = refs
    .map((r) => lhr.audits[r.id]!)
    .filter((a) => a.score !== null && a.score < 1)
    .map((a) => ({
      id: a.id,
      title: a.title,
      items: ((a.details as { items?: Array<{ node?: { snippet?: string } }> } | undefined)?.items ?? []).slice(0, 5).map((i) => i.node?.snippet ?? ''),
    }));
  return { score: Math.round((lhr.categories.accessibility!.score ?? 0) * 100), failing };
}

describe('accessibility of the main pages', () => {
  let browser: Browser;
  let cookie = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    const page = await (await browser.newContext()).newPage();
    await loginAsAdmin(page);
    cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const path of PAGES) {
    it(`${path}: Lighthouse accessibility ≥ 95`, { timeout: 180_000 }, async () => {
      const { score, failing } = await accessibility(baseUrl() + path, path === '/login' ? null : cookie);
      expect({ path, score, failing: score >= 95 ? [] : failing }).toEqual({ path, score: expect.any(Number), failing: [] });
      expect(score).toBeGreaterThanOrEqual(95);
    });
  }

  it('labels the file list in Chinese: no English names on its controls', async () => {
    const page = await (await browser.newContext({ extraHTTPHeaders: { Cookie: cookie } })).newPage();
    await page.goto(baseUrl() + '/main/file/personal');
    await page.getByTestId('file-table').waitFor();
    const labels = await page.locator('[aria-label]').evaluateAll((els) => els.filter((e) => e.getAttribute('role') !== 'img').map((e) => e.getAttribute('aria-label') ?? ''));
    expect(labels.length).toBeGreaterThan(5);
    expect(labels.filter((l) => /^(select|row|custom selection)/i.test(l))).toEqual([]);
    await page.context().close();
  });
});
