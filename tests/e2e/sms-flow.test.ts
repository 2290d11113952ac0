/**
 * SMS in a real browser against `npm start`: log in through the SMS tab (image captcha to send, the
 * countdown, the 6-digit code from the server's test gateway), then replace the phone in 账号安全.
 * Uses the admin account, whose password is left unchanged.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { CaptchaImage } from '../../common/api/types';
import { withDb } from '../server/helpers';
import { baseUrl, captchaAnswer, launchBrowser, smsCodeFor } from './browser';

const ADMIN_PHONE = '13800000000';
const NEW_PHONE = '13700001234';

/** Answers the current image captcha of the `prefix` fields (its image came with `captcha`). */
async function answerCaptcha(page: Page, prefix: string, captcha: Promise<CaptchaImage>): Promise<void> {
  await page.getByTestId(`${prefix}-captcha`).fill(await captchaAnswer((await captcha).captchaId));
}

function nextCaptcha(page: Page): Promise<CaptchaImage> {
  return page
    .waitForResponse((r) => r.url().includes(API.captcha) && r.ok())
    .then(async (r) => ((await r.json()) as { data: CaptchaImage }).data);
}

async function smsLogin(page: Page, phone: string): Promise<void> {
  const passwordTabCaptcha = nextCaptcha(page);
  await page.goto(baseUrl() + '/login');
  await passwordTabCaptcha;
  const captcha = nextCaptcha(page);
  await page.getByTestId('login-tab-sms').click();
  await page.getByTestId('sms-phone').fill(phone);
  await answerCaptcha(page, 'sms', captcha);
  const since = Date.now() - 1000;
  await page.getByTestId('sms-send').click();
  await expect.poll(() => page.getByTestId('sms-send').textContent()).toMatch(/^\d+秒后重发$/);
  await page.getByTestId('sms-code').fill(await smsCodeFor(phone, since));
  await page.getByTestId('login-agreement-box').check();
  await page.getByTestId('sms-submit').click();
}

describe('SMS login and phone binding', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('refuses to log in before the user agreement is accepted', async () => {
    await page.goto(baseUrl() + '/login');
    await page.getByTestId('login-username').fill('admin');
    await page.getByTestId('login-password').fill('whatever1!');
    await page.getByTestId('login-captcha').fill('x');
    const posted: string[] = [];
    page.on('request', (r) => r.url().includes(API.loginPath) && posted.push(r.url()));
    await page.getByTestId('login-submit').click();
    await page.getByTestId('login-agreement-error').waitFor();
    expect(posted).toEqual([]);
  });

  it('logs in with a code sent to the phone', async () => {
    await smsLogin(page, ADMIN_PHONE);
    await page.waitForURL('**/main/file/personal**');
    await page.getByTestId('file-table').waitFor();
  });

  it('replaces the phone in 账号安全: login password and a code to the phone bound now, then the new phone’s code; 基本信息 shows it', async () => {
    // The login code just went to the admin's phone: let its resend interval pass (no minute of waiting).
    await withDb({ dataDir: inject('dataDir') }, (db) => db.prepare('update sms_codes set created_at = created_at - 120000').run());
    await page.goto(baseUrl() + '/main/user/accountSafe');
    await expect.poll(() => page.getByTestId('account-safe-phone').textContent()).toContain('更换手机号');
    const verifyCaptcha = nextCaptcha(page);
    await page.getByTestId('account-safe-phone').click();
    await expect.poll(() => page.getByTestId('verify-old-phone').textContent()).toContain('138****0000');
    await page.getByTestId('bind-password').fill('Admin@2024');
    await answerCaptcha(page, 'verify', verifyCaptcha);
    let since = Date.now() - 1000;
    // Sending uses the captcha up and shows a new one: the next step's comes after that.
    const refreshed = nextCaptcha(page);
    await page.getByTestId('verify-send').click();
    await page.getByTestId('verify-code').fill(await smsCodeFor(ADMIN_PHONE, since));
    await refreshed;
    const captcha = nextCaptcha(page);
    await page.getByTestId('bind-next').click();
    await page.getByTestId('bind-phone').fill(NEW_PHONE);
    await answerCaptcha(page, 'bind', captcha);
    since = Date.now() - 1000;
    await page.getByTestId('bind-send').click();
    await page.getByTestId('bind-code').fill(await smsCodeFor(NEW_PHONE, since));
    const validated = page.waitForResponse((r) => r.url().endsWith(API.phoneValidate));
    await page.getByTestId('bind-phone-ok').click();
    expect((await validated).status()).toBe(200);
    await expect.poll(() => page.getByTestId('account-safe-phone-value').textContent()).toContain('137****1234');

    await page.goto(baseUrl() + '/main/user/userInfo');
    await expect.poll(() => page.getByTestId('user-info-phone').textContent()).toBe('137****1234');
  });
});
