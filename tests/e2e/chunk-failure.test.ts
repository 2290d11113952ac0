/**
 * A route chunk that cannot be loaded (spec §8) shows the Chinese retry screen instead of a blank
 * page, and 重试 loads it once the network is back (fetching the chunk again, though the browser
 * remembers the failed import). The network failure is injected with
 * playwright's routing on the chunk's own URL; the 120-second limit itself is unit-tested
 * (tests/unit/src/chunk-timeout.test.ts). Likewise a drawer's part loaded on its own (the notice editor).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, submitLogin } from './browser';

/** The main shell's chunk (AppRoutes imports ./MainShell lazily; vite.config.ts groups it as `shell`). */
const MAIN_SHELL_CHUNK = /\/assets\/shell-[^/]+\.js$/;
/** 公告管理's rich-text editor, loaded when the notice drawer opens (NoticeFormDrawer.tsx). */
const NOTICE_EDITOR_CHUNK = /\/assets\/NoticeEditor-[^/]+\.js$/;

describe('a page chunk that fails to load', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    // No service worker: its precache would answer the chunk without touching the network.
    page = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows 页面加载失败 with 重试, and 重试 loads the page when the network is back', async () => {
    let refused = 0;
    await page.route(MAIN_SHELL_CHUNK, (route) => {
      refused++;
      return route.abort('internetdisconnected');
    });
    await submitLogin(page, 'admin', 'Admin@2024');
    await page.waitForURL('**/main/file/personal**');
    const screen = page.getByTestId('chunk-load-failed');
    await screen.waitFor();
    await expect(screen.textContent()).resolves.toContain('页面加载失败');
    expect(refused).toBeGreaterThan(0);

    await page.unroute(MAIN_SHELL_CHUNK);
    // The browser may keep the failed import in its module map: the retry asks for the chunk anew.
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.getByTestId('chunk-retry').click();
    await page.getByTestId('file-table').waitFor();
    expect(await page.getByTestId('chunk-load-failed').count()).toBe(0);
    expect(requested.some((url) => /\/assets\/shell-[^/]+\.js(\?retry=1)?$/.test(url))).toBe(true);
  });

  it("a drawer's editor that fails to load says so in its place, keeps the drawer and the draft, and 重试 loads it", async () => {
    await page.route(NOTICE_EDITOR_CHUNK, (route) => route.abort('internetdisconnected'));
    await page.goto(baseUrl() + '/main/system/notice');
    await page.getByTestId('notice-new').click();
    await page.getByTestId('notice-title').fill('草稿标题');
    await page.getByTestId('notice-editor-failed').waitFor();
    await expect(page.getByTestId('notice-editor-failed').textContent()).resolves.toContain('编辑器加载失败');

    await page.unroute(NOTICE_EDITOR_CHUNK);
    await page.getByTestId('notice-editor-retry').click();
    await page.getByTestId('notice-editor-content').click();
    await page.keyboard.type('正文');
    await expect(page.getByTestId('notice-title').inputValue()).resolves.toBe('草稿标题');
    await expect(page.getByTestId('notice-editor-content').textContent()).resolves.toBe('正文');
  });
});
