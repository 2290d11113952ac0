/**
 * 系统配置 in a real browser against `npm start`: the admin uploads a login background through the
 * page (a file picked, sent base64, re-encoded by the server), the login page then shows it to a
 * visitor without a session, and 恢复默认 takes it away again; a module switched off leaves the menu.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, closeBrowserSession, launchBrowser, openBrowserSession, submitLogin, type BrowserSession } from './browser';

async function loginBackgroundOf(): Promise<string> {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(`${baseUrl()}/login`);
    const box = page.getByTestId('login-background');
    await box.waitFor();
    return await box.evaluate((el) => getComputedStyle(el).backgroundImage);
  } finally {
    await browser.close();
  }
}

describe('系统配置: the login background and the module switches', () => {
  let s: BrowserSession;

  beforeAll(async () => {
    s = await openBrowserSession('system-config');
    await submitLogin(s.page, 'admin', 'Admin@2024');
    await s.page.waitForURL('**/main/file/personal**');
  });
  afterAll(async () => {
    await closeBrowserSession(s.browser, s.workDir);
  });

  it('an uploaded background is what the login page shows; 恢复默认 removes it', async () => {
    const page = s.page;
    await page.goto(`${baseUrl()}/main/system/systemConfig`);
    await page.getByTestId('system-config').waitFor();
    const file = path.join(s.workDir, 'background.jpg');
    writeFileSync(file, await sharp({ create: { width: 1600, height: 900, channels: 3, background: { r: 10, g: 60, b: 120 } } }).jpeg().toBuffer());
    const saved = page.waitForResponse((r) => r.url().includes('/api/tenant/update') && r.status() === 200);
    await page.getByTestId('config-background-file').setInputFiles(file);
    await saved;
    await expect.poll(loginBackgroundOf, { timeout: 15_000 }).toMatch(/url\(".*\/api\/v2\/defaultConfig\/loginBackground\?t=[^"]+&v=\d+"\)/);

    const reset = page.waitForResponse((r) => r.url().includes('/api/tenant/BGImage/reset') && r.status() === 200);
    await page.getByRole('button', { name: '恢复默认' }).nth(1).click();
    await page.getByRole('button', { name: /恢\s*复/ }).last().click();
    await reset;
    await expect.poll(loginBackgroundOf, { timeout: 15_000 }).not.toContain('url(');
  });

  it('a module switched off leaves the menu; switched on, it is back', async () => {
    const page = s.page;
    const menu = page.locator('.ant-menu');
    await menu.getByText('群组空间').waitFor();
    await page.getByTestId('module-group').click();
    await expect.poll(() => menu.getByText('群组空间').count(), { timeout: 15_000 }).toBe(0);
    await page.getByTestId('module-group').click();
    await menu.getByText('群组空间').waitFor({ timeout: 15_000 });
  });

  it('分享有效期 lists the validity group from dict/queryByGroup, on and off; an entry off leaves the share choices', async () => {
    const page = s.page;
    const staticValidity = () =>
      page.evaluate(async () => {
        const r = await fetch('/api/staticData/list', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json', 'X-Client-Platform': 'web' }, body: JSON.stringify({ names: ['validity'] }) });
        return ((await r.json()) as { data: { validity: Array<{ label: string }> } }).data.validity.map((v) => v.label);
      });
    const card = page.getByTestId('config-validity');
    await card.getByText('永久有效').waitFor();
    await page.getByTestId('validity-1').click();
    await page.getByText('有效期 1天 已关闭').waitFor();
    // Still listed here (the group answers entries that are off), no longer offered to shares.
    await expect.poll(() => page.getByTestId('validity-1').getAttribute('aria-checked')).toBe('false');
    expect(await staticValidity()).not.toContain('1天');
    await card.screenshot({ path: '/work/wt/shots/speccalls/validity-after-card.png' });
    await page.getByTestId('validity-1').click();
    await expect.poll(staticValidity).toContain('1天');
  });
});
