/**
 * `NETWORK_ENV=public npm start` serves the public-network build: every call carries
 * `X-Network-Env: public`, and the beian footer shows on the login pages and nowhere else. Started
 * here as a second instance with its own STATIC_DIR, DATA_DIR and port, beside the internal build
 * the other end-to-end tests use. An account whose outer login an admin turned off is refused there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_NETWORK_ENV } from '../../common/api/client-env';
import { API } from '../../common/api/paths';
import type { CaptchaImage } from '../../common/api/types';
import { startNpmStart, type NpmStartInstance } from '../support/npm-start';
import { captchaAnswer, launchBrowser } from './browser';

const BEIAN = '沪ICP备00000001号-1';

describe('NETWORK_ENV=public npm start', () => {
  let server: NpmStartInstance;
  let work: string;
  let browser: Browser;
  let page: Page;
  const dataDir = (): string => path.join(work, 'data');

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'drive-e2e-public-'));
    server = await startNpmStart(
      { NETWORK_ENV: 'public', BEIAN_NUMBER: BEIAN, DATA_DIR: dataDir(), STATIC_DIR: path.join(work, 'dist'), DRIVE_TEST_HOOKS: '1' },
      path.join(work, 'server.log'),
    );
    browser = await launchBrowser();
    page = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  /** Logs in through this instance's /login (its own captcha outbox); returns the login request. */
  async function loginHere(p: Page, username: string, password: string) {
    const captchaResponse = p.waitForResponse((r) => r.url().includes(API.captcha) && r.ok());
    await p.goto(server.baseUrl + '/login');
    const { data } = (await (await captchaResponse).json()) as { data: CaptchaImage };
    await p.getByTestId('login-username').fill(username);
    await p.getByTestId('login-password').fill(password);
    await p.getByTestId('login-captcha').fill(await captchaAnswer(data.captchaId, dataDir()));
    await p.getByTestId('login-agreement-box').check();
    const login = p.waitForResponse((r) => r.url().includes(API.loginPath));
    await p.getByTestId('login-submit').click();
    return login;
  }

  it('shows the beian footer on /login, sends X-Network-Env: public, and hides the footer after login', async () => {
    const captchaResponse = page.waitForResponse((r) => r.url().includes(API.captcha) && r.ok());
    await page.goto(server.baseUrl + '/login');
    const captcha = await captchaResponse;
    expect(captcha.request().headers()[HEADER_NETWORK_ENV.toLowerCase()]).toBe('public');
    await expect(page.getByTestId('beian-footer').textContent()).resolves.toBe(BEIAN);

    const login = await loginHere(page, 'admin', 'Admin@2024');
    expect(login.request().headers()[HEADER_NETWORK_ENV.toLowerCase()]).toBe('public');
    await page.waitForURL('**/main/file/personal**');
    await page.getByTestId('file-table').waitFor();
    expect(await page.getByTestId('beian-footer').count()).toBe(0);

    await page.goto(server.baseUrl + '/login/7');
    await page.getByTestId('beian-footer').waitFor();
  });

  it('an account whose outer login the admin turned off in 用户管理 is refused by the public build', async () => {
    const admin = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
    await loginHere(admin, 'admin', 'Admin@2024');
    await admin.waitForURL('**/main/file/personal**');
    await admin.goto(server.baseUrl + '/main/system/user/list');
    const switched = admin.waitForResponse((r) => r.url().endsWith(API.outerLoginSet));
    await admin.getByTestId('user-outer-member').click();
    expect((await switched).status()).toBe(200);
    await expect.poll(() => admin.getByTestId('user-outer-member').getAttribute('aria-checked')).toBe('false');

    const member = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
    const refused = await loginHere(member, 'member', 'Member@2024');
    expect(refused.status()).toBe(400);
    const body = (await refused.json()) as { errorMessage: string };
    expect(body.errorMessage).toBe('该账号未开通外网登录权限');
    await member.locator('.ant-message').getByText(body.errorMessage).waitFor();
    expect(new URL(member.url()).pathname).toBe('/login');
  });
});
