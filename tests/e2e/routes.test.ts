/**
 * Every route of spec §2 renders something proper in a real browser — the page, its empty state
 * (功能建设中), or, when the admin's menu does not list it, /error by the route guard — and never
 * throws. Parent paths land on their default child.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRouteAllowed } from '../../src/app/route-access';
import { MAIN_DEFAULTS, MAIN_PAGES, SHARE_LINK_PAGES, STANDALONE_PAGES } from '../../src/app/route-table';
import { baseUrl, launchBrowser, submitLogin } from './browser';

/** What a rendered route shows: a built page, the empty state, or a status page. */
const RENDERED = ['files-page', 'group-page', 'search-page', 'user-info', 'account-safe', 'user-list', 'under-construction', 'not-found', 'permission-denied', 'download-exceeded']
  .map((id) => `[data-testid="${id}"]`)
  .join(', ');

describe('every §2 route, as the admin', () => {
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  let menuRoutes: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await submitLogin(page, 'admin', 'Admin@2024');
    await page.waitForURL('**/main/file/personal**');
    await page.getByTestId('file-table').waitFor();
    // The menu the guard decides by, exactly as the app saved it.
    const menu = (await page.evaluate(async () => (await (await fetch('/api/menu/get', { credentials: 'include' })).json()) as { data: { url: string; children?: { url: string }[] }[] })).data;
    menuRoutes = menu.flatMap((m) => [m.url, ...(m.children ?? []).map((c) => c.url)]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function visit(path: string): Promise<string> {
    await page.goto(baseUrl() + path);
    await page
      .locator(RENDERED)
      .first()
      .waitFor()
      .catch((e: unknown) => {
        throw new Error(`${path}: none of the page test ids rendered (at ${page.url()})`, { cause: e });
      });
    return new URL(page.url()).pathname;
  }

  it('pages under /main: the page or its empty state when the menu lists it, else /error', async () => {
    for (const path of Object.keys(MAIN_PAGES)) {
      const landed = await visit(path);
      expect(landed, path).toBe(isRouteAllowed(path, menuRoutes) ? path : '/error');
    }
  });

  it('parent paths land on their default child (or /error when the menu does not list it)', async () => {
    for (const [path, target] of Object.entries(MAIN_DEFAULTS)) {
      const landed = await visit(path);
      expect(landed, path).toBe(isRouteAllowed(target, menuRoutes) ? target : '/error');
    }
  });

  it('top-level pages: status pages, /downLoadM, and the share-link pages (the home is personal files)', async () => {
    for (const path of ['/error', '/permissionDenied', '/downloadExceeded', ...Object.keys(STANDALONE_PAGES), ...Object.keys(SHARE_LINK_PAGES)]) {
      expect(await visit(path), path).toBe(path);
    }
    expect(await visit('/no/such/page')).toBe('/error');
    expect(await visit('/')).toBe('/main/file/personal');
  });

  it('threw no page error on the way', () => {
    expect(pageErrors).toEqual([]);
  });
});
