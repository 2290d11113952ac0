/**
 * A route chunk that cannot be loaded (spec §8) shows the Chinese retry screen instead of a blank
 * page, and 重试 loads it once the network is back (fetching the chunk again, though the browser
 * remembers the failed import). The network failure is injected with
 * playwright's routing on the chunk's own URL; the 120-second limit itself is unit-tested
 * (tests/unit/src/chunk-timeout.test.ts).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, submitLogin } from './browser';

/** The main shell's chunk (AppRoutes imports ./MainShell lazily; vite.config.ts groups it as `shell`). */
const MAIN_SHELL_CHUNK = /\/assets\/shell-[^/]+\.js$/;

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
});
