/**
 * Every route of spec §2 renders what it should in a real browser, and never throws: a built page
 * renders its OWN content (its test id, never the 功能建设中 notice); a page not built yet is listed in
 * PLACEHOLDERS and shows that notice; a page the admin's menu does not list goes to /error by the
 * route guard. Parent paths land on their default child. When an issue builds a page, it moves from
 * PLACEHOLDERS to BUILT with the test id of its content.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRouteAllowed } from '../../src/app/route-access';
import { BUILT_STANDALONE_PAGES, MAIN_DEFAULTS, MAIN_PAGES, SHARE_LINK_PAGES, STANDALONE_PAGES } from '../../src/app/route-table';
import { antdClassesWithoutStyles } from './antd-styles';
import { baseUrl, launchBrowser, submitLogin } from './browser';

/** Built pages and the test id of the content each renders itself. */
const BUILT: Record<string, string> = {
  '/main/file/personal': 'files-page',
  '/main/file/backups': 'files-page',
  '/main/file/favorite': 'files-page',
  '/main/file/other': 'files-page',
  '/main/file/recycle': 'files-page',
  '/main/file/publicSpace': 'files-page',
  '/main/file/share': 'files-page',
  '/main/file/search': 'search-page',
  '/main/file/unifiedSearch': 'search-page',
  '/main/group': 'group-page',
  '/main/user/userInfo': 'user-info',
  '/main/user/accountSafe': 'account-safe',
  '/main/system/user/list': 'user-list',
  '/main/system/actionLog': 'action-log-page',
  '/main/system/systemConfig': 'system-config',
  '/main/system/user/add': 'user-add-page',
  '/main/system/user/batchAdd': 'batch-add',
  '/main/system/user/edit': 'user-edit',
  '/main/system/department': 'department-page',
  '/main/addressList': 'address-list',
  '/main/safe/myShare': 'my-share-page',
  '/main/safe/myApply': 'my-apply-page',
  '/main/safe/dealApply': 'deal-apply-page',
  '/main/system/fileSecurity': 'file-security-page',
  // Without a token the link pages ask for a link (with one they show it: share-flow.test.ts).
  '/downLoadM': 'open-share-link',
  '/openShareLink': 'open-share-link',
  '/shareLink': 'open-share-link',
  '/main/notice/fileNotice': 'file-notice-page',
  '/main/notice/systemNotice': 'system-notice-page',
  '/main/system/notice': 'notice-manage-page',
  '/main/system/desk': 'desk-page',
  '/main/system/reportForm': 'report-page',
  '/error': 'not-found',
  '/permissionDenied': 'permission-denied',
  '/downloadExceeded': 'download-exceeded',
};

/** Pages not built yet: each shows 功能建设中 until its issue builds it and moves it to BUILT (none left since issue 38). */
const PLACEHOLDERS: string[] = [];

const UNDER_CONSTRUCTION = 'under-construction';
/** Anything a route may end on: a built page's content, the notice, or a status page. */
const RENDERED = [...new Set([...Object.values(BUILT), UNDER_CONSTRUCTION])].map((id) => `[data-testid="${id}"]`).join(', ');

it('every §2 page is either built or a listed placeholder, never both', () => {
  const pages = [...Object.keys(MAIN_PAGES), ...Object.keys(STANDALONE_PAGES), ...Object.keys(BUILT_STANDALONE_PAGES), ...Object.keys(SHARE_LINK_PAGES)];
  for (const path of pages) expect([path in BUILT, PLACEHOLDERS.includes(path)], path).toContain(true);
  for (const path of PLACEHOLDERS) expect(path in BUILT, path).toBe(false);
  const statusPages = ['/error', '/permissionDenied', '/downloadExceeded'];
  expect([...Object.keys(BUILT), ...PLACEHOLDERS].filter((p) => !pages.includes(p) && !statusPages.includes(p))).toEqual([]);
});

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

  /** Goes to `path`; returns where it landed, after checking that place renders what it should. */
  async function visit(path: string): Promise<string> {
    await page.goto(baseUrl() + path);
    await page
      .locator(RENDERED)
      .first()
      .waitFor()
      .catch((e: unknown) => {
        throw new Error(`${path}: none of the page test ids rendered (at ${page.url()})`, { cause: e });
      });
    const landed = new URL(page.url()).pathname;
    const expected = BUILT[landed] ?? (PLACEHOLDERS.includes(landed) ? UNDER_CONSTRUCTION : null);
    expect(expected, `${path} landed on ${landed}, which is neither built nor a listed placeholder`).not.toBeNull();
    await expect(page.getByTestId(expected!).first().isVisible(), `${landed} renders ${expected}`).resolves.toBe(true);
    if (expected !== UNDER_CONSTRUCTION) expect(await page.getByTestId(UNDER_CONSTRUCTION).count(), `${landed} is built but shows 功能建设中`).toBe(0);
    expect(await antdClassesWithoutStyles(page), `${landed}: antd classes whose styles did not load`).toEqual([]);
    return landed;
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
    for (const path of ['/error', '/permissionDenied', '/downloadExceeded', ...Object.keys(STANDALONE_PAGES), ...Object.keys(BUILT_STANDALONE_PAGES), ...Object.keys(SHARE_LINK_PAGES)]) {
      expect(await visit(path), path).toBe(path);
    }
    expect(await visit('/no/such/page')).toBe('/error');
    expect(await visit('/')).toBe('/main/file/personal');
  });

  it('threw no page error on the way', () => {
    expect(pageErrors).toEqual([]);
  });
});
