/**
 * Issue 44 item 6, link visitors, each in a fresh anonymous browser (no session, no cache) on a desktop
 * and on a 390-px phone: the link's code page names the sharer and the file (and the expiry) before
 * the code; at 剩余下载 0 次 every 下载 is off and says why; /downloadExceeded — reached when others
 * used the last download — leads back to the link page and never to the internal login. The code page
 * is in the HTML the server sends (it paints with no script; the script takes it over where it is,
 * with what was typed); the ≤ 1 s cold paint is the delivery bench's (`linkCodePageMs`), not a timed test.
 * LINK_SHOTS=<dir>/<prefix> keeps screenshots of each page (<prefix>-desktop-code.png, …).
 */
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API } from '../../common/api/paths';
import { DEFAULT_SHARE_POLICY, type FileSecuritySettings, type LinkInfo } from '../../common/api/sharing';
import type { CreateTxtResponse } from '../../common/api/types';
import { baseUrl, launchBrowser, submitLogin } from './browser';

const RUN = Date.now().toString(36).slice(-6);
const FILE = `季度报告-${RUN}.txt`;
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

async function call<T>(page: Page, url: string, body?: unknown): Promise<T> {
  const res = await page.evaluate(
    async ({ url, body }) => {
      const r = await fetch(url, { method: body === undefined ? 'GET' : 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: r.status, json: (await r.json()) as { data: unknown } };
    },
    { url, body },
  );
  if (res.status !== 200) throw new Error(`${url}: ${JSON.stringify(res.json)}`);
  return res.json.data as T;
}

async function shot(page: Page, name: string): Promise<void> {
  if (process.env.LINK_SHOTS) await page.screenshot({ path: `${process.env.LINK_SHOTS}-${name}.png`, fullPage: true });
}

describe('link visitors (issue 44 item 6)', () => {
  let browser: Browser;
  let admin: Page;
  let sharer: string;
  let policy: FileSecuritySettings['sharePolicy'];
  let fileId: string;
  const pageErrors: string[] = [];

  /** A fresh anonymous visitor: no cookie, no cache, no service worker. */
  async function visitor(options: BrowserContextOptions, label: string): Promise<Page> {
    const page = await (await browser.newContext(options)).newPage();
    page.on('pageerror', (e) => pageErrors.push(`${label}: ${e.message}`));
    return page;
  }
  const link = (downloadLimit: number | null) => call<LinkInfo>(admin, API.linkCreate, { fileId, code: '', validityDays: 7, downloadLimit, previewOnly: false });
  const openWithCode = async (page: Page, l: LinkInfo) => {
    await page.goto(`${baseUrl()}/shareLink/${l.token}`);
    await page.getByTestId('link-code-entry').fill(l.code!);
    await page.getByTestId('link-code-submit').click();
    await page.getByTestId('link-opened').waitFor();
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await (await browser.newContext()).newPage();
    await submitLogin(admin, 'admin', 'Admin@2024');
    await admin.waitForURL('**/main/file/personal**');
    // Links without approval here (another test may have asked for it); put back afterwards.
    policy = (await call<FileSecuritySettings>(admin, API.fileSecurityGet)).sharePolicy;
    await call(admin, API.fileSecurityUpdate, { sharePolicy: { ...DEFAULT_SHARE_POLICY, link: { ...DEFAULT_SHARE_POLICY.link, always: false, sensitive: false } } });
    fileId = (await call<CreateTxtResponse & { status: 'created' }>(admin, API.createTxt, { parentId: null, category: 1, name: FILE, content: '第三季度：营收与计划。' })).file.id;
    const db = new SQLite(path.join(inject('dataDir'), 'drive.sqlite'), { readonly: true });
    sharer = (db.prepare("select nick_name from users where username = 'admin'").get() as { nick_name: string }).nick_name;
    db.close();
  });
  afterAll(async () => {
    if (policy) await call(admin, API.fileSecurityUpdate, { sharePolicy: policy });
    await browser?.close();
  });

  for (const [device, options] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`${device}: the code page names the sharer, the file and the expiry before the code, and nothing of a way into the app`, async () => {
      const l = await link(3);
      const page = await visitor(options, device);
      await page.goto(`${baseUrl()}/shareLink/${l.token}`);
      const summary = page.getByTestId('link-summary');
      await summary.waitFor();
      expect(await page.getByTestId('link-sharer').textContent()).toBe(sharer);
      expect(await summary.textContent()).toContain('给你分享了文件');
      expect(await page.getByTestId('link-file-name').textContent()).toBe(FILE);
      expect(await summary.getByTestId('file-kind-icon').getAttribute('data-kind')).toBe('txt');
      expect(await page.getByTestId('link-expiry').textContent()).toMatch(/^有效期至 \d{4}-\d\d-\d\d \d\d:\d\d/);
      await page.getByTestId('link-code-entry').waitFor();
      expect(await page.getByTestId('link-code-submit').isDisabled()).toBe(true);
      // Everything fits the screen (no sideways scrolling on a phone), and nothing points to /login.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(options.viewport!.width);
      expect(await page.locator('a[href*="/login"]').count()).toBe(0);
      await shot(page, `${device}-code`);
      // A wrong code says so on the page; the right one opens it.
      await page.getByTestId('link-code-entry').fill('zzzz');
      await page.getByTestId('link-code-submit').click();
      await page.getByTestId('link-code-error').getByText('链接不存在或提取码错误').waitFor();
      await page.getByTestId('link-code-entry').fill(l.code!);
      await page.getByTestId('link-code-submit').click();
      await page.getByTestId('link-opened').waitFor();
      await page.context().close();
    });
  }

  for (const [device, options] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`${device}: the code page paints from the HTML alone, and its script takes it over without a move, keeping what was typed`, async () => {
      const l = await link(3);
      const page = await visitor(options, `${device} held`);
      // A hydration that fails says so (src/link-main.tsx), and React would draw the page anew.
      const consoleErrors: string[] = [];
      page.on('console', (m) => void (m.type() === 'error' && consoleErrors.push(m.text())));
      // The page's scripts wait until the painted page has been looked at and typed into.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/*.js', async (route) => {
        await released;
        await route.continue();
      });
      await page.goto(`${baseUrl()}/shareLink/${l.token}`, { waitUntil: 'commit' });
      await page.getByTestId('link-summary').waitFor();
      expect(await page.getByTestId('link-sharer').textContent()).toBe(sharer);
      expect(await page.getByTestId('link-file-name').textContent()).toBe(FILE);
      expect(await page.getByTestId('link-summary').getByTestId('file-kind-icon').getAttribute('data-kind')).toBe('txt');
      expect(await page.locator('[data-testid="file-kind-icon"] svg').count()).toBe(1);
      expect(await page.getByTestId('link-code-submit').isDisabled()).toBe(true);
      expect(await page.getByTestId('link-code-form').getAttribute('data-drawn')).toBe('server');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(options.viewport!.width);
      await shot(page, `${device}-code-before-script`);
      const parts = ['brand', 'link-sharer', 'link-file-name', 'file-kind-icon', 'link-expiry', 'link-code-entry', 'link-code-submit'];
      const boxes = () => Promise.all(parts.map(async (id) => page.getByTestId('share-link-page').getByTestId(id).first().boundingBox()));
      const painted = await boxes();
      const text = await page.getByTestId('share-link-page').innerText();
      const markup = () => page.evaluate(() => ['brand', 'link-summary'].map((id) => document.querySelector(`[data-testid="${id}"]`)!.outerHTML));
      const drawnMarkup = await markup();
      await page.evaluate((ids) => Object.assign(window, { drawnNodes: ids.map((id) => document.querySelector(`[data-testid="${id}"]`)) }), parts);
      await page.getByTestId('link-code-entry').pressSequentially(l.code!.slice(0, 2));
      release();
      // Taken over: the form is React's now, where everything was, with the same words and what was typed.
      await page.locator('[data-testid="link-code-form"]:not([data-drawn])').waitFor();
      // Hydrated, not replaced: the very elements the server sent, unchanged.
      const same = await page.evaluate(
        (ids) => ids.map((id, i) => document.querySelector(`[data-testid="${id}"]`) === (window as unknown as { drawnNodes: Element[] }).drawnNodes[i]),
        parts,
      );
      expect(Object.fromEntries(parts.map((id, i) => [id, same[i]]))).toEqual(Object.fromEntries(parts.map((id) => [id, true])));
      expect(await markup()).toEqual(drawnMarkup);
      expect(consoleErrors).toEqual([]);
      expect(await boxes()).toEqual(painted);
      expect(await page.getByTestId('share-link-page').innerText()).toBe(text);
      expect(await page.getByTestId('link-code-entry').inputValue()).toBe(l.code!.slice(0, 2));
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('link-code');
      await page.keyboard.type(l.code!.slice(2));
      await page.keyboard.press('Enter');
      await page.getByTestId('link-opened').waitFor();
      await page.context().close();
    });
  }

  it('a revoked link says so from the HTML alone, naming nothing of the file', async () => {
    const l = await link(null);
    await call(admin, API.linkRevoke, { ids: [l.id] });
    const page = await visitor(PHONE, 'revoked');
    await page.route('**/*.js', (route) => route.abort());
    await page.goto(`${baseUrl()}/shareLink/${l.token}`);
    await page.getByTestId('link-gone').getByText('分享链接已失效').waitFor();
    expect(await page.content()).not.toContain(FILE);
    await shot(page, 'phone-gone-before-script');
    await page.context().close();
  });

  it('phone: at 剩余下载 0 次 every 下载 is off and says why; the server refuses anyway', async () => {
    const l = await link(1);
    const first = await visitor(DESKTOP, 'downloader');
    await openWithCode(first, l);
    const download = first.waitForEvent('download');
    await first.locator(`[data-testid="link-row"][data-name="${FILE}"]`).getByTestId('link-row-download').click();
    expect((await download).suggestedFilename()).toBe(FILE);
    await first.getByTestId('link-meta').getByText('剩余下载 0 次').waitFor();
    for (const button of await first.locator('[data-testid="link-row-download"], [data-testid="link-download-main"]').all()) expect(await button.isDisabled()).toBe(true);
    await first.context().close();

    const page = await visitor(PHONE, 'phone at 0');
    await openWithCode(page, l);
    expect(await page.getByTestId('link-meta').textContent()).toContain('剩余下载 0 次');
    await page.getByTestId('link-downloads-used-up').getByText('剩余下载次数已用完', { exact: false }).waitFor();
    const buttons = page.locator('[data-testid="link-row-download"], [data-testid="link-download-main"]');
    expect(await buttons.count()).toBeGreaterThanOrEqual(2);
    for (const button of await buttons.all()) {
      expect(await button.isDisabled()).toBe(true);
      expect(await button.getAttribute('title')).toBe('剩余下载次数已用完');
    }
    await shot(page, 'phone-used-up');
    // The server still refuses (DEP10213) whatever a client sends.
    const visit = await page.evaluate((token) => JSON.parse(sessionStorage.getItem(`share-link-visit:${token}`)!).visit as string, l.token);
    const refused = await page.evaluate(
      async ({ url, body }) => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json(),
      { url: API.linkDownload, body: { visit, ids: [fileId] } },
    );
    expect(refused).toMatchObject({ errorCode: 'DEP10213' });
    await page.context().close();
  });

  it('desktop: when others used the last download, /downloadExceeded leads back to the link page, never to /login', async () => {
    const l = await link(1);
    const page = await visitor(DESKTOP, 'late visitor');
    await openWithCode(page, l);
    expect(await page.getByTestId('link-meta').textContent()).toContain('剩余下载 1 次');
    // Someone else takes it meanwhile.
    const other = await visitor(PHONE, 'other visitor');
    await openWithCode(other, l);
    const taken = other.waitForEvent('download');
    await other.locator(`[data-testid="link-row"][data-name="${FILE}"]`).getByTestId('link-row-download').click();
    await taken;
    await other.context().close();

    await page.locator(`[data-testid="link-row"][data-name="${FILE}"]`).getByTestId('link-row-download').click();
    await page.waitForURL('**/downloadExceeded');
    await page.getByTestId('download-exceeded').waitFor();
    expect(await page.locator('a[href*="/login"]').count()).toBe(0);
    expect(await page.getByRole('button', { name: /返回首页|登录/ }).count()).toBe(0);
    await shot(page, 'desktop-exceeded');
    await page.getByTestId('back-to-link').click();
    await page.waitForURL(`**/shareLink/${l.token}`);
    // Back on the link page, it knows none are left.
    await page.getByTestId('link-downloads-used-up').waitFor();
    expect(await page.locator('[data-testid="link-row-download"]').first().isDisabled()).toBe(true);
    expect(page.url()).not.toContain('/login');
    await page.context().close();
  });

  it('an outsider who lands on /downloadExceeded directly is offered no way into the internal login', async () => {
    const page = await visitor(PHONE, 'direct');
    await page.goto(`${baseUrl()}/downloadExceeded`);
    await page.getByTestId('download-exceeded').waitFor();
    expect(await page.getByTestId('download-exceeded').textContent()).toContain('您可以关闭此页面');
    expect(await page.locator('button, a').count()).toBe(0);
    await shot(page, 'phone-exceeded-direct');
    expect(page.url()).not.toContain('/login');
    await page.context().close();
  });

  it('threw no page error on the way', () => {
    expect(pageErrors).toEqual([]);
  });
});
