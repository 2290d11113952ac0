/**
 * Issue 44 item 9, developer text showing: every main page (desktop), walked as the admin, shows no
 * text meant for developers — the browser's raw file input (Choose File / No file chosen), 供测试,
 * "（文件分类 3）", raw ids (22-character ids, 32-hex digests, UUIDs) — and no label in English only;
 * the transfer panel keeps its queue export behind the developer switch; 操作日志 names each row's
 * object once and never by id; 已可离线使用 waits until the user is past login and the password change.
 * On a 390-px phone every page, the menu drawer and the transfer sheet show no developer text either.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { CreateTxtResponse, FileEntry } from '../../common/api/types';
import { MAIN_PAGES } from '../../src/app/route-table';
import { baseUrl, closeBrowserSession, launchBrowser, openTransferPanel, submitLogin } from './browser';
import { shot } from './shots';
import { addMember, call, expectOnScreen, PHONE, signInAdmin, waitUntil } from './tenant-kit';

/** Pages that need a parameter to show anything of their own (a search keyword, a user to edit). */
const NEEDS_PARAMETER = new Set(['/main/file/search', '/main/file/unifiedSearch', '/main/system/user/edit']);

/** Pages with a layout of their own below 768 px: the file lists (one column, ⋮), 通讯录, 审批's drawer, the organisation's stacked trees, the system configuration. */
const PHONE_VARIANTS = /^\/main\/(file\/|addressList|safe\/(dealApply|myApply)|system\/(user\/list|department|systemConfig))/;

interface Finding {
  rule: string;
  text: string;
}

/**
 * What the page shows that is meant for developers. Runs in the page: every visible text node, every
 * visible file input (Chromium draws Choose File / No file chosen inside it), placeholders, and the
 * labels of controls, headers and titles (which must not be English only).
 */
function developerText(): Finding[] {
  const findings: Finding[] = [];
  const visible = (el: Element | null): boolean => !!el && (el as HTMLElement).checkVisibility?.({ checkOpacity: true, checkVisibilityCSS: true }) !== false && (el as HTMLElement).getClientRects().length > 0;
  const RULES: Array<[string, RegExp]> = [
    ['browser file input text', /Choose File|No file chosen|未选择任何文件|选择文件$/],
    ['test-only text', /供测试|测试回放/],
    ['raw category number', /文件分类\s*\d+/],
    ['raw id (UUID)', /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i],
    ['raw id (32 hex)', /(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])/i],
    // Our ids: 22 characters of base64url standing alone, with a capital, a small letter and a digit
    // in them (random ones nearly always have all three; account names are lower case).
    ['raw id (22 chars)', /(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Z])(?=[A-Za-z0-9_-]*[a-z])[A-Za-z0-9_-]{22}(?![A-Za-z0-9_-])/],
  ];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim() ?? '';
    if (!text || !visible(node.parentElement)) continue;
    for (const [rule, re] of RULES) if (re.test(text)) findings.push({ rule, text });
  }
  for (const input of document.querySelectorAll('input[type="file"]')) {
    if (visible(input)) findings.push({ rule: 'browser file input shown', text: (input as HTMLInputElement).outerHTML.slice(0, 120) });
  }
  for (const input of document.querySelectorAll('input[placeholder], textarea[placeholder]')) {
    const text = input.getAttribute('placeholder') ?? '';
    if (visible(input) && /[A-Za-z]{2}/.test(text) && !/[\u3400-\u9fff]/.test(text)) findings.push({ rule: 'English-only placeholder', text });
  }
  const LABELS = [
    'button',
    '[role="button"]',
    '[role="menuitem"]',
    '[role="tab"]',
    '[role="columnheader"]',
    'th',
    'label',
    '.ant-form-item-label',
    '.ant-card-head-title',
    '.ant-modal-title',
    '.ant-drawer-title',
    '.ant-menu-title-content',
    '.ant-descriptions-item-label',
    '.ant-segmented-item-label',
    '.ant-tag',
    '.ant-empty-description',
    '.ant-alert-message, .ant-alert-title',
  ].join(',');
  for (const el of document.querySelectorAll(LABELS)) {
    const text = (el as HTMLElement).innerText?.trim() ?? '';
    if (!visible(el) || !/[A-Za-z]{2}/.test(text) || /[\u3400-\u9fff]/.test(text)) continue;
    findings.push({ rule: 'English-only label', text });
  }
  return findings;
}

/** Goes to `path` inside the app without a reload (the router follows history), and lets it settle. */
async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await waitUntil(async () => (await page.locator('.ant-spin-spinning:visible, .ant-skeleton:visible').count()) === 0, `${path} to finish loading`, 10_000).catch(() => undefined);
  await page.waitForTimeout(400);
}

/**
 * Records, in the page, every path at which the offline-ready notice was on screen (window.__offlineNoticePaths):
 * it shows for 4.5 s whenever the service worker's first caching ends, so it is watched, not sampled.
 */
function watchOfflineNotice(): void {
  const w = window as unknown as { __offlineNoticePaths: string[] };
  w.__offlineNoticePaths = [];
  const check = () => {
    if ([...document.querySelectorAll('.ant-notification-notice')].some((n) => n.textContent?.includes('已可离线使用'))) w.__offlineNoticePaths.push(location.pathname);
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
}
const offlineNoticePaths = (page: Page) => page.evaluate(() => (window as unknown as { __offlineNoticePaths?: string[] }).__offlineNoticePaths ?? []);

describe('no developer text on the main pages', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const stamp = Date.now();

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript(watchOfflineNotice);
    page = await context.newPage();
  });
  afterAll(async () => {
    await closeBrowserSession(browser, '/nonexistent-honesty-workdir');
  });

  it('已可离线使用 waits on the login page and shows once the user is inside', async () => {
    await page.goto(`${baseUrl()}/login`);
    await waitUntil(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated'), 'the service worker to be ready', 60_000);
    await page.waitForTimeout(1000);
    expect(await offlineNoticePaths(page)).toEqual([]);
    // Signing in from this very page: a reload of /login would come back to a worker already installed, which announces nothing.
    await submitLogin(page, 'admin', 'Admin@2024', async () => undefined);
    await page.waitForURL('**/main/file/personal**');
    // The first caching ends whenever it does; the notice comes once it has, inside the app.
    await page.locator('.ant-notification-notice', { hasText: '已可离线使用' }).waitFor({ timeout: 90_000 });
    const paths = await offlineNoticePaths(page);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((p) => !p.startsWith('/main/'))).toEqual([]);
  });

  it('已可离线使用 is not shown on the forced password change either', async () => {
    const user = `nodev${stamp}`;
    await addMember(user, 'Nodev@2024', true);
    const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      await other.addInitScript(watchOfflineNotice);
      const p = await other.newPage();
      await submitLogin(p, user, 'Nodev@2024');
      await p.waitForURL('**/initialPswChange**');
      await waitUntil(() => p.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated'), 'the service worker to be ready', 60_000);
      await p.waitForTimeout(1500);
      expect(await offlineNoticePaths(p)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('操作日志 names each row\'s object once, by name, never by id', async () => {
    // A link (logged with the file and the link, both named after the file) and a refused revoke of an unknown link.
    const created = await call<CreateTxtResponse>(page, API.createTxt, { parentId: null, category: 1, name: `日志对象-${stamp}.txt`, content: 'x' });
    if (created.status !== 'created') throw new Error('the file was not created');
    const file: FileEntry = created.file;
    await call(page, API.linkCreate, { fileId: file.id, code: 'k7p2', validityDays: 7, downloadLimit: null, previewOnly: false });
    await call(page, API.linkRevoke, { ids: ['Zz9Zz9Zz9Zz9Zz9Zz9Zz9Z'] }).catch(() => undefined);
    await visit(page, '/main/system/actionLog');
    const rows = page.getByTestId('action-log-row');
    await rows.first().waitFor();
    await shot(page, 'item9', 'action-log');
    const linkRow = rows.filter({ hasText: `日志对象-${stamp}.txt` }).filter({ hasText: '分享链接' }).first();
    const objectCell = linkRow.getByRole('cell').nth(3);
    await expect(objectCell.textContent()).resolves.toBe(`日志对象-${stamp}.txt`);
    expect(await rows.filter({ hasText: 'Zz9Zz9Zz9Zz9Zz9Zz9Zz9Z' }).count()).toBe(0);
  });

  it('the transfer panel offers no queue export unless the developer switch is on', async () => {
    await visit(page, '/main/file/personal');
    await openTransferPanel(page);
    await shot(page, 'item9', 'transfer-panel');
    expect(await page.getByTestId('transfer-export').count()).toBe(0);
    expect(await page.getByText('导出队列').count()).toBe(0);
    // Testers turn it on with ?devtools=1 (kept in the app's storage), and off with ?devtools=0.
    await page.goto(`${baseUrl()}/main/file/personal?devtools=1`);
    await openTransferPanel(page);
    await page.getByTestId('transfer-export').waitFor();
    await page.goto(`${baseUrl()}/main/file/personal?devtools=0`);
    await openTransferPanel(page);
    await page.getByTestId('file-table').waitFor();
    expect(await page.getByTestId('transfer-export').count()).toBe(0);
    await page.getByTestId('transfer-toggle').click();
  });

  it('no page shows developer text', async () => {
    const found: string[] = [];
    for (const path of Object.keys(MAIN_PAGES)) {
      if (NEEDS_PARAMETER.has(path)) continue;
      await visit(page, path);
      if (path === '/main/system/systemConfig' || path === '/main/file/other') await shot(page, 'item9', path.split('/').pop()!);
      for (const f of await page.evaluate(developerText)) found.push(`${path}: ${f.rule}: ${f.text}`);
    }
    expect([...new Set(found)]).toEqual([]);
  });

  it('on a 390-px phone no page, nor the menu drawer or the transfer sheet, shows developer text', async () => {
    const { context: phoneContext, page: phone } = await signInAdmin(browser, PHONE);
    try {
      const found: string[] = [];
      // The phone's own chrome: the menu drawer and the transfer list's bottom sheet (no queue export).
      await phone.getByTestId('open-menu').tap();
      await phone.getByTestId('menu-drawer').getByTestId('side-menu').waitFor();
      for (const f of await phone.evaluate(developerText)) found.push(`menu drawer: ${f.rule}: ${f.text}`);
      await phone.keyboard.press('Escape');
      await phone.getByTestId('menu-drawer').getByTestId('side-menu').waitFor({ state: 'hidden' });
      const sheetButton = phone.getByTestId('transfer-sheet-button');
      await expectOnScreen(phone, sheetButton, 'the transfer list button', { tap: true });
      await sheetButton.tap();
      await phone.getByTestId('transfer-panel').waitFor();
      await shot(phone, 'item9', 'phone-transfer-sheet');
      expect(await phone.getByTestId('transfer-export').count()).toBe(0);
      for (const f of await phone.evaluate(developerText)) found.push(`transfer sheet: ${f.rule}: ${f.text}`);
      await phone.keyboard.press('Escape');
      await phone.getByTestId('transfer-panel').waitFor({ state: 'hidden' });
      // The pages that draw themselves differently on a phone (the others differ only in the chrome above).
      for (const path of Object.keys(MAIN_PAGES).filter((p) => PHONE_VARIANTS.test(p))) {
        if (NEEDS_PARAMETER.has(path)) continue;
        await visit(phone, path);
        if (path === '/main/system/systemConfig' || path === '/main/file/other') await shot(phone, 'item9', `phone-${path.split('/').pop()!}`);
        for (const f of await phone.evaluate(developerText)) found.push(`${path}: ${f.rule}: ${f.text}`);
      }
      expect([...new Set(found)]).toEqual([]);
    } finally {
      await phoneContext.close();
    }
  });
});
