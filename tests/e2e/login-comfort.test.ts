/**
 * Login comfort (issue 20) in Chromium against `npm start`: the user agreement, once accepted, stays
 * ticked on this device; 忘记密码 sets a new password with an SMS code sent to the bound phone (field
 * errors under their fields, not as toasts), after which the new password logs in; 基本信息 changes
 * the nickname and the avatar, which the header shows at once. The account is
 * one of the test's own, added by the admin through the people API.
 */
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { CaptchaImage } from '../../common/api/types';
import { encryptPassword } from '../../common/crypto/password-cipher';
import { QUOTA_CHOICES } from '../../common/org/quota';
import { antdClassesWithoutStyles } from './antd-styles';
import { baseUrl, captchaAnswer, launchBrowser, loginAsAdmin, smsCodeFor, smsOutboxMark, submitLogin } from './browser';

const USER = { username: `forgot${randomBytes(3).toString('hex')}`, phone: `136${String(Date.now()).slice(-8)}`, newPassword: 'Forgot#2026' };
/** A second account, left with its initial password: the forced change. */
const NEWCOMER = { username: `newbie${randomBytes(3).toString('hex')}`, password: 'Initial@2024', newPassword: 'Changed#2026' };

function postFromPage(page: Page, apiPath: string, body: unknown): Promise<{ status: number; body: { data?: { id?: string } } }> {
  return page.evaluate(
    async ({ url, payload }) => {
      const r = await fetch(url, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json', 'X-Client-Platform': 'web', 'X-Network-Env': 'internal' }, body: JSON.stringify(payload) });
      return { status: r.status, body: (await r.json()) as { data?: { id?: string } } };
    },
    { url: baseUrl() + apiPath, payload: body },
  );
}

function nextCaptcha(page: Page): Promise<CaptchaImage> {
  return page.waitForResponse((r) => r.url().includes(API.captcha) && r.ok()).then(async (r) => ((await r.json()) as { data: CaptchaImage }).data);
}

describe('login comfort', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    const admin = await (await browser.newContext()).newPage();
    await loginAsAdmin(admin);
    const dept = await postFromPage(admin, API.departmentCreate, { parentId: null, name: `找回部${randomBytes(2).toString('hex')}` });
    const added = await postFromPage(admin, API.userAdd, {
      website: USER.username,
      nickName: '找回密码的人',
      phone: USER.phone,
      departmentId: dept.body.data!.id!,
      role: 'member',
      quota: QUOTA_CHOICES[0]!.bytes,
      outerLogin: true,
      password: encryptPassword('Initial@2024'),
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const newcomer = await postFromPage(admin, API.userAdd, {
      website: NEWCOMER.username,
      nickName: '新人',
      phone: '',
      departmentId: dept.body.data!.id!,
      role: 'member',
      quota: QUOTA_CHOICES[0]!.bytes,
      outerLogin: true,
      password: encryptPassword(NEWCOMER.password),
    });
    expect(newcomer.status, JSON.stringify(newcomer.body)).toBe(200);
    await admin.context().close();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a wrong captcha says so when the field loses focus (captcha/validate), with a new picture; the login still checks', async () => {
    await page.goto(baseUrl() + '/login');
    await page.locator('img[data-testid="login-captcha-image"]').waitFor();
    const first = nextCaptcha(page);
    await page.getByTestId('login-captcha-image').click();
    const { captchaId } = await first;
    const answer = await captchaAnswer(captchaId);
    await page.getByTestId('login-captcha').fill(`${answer}9`);
    const checked = page.waitForResponse((r) => r.url().includes(API.captchaValidate));
    const fresh = nextCaptcha(page);
    await page.getByTestId('login-username').click();
    expect((await checked).status()).toBe(400);
    await page.locator('#login-captcha-error').getByText('验证码错误，已换一张，请重新输入').waitFor();
    expect(await page.getByTestId('login-captcha').inputValue()).toBe('');
    await page.screenshot({ path: '/work/wt/shots/speccalls/captcha-after-blur.png' });
    // The right answer of the new picture: no message on blur.
    const next = await fresh;
    expect(next.captchaId).not.toBe(captchaId);
    await page.getByTestId('login-captcha').fill(await captchaAnswer(next.captchaId));
    const right = page.waitForResponse((r) => r.url().includes(API.captchaValidate));
    await page.getByTestId('login-username').click();
    expect((await right).status()).toBe(200);
    expect(await page.locator('#login-captcha-error').count()).toBe(0);
  });

  it('remembers the accepted agreement on this device', async () => {
    await page.goto(baseUrl() + '/login');
    const box = page.getByTestId('login-agreement-box');
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await page.reload();
    await expect.poll(() => page.getByTestId('login-agreement-box').isChecked()).toBe(true);
  });

  it('resets a forgotten password by an SMS code to the bound phone, with field errors under their fields', async () => {
    await page.goto(baseUrl() + '/login');
    await page.getByTestId('login-forgot').click();
    const form = page.getByTestId('forgot-form');
    await form.waitFor();
    // a click on the picture brings a new one: that is the one answered
    await page.locator('img[data-testid="forgot-captcha-image"]').waitFor();
    const captcha = nextCaptcha(page);
    await page.getByTestId('forgot-captcha-image').click();
    await page.getByTestId('forgot-phone').fill(USER.phone);
    await page.getByTestId('forgot-captcha').fill(await captchaAnswer((await captcha).captchaId));
    const mark = smsOutboxMark();
    await page.getByTestId('forgot-send').click();
    await expect.poll(() => page.getByTestId('forgot-send').textContent()).toMatch(/^\d+秒后重发$/);
    const code = await smsCodeFor(USER.phone, mark);

    // a wrong code: said under the code field, no toast
    await page.getByTestId('forgot-code').fill(code === '000000' ? '111111' : '000000');
    await page.getByTestId('forgot-new').fill(USER.newPassword);
    await page.getByTestId('forgot-repeat').fill(USER.newPassword + 'x');
    await page.getByTestId('forgot-submit').click();
    await form.getByText('两次输入密码不一致!').waitFor();
    await page.getByTestId('forgot-repeat').fill(USER.newPassword);
    await page.getByTestId('forgot-submit').click();
    await form.getByText('短信验证码错误或已过期，请重新获取').waitFor();
    // (the toast of the sent code may still show; no error toast)
    expect(await page.locator('.ant-message-error').count()).toBe(0);

    await page.getByTestId('forgot-code').fill(code);
    await page.getByTestId('forgot-submit').click();
    await page.locator('.ant-message', { hasText: '密码已重置，请使用新密码登录。' }).waitFor();
    await page.getByTestId('login-username').waitFor();

    await submitLogin(page, USER.username, USER.newPassword);
    await page.waitForURL('**/main/**');
  });

  it('changes the nickname and the avatar in 基本信息, with errors under the field; the header follows', async () => {
    await page.goto(baseUrl() + '/main/user/userInfo');
    await page.getByTestId('nickname-edit').click();
    await page.getByTestId('nickname-input').fill('   ');
    await page.getByTestId('nickname-save').click();
    await page.getByTestId('nickname-error').getByText('请输入昵称').waitFor();
    await page.getByTestId('nickname-input').fill('小明');
    await page.getByTestId('nickname-input').press('Enter');
    await page.getByTestId('user-info-nickname').getByText('小明', { exact: true }).waitFor();
    await page.getByTestId('user-nickname').getByText('小明', { exact: true }).waitFor();

    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 240, g: 120, b: 20 } } }).png().toBuffer();
    await page.getByTestId('avatar-input').setInputFiles({ name: '大头.bmp', mimeType: 'image/bmp', buffer: png });
    await page.getByTestId('avatar-error').getByText('请选择 PNG、JPG、WebP 或 GIF 图片').waitFor();
    await page.getByTestId('avatar-input').setInputFiles({ name: '头像.png', mimeType: 'image/png', buffer: png });
    const img = page.getByTestId('user-info-avatar').locator('img');
    await expect.poll(() => img.getAttribute('src')).toContain(API.userAvatarPrefix);
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(256);
    expect(await page.getByTestId('avatar-error').count()).toBe(0);
    // the page's avatar and the header's
    await expect.poll(() => page.locator(`.ant-avatar img[src*="${API.userAvatarPrefix}"]`).count()).toBe(2);
  });

  it('forced password change: field errors under their fields, one success toast in full-width punctuation', async () => {
    const forced = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    const tenant = forced.waitForResponse((r) => r.url().includes(API.tenantConfig) && r.ok());
    await submitLogin(forced, NEWCOMER.username, NEWCOMER.password);
    await forced.waitForURL('**/initialPswChange**');
    await forced.getByTestId('password-change').waitFor();
    // The tip names the tenant (tenant/get).
    const { tenantName } = ((await (await tenant).json()) as { data: { tenantName: string } }).data;
    await expect.poll(() => forced.getByTestId('password-change-tip').textContent()).toContain(`${tenantName}要求首次登录修改初始密码`);
    await forced.screenshot({ path: '/work/wt/shots/speccalls/tenant-after-initial-change.png' });
    // Every toast shown from here on. Without animations (every e2e context asks for reduced motion) a
    // toast comes inside a node added in one go: it is looked for inside each added node too.
    await forced.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { toasts: string[] }).toasts = seen;
      new MutationObserver((records) => {
        for (const r of records) {
          for (const n of r.addedNodes) {
            if (!(n instanceof HTMLElement)) continue;
            const notices = n.matches('.ant-message-notice') ? [n] : [...n.querySelectorAll('.ant-message-notice')];
            for (const notice of notices) seen.push(notice.textContent ?? '');
          }
        }
      }).observe(document.body, { subtree: true, childList: true });
    });
    const toasts = () => forced.evaluate(() => (window as unknown as { toasts: string[] }).toasts);

    await forced.getByTestId('psw-old').fill('Wrong@2024x');
    await forced.getByTestId('psw-new').fill(NEWCOMER.newPassword);
    await forced.getByTestId('psw-repeat').fill(NEWCOMER.newPassword + '1');
    await forced.getByTestId('psw-finish').click();
    await forced.getByTestId('password-change').getByText('两次输入密码不一致!').waitFor();
    await forced.getByTestId('psw-repeat').fill(NEWCOMER.newPassword);
    await forced.getByTestId('psw-finish').click();
    await forced.getByTestId('password-change').getByText('原密码错误').waitFor();
    expect(await toasts()).toEqual([]);

    await forced.getByTestId('psw-old').fill(NEWCOMER.password);
    await forced.getByTestId('psw-finish').click();
    await forced.waitForURL('**/main/file/personal**');
    await forced.waitForTimeout(1500);
    expect(await toasts()).toEqual(['密码修改成功，其他设备上的登录已退出']);
    await forced.context().close();
  });

  it('antd\'s toasts load with the first one shown: the login page comes without their code and styles (issue 43)', async () => {
    const fresh = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
    const scripts: string[] = [];
    fresh.on('requestfinished', (r) => void (r.resourceType() === 'script' && scripts.push(r.url())));
    await fresh.goto(baseUrl() + '/login');
    await fresh.getByTestId('login-submit').waitFor();
    await fresh.waitForLoadState('networkidle');
    // antd's stylesheet is cut by component (vite.config.ts): a component's rules come with its code.
    const noticeRules = () =>
      fresh.evaluate(() => {
        const found = (rules: CSSRuleList): boolean => Array.from(rules).some((rule) => /\.ant-(message|notification)\b/.test(rule instanceof CSSStyleRule ? rule.selectorText : '') || ('cssRules' in rule && found((rule as CSSGroupingRule).cssRules)));
        return Array.from(document.styleSheets).some((sheet) => found(sheet.cssRules));
      });
    expect(await noticeRules()).toBe(false);
    const loaded = scripts.length;

    // A refused login says so in a toast: it shows, styled, once its part has loaded.
    await submitLogin(fresh, `nobody${randomBytes(3).toString('hex')}`, 'Wrong#2026', async () => undefined);
    const toast = fresh.locator('.ant-message-notice.ant-message-notice-error');
    await toast.waitFor();
    expect(await noticeRules()).toBe(true);
    expect(await antdClassesWithoutStyles(fresh)).toEqual([]);
    // antd's holder lies over the page (position: fixed), as its rules say.
    expect(await toast.evaluate((el) => getComputedStyle(el.closest('.ant-message') ?? el).position)).toBe('fixed');
    expect(scripts.length).toBeGreaterThan(loaded);
    await fresh.context().close();
  });
});
