/**
 * A new deployment is announced, not slipped in (issue 13): the installed service worker keeps
 * serving the build the page runs; once a new build is served, 发现新版本 appears with 刷新, and 刷新
 * brings the page onto the new build.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, closeBrowserSession, openBrowserSession } from './browser';

const ROOT = path.resolve(__dirname, '../..');
const buildOf = (page: Page) => page.evaluate(() => document.documentElement.dataset.build ?? '');

describe('a new build', () => {
  let browser: Browser;
  let page: Page;
  let workDir: string;

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('update'));
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('is offered with 发现新版本 / 刷新, and 刷新 loads it', async () => {
    await page.goto(baseUrl() + '/login');
    await page.getByTestId('login-submit').waitFor();
    // The current build's worker is installed and active (ready resolves with an active registration).
    await page.evaluate(async () => void (await navigator.serviceWorker.ready));
    const before = await buildOf(page);
    expect(before).not.toBe('');

    // Deploy: the server serves STATIC_DIR (npm start's default, dist/); a build there is a new version.
    const { NODE_ENV: _runnerNodeEnv, ...env } = process.env;
    execFileSync(path.join(ROOT, 'node_modules', '.bin', 'vite'), ['build'], { cwd: ROOT, env: { ...env, BUILD_ID: `e2e-${Date.now()}` }, stdio: 'ignore' });

    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const prompt = page.locator('.ant-notification-notice', { hasText: '发现新版本' });
    await prompt.waitFor({ timeout: 60_000 });
    // Until the user says so, the page stays on the build it runs.
    expect(await buildOf(page)).toBe(before);
    await prompt.getByTestId('pwa-refresh').click();
    await page.waitForFunction((old) => document.documentElement.dataset.build && document.documentElement.dataset.build !== old, before, { timeout: 30_000 });
    await page.getByTestId('login-submit').waitFor();
  });
});
