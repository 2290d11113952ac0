/**
 * Everyday comfort of the layout (issue 20), in Chromium against `npm start` at 1440 px: a logged-out
 * first load asks nothing that answers 401; the transfer panel stays a closed rail (the user list's
 * 操作 column fully in view) until a transfer starts, and is remembered; the menu says 交换区 like
 * the page and shows 个人中心 with an icon; 统一搜索 offers scopes and recent searches; menus open without
 * animation when the system asks for less motion.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { FileEntry } from '../../common/api/types';
import { baseUrl, closeBrowserSession, fileRow, loginAsAdmin, openBrowserSession, openOwnFolder, ownFolderPath, transferItems } from './browser';

describe('layout comfort', () => {
  let browser: Browser;
  let page: Page;
  let workDir: string;
  const stamp = Date.now().toString(36);
  /** Where its file goes: in the admin's root (earlier files' entries) a new file sorts below the rows the list renders. */
  let folder: FileEntry;

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('comfort-layout', { viewport: { width: 1440, height: 900 } }));
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('sends a logged-out first load straight to /login: no homeUrl call, no 401 in the console', async () => {
    const asked: string[] = [];
    const failures: string[] = [];
    page.on('request', (r) => asked.push(r.url()));
    page.on('response', (r) => r.status() === 401 && failures.push(r.url()));
    page.on('console', (m) => m.type() === 'error' && failures.push(m.text()));
    await page.goto(baseUrl() + '/');
    await page.waitForURL('**/login');
    await page.getByTestId('login-username').waitFor();
    await page.waitForTimeout(500);
    expect(asked.filter((u) => u.includes(API.homeUrl))).toEqual([]);
    expect(failures).toEqual([]);
    page.removeAllListeners('request');
    page.removeAllListeners('response');
    page.removeAllListeners('console');
  });

  it('keeps the transfer panel a closed rail after login, so the user list shows its 操作 column whole', async () => {
    await loginAsAdmin(page);
    const panel = page.getByTestId('transfer-panel');
    await expect(panel.getAttribute('data-expanded')).resolves.toBe('false');
    expect((await panel.boundingBox())!.width).toBeLessThanOrEqual(60);
    await page.goto(baseUrl() + '/main/system/user/list');
    const actions = page.getByRole('columnheader', { name: '操作' });
    await actions.waitFor();
    const header = (await actions.boundingBox())!;
    expect(header.x + header.width).toBeLessThanOrEqual((await panel.boundingBox())!.x);
  });

  it('opens the panel by itself when a transfer starts, and remembers a closed panel across a reload', async () => {
    folder = await openOwnFolder(page, `布局-${stamp}`);
    const name = `面板-${stamp}.txt`;
    const file = path.join(workDir, name);
    writeFileSync(file, 'panel');
    await page.getByTestId('upload-input').setInputFiles(file);
    const panel = page.getByTestId('transfer-panel');
    await expect.poll(() => panel.getAttribute('data-expanded')).toBe('true');
    await transferItems(page, name, 'done').waitFor({ timeout: 60_000 });
    await fileRow(page, name).waitFor();
    await page.getByTestId('transfer-toggle').click();
    await expect.poll(() => panel.getAttribute('data-expanded')).toBe('false');
    await page.reload();
    await page.getByTestId('file-table').waitFor();
    await expect(page.getByTestId('transfer-panel').getAttribute('data-expanded')).resolves.toBe('false');
    // the rail opens it again
    await page.getByTestId('transfer-toggle').click();
    await page.getByTestId('transfer-heading-upload').waitFor();
  });

  it('names the exchange area 交换区 in the menu and on its page, and gives 个人中心 an icon', async () => {
    const menu = page.getByTestId('side-menu');
    await menu.getByText('交换区', { exact: true }).click();
    await page.waitForURL('**/main/file/other');
    await page.getByTestId('breadcrumb').getByText('交换区').waitFor();
    expect(await menu.getByText('其他', { exact: true }).count()).toBe(0);
    const centre = menu.locator('.ant-menu-submenu-title', { hasText: '个人中心' });
    expect(await centre.locator('.anticon').count()).toBeGreaterThan(0);
  });

  it('offers scopes and recent searches on 统一搜索 before anything is typed', async () => {
    await page.goto(baseUrl() + '/main/file/unifiedSearch');
    await page.getByTestId('search-scopes').getByTestId('search-scope-all').waitFor();
    await page.getByTestId('search-scopes').getByText('个人文件').waitFor();
    await page.getByTestId('search-input').locator('input').fill(`面板-${stamp}`);
    await page.getByTestId('search-input').locator('input').press('Enter');
    await fileRow(page, `面板-${stamp}.txt`).waitFor();
    // the same keyword in one scope
    await page.getByTestId('search-scope-category:1').click();
    await page.waitForURL('**/main/file/search?**category=1**');
    await fileRow(page, `面板-${stamp}.txt`).waitFor();
    await page.goto(baseUrl() + '/main/file/unifiedSearch');
    const recent = page.getByTestId('recent-searches').getByTestId('recent-search').filter({ hasText: `面板-${stamp}` });
    await recent.click();
    await page.waitForURL('**/main/file/unifiedSearch?keyword=**');
    await fileRow(page, `面板-${stamp}.txt`).waitFor();
  });

  it('runs without animations by default, as every e2e context asks (tests/e2e/browser.ts)', async () => {
    // A Chromium switch meant to do this once did nothing here, and every test clicked through antd's
    // opening zooms unnoticed; the still theme's class on the page says the app took the request.
    const fresh = await page.context().newPage();
    await fresh.goto(baseUrl() + '/login');
    await expect(fresh.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).resolves.toBe(true);
    await fresh.locator('.css-var-desktop-still').first().waitFor({ state: 'attached' });
    await fresh.close();
  });

  it('opens menus without animation when the system asks for less motion, and animated otherwise', async () => {
    await page.goto(baseUrl() + ownFolderPath(folder));
    const row = fileRow(page, `面板-${stamp}.txt`);
    await row.waitFor();
    // The popup is always 'prepared' (measured for its placement); an animation shows as its start and active steps.
    const animating = (c: string) => /^ant-slide-up-(appear|enter)-(start|active)$/.test(c);
    /** Every class the context menu's popup had while it opened (a MutationObserver sees the motion steps). */
    const classesWhileOpening = async (): Promise<string[]> => {
      await page.evaluate(() => {
        const seen = new Set<string>();
        (window as unknown as { seenMenuClasses: Set<string> }).seenMenuClasses = seen;
        const note = (el: Element) => el.classList.contains('ant-dropdown') && el.classList.forEach((c) => seen.add(c));
        new MutationObserver((records) => {
          for (const r of records) {
            if (r.target instanceof Element) note(r.target);
            r.addedNodes.forEach((n) => n instanceof Element && (note(n), n.querySelectorAll('.ant-dropdown').forEach(note)));
          }
        }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
      });
      await row.getByTestId('file-name').click({ button: 'right' });
      await page.locator('.ant-dropdown:visible [data-testid="menu-rename"]').waitFor();
      await page.waitForTimeout(400); // longer than antd's slide-up (0.2 s)
      await page.keyboard.press('Escape');
      await page.locator('.ant-dropdown:visible').waitFor({ state: 'detached' }).catch(() => undefined);
      return page.evaluate(() => [...(window as unknown as { seenMenuClasses: Set<string> }).seenMenuClasses]);
    };

    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.reload();
    await row.waitFor();
    expect((await classesWhileOpening()).filter(animating)).not.toEqual([]);

    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.reload();
    await row.waitFor();
    expect((await classesWhileOpening()).filter(animating)).toEqual([]);
  });

  it("finds antd's CSS variables for 个人文件 in index.html: none inserted while it loads, and their values apply", async () => {
    // The build renders them for the desktop theme with motion (src/app/antd-static-css-vars.ts).
    const fresh = await page.context().newPage();
    await fresh.emulateMedia({ reducedMotion: 'no-preference' });
    // What scripts insert (the parser's own insertions call no DOM method).
    await fresh.addInitScript(() => {
      const inserted: string[] = [];
      (window as unknown as { insertedCssVars: string[] }).insertedCssVars = inserted;
      for (const method of ['insertBefore', 'appendChild'] as const) {
        const original = Node.prototype[method] as (...args: Node[]) => Node;
        Object.defineProperty(Node.prototype, method, {
          value(this: Node, node: Node, ...rest: Node[]) {
            if (node instanceof HTMLStyleElement && node.hasAttribute('data-token-hash')) inserted.push((node.textContent ?? '').split('{')[0]!);
            return original.call(this, node, ...rest);
          },
        });
      }
    });
    const html = await (await fetch(baseUrl() + '/index.html')).text();
    const inHtml = [...html.matchAll(/<style [^>]*data-token-hash="[^"]*"[^>]*>([^{<]*)\{/g)].map((m) => m[1]!);
    await fresh.goto(baseUrl() + ownFolderPath(folder));
    await fileRow(fresh, `面板-${stamp}.txt`).waitFor();
    await fresh.getByRole('menuitem', { name: '个人文件' }).waitFor();
    await fresh.waitForTimeout(500);
    const inserted = await fresh.evaluate(() => (window as unknown as { insertedCssVars: string[] }).insertedCssVars);
    expect(inHtml).toEqual(expect.arrayContaining(['.css-var-desktop', '.css-var-desktop.ant-btn', '.css-var-desktop.ant-layout', '.css-var-desktop.ant-menu-css-var', '.css-var-desktop.ant-input']));
    // Found in place by antd, not inserted again; only components that are not on the first screens (a toast) may be.
    expect(inserted.filter((selector) => inHtml.includes(selector))).toEqual([]);
    const primary = await fresh.locator('.ant-menu-item-selected').first().evaluate((el) => getComputedStyle(el).getPropertyValue('--ant-color-primary'));
    expect(primary.trim().toLowerCase()).toBe('#0958d9');
    await fresh.close();
  });
});
