/**
 * Accounts and session in a real browser against `npm start` (issue 4):
 *  - the member's first login is forced to /initialPswChange?type=1, every §5 message appears on blur,
 *    Finish sends the encrypted {value, type: 4, oldPassword}, logs out, and the new password logs in;
 *  - a 401 reached from a share link goes to /login?redirect=… and comes back after login;
 *  - an admin locking the member in 用户管理 ends the member's session: the member's next call answers
 *    400sec-core-301, the '登出' box shows the server's message, '退出' lands on /login.
 * It owns the member account (its password changes here), so no other e2e file logs in as member.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { UserInfoModifyRequest } from '../../common/api/endpoints/account';
import { decryptPassword } from '../../common/crypto/password-cipher';
import { PASSWORD_MESSAGES } from '../../common/validation/password';
import { withServerDb } from '../support/drive-server';
import { baseUrl, launchBrowser, submitLogin } from './browser';

const MEMBER = { username: 'member', initial: 'Member@2024', changed: 'Member#2025x' };
const ADMIN = { username: 'admin', password: 'Admin@2024' };

/** The member's id, read from the server's database (no API lists users yet). */
async function userIdOf(username: string): Promise<string> {
  const row = await withServerDb(inject('dataDir'), (db) => db.prepare('select id from users where username = ?').get(username) as { id: string } | undefined);
  if (!row) throw new Error(`no user ${username}`);
  return row.id;
}

/** A same-origin JSON POST from the page (its session cookie, its Origin). */
function postFromPage(page: Page, apiPath: string, body: unknown): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ url, payload }) => {
      const r = await fetch(url, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json', 'X-Client-Platform': 'web', 'X-Network-Env': 'internal' }, body: JSON.stringify(payload) });
      return { status: r.status, body: (await r.json()) as unknown };
    },
    { url: baseUrl() + apiPath, payload: body },
  );
}

/** The validation message under a form item, or null when it shows none. */
async function fieldError(page: Page, testId: string): Promise<string | null> {
  const item = page.locator('.ant-form-item', { has: page.getByTestId(testId) });
  // allTextContents does not wait: a message leaving (antd animates it out) must not stall the poll.
  const texts = await item.locator('.ant-form-item-explain-error').allTextContents();
  return texts.map((t) => t.trim()).find(Boolean) ?? null;
}

/** Types `value` into a field (replacing what was there), leaves it, and waits for the on-blur validation. */
async function fillAndBlur(page: Page, testId: string, value: string): Promise<void> {
  const input = page.getByTestId(testId);
  await input.fill(value);
  await input.blur();
  await page.waitForTimeout(150); // antd validates asynchronously after blur
}

describe('member: forced initial password change with the §5 rules', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the first login goes to /initialPswChange?type=1, and the server refuses other APIs', async () => {
    await submitLogin(page, MEMBER.username, MEMBER.initial);
    await page.waitForURL('**/initialPswChange?type=1');
    await expect(page.getByTestId('psw-account').inputValue()).resolves.toBe(MEMBER.username);
    const list = await postFromPage(page, API.fileList, { parentId: null, category: 1 });
    expect(list.status).toBe(400);
    expect((list.body as { errorCode: string }).errorCode).toBe('AUTH-1004');
  });

  it('a main page reached while the change is owed sends the user back to the change screen', async () => {
    await page.goto(baseUrl() + '/main/file/personal');
    await page.waitForURL('**/initialPswChange?type=1');
    await page.getByTestId('psw-new').waitFor();
  });

  it('shows each §5 message on blur, and nothing for the old password', async () => {
    await fillAndBlur(page, 'psw-old', '');
    expect(await fieldError(page, 'psw-old')).toBeNull();

    await page.getByTestId('psw-new').focus();
    await page.getByTestId('psw-new').blur();
    await expect.poll(() => fieldError(page, 'psw-new')).toBe(PASSWORD_MESSAGES.required);

    await fillAndBlur(page, 'psw-new', 'Ab1!x');
    await expect.poll(() => fieldError(page, 'psw-new')).toBe(PASSWORD_MESSAGES.tooShort);

    await fillAndBlur(page, 'psw-new', 'abcdefgh12');
    await expect.poll(() => fieldError(page, 'psw-new')).toBe(PASSWORD_MESSAGES.composition);

    // Typing stops at 16 characters...
    await page.getByTestId('psw-new').fill('');
    await page.getByTestId('psw-new').pressSequentially('Abcdefgh1!abcdefXYZ');
    await expect(page.getByTestId('psw-new').inputValue()).resolves.toHaveLength(16);
    // ...but a value set by script (a password manager, a paste handler) is still judged on blur.
    await page.getByTestId('psw-new').evaluate((el: HTMLInputElement) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(el, 'Abcdefgh1!abcdefg');
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.getByTestId('psw-new').blur();
    await expect.poll(() => fieldError(page, 'psw-new')).toBe(PASSWORD_MESSAGES.tooLong);

    await fillAndBlur(page, 'psw-new', MEMBER.changed);
    await expect.poll(() => fieldError(page, 'psw-new')).toBeNull();

    await page.getByTestId('psw-repeat').focus();
    await page.getByTestId('psw-repeat').blur();
    await expect.poll(() => fieldError(page, 'psw-repeat')).toBe(PASSWORD_MESSAGES.repeatRequired);

    await fillAndBlur(page, 'psw-repeat', MEMBER.changed + 'x');
    await expect.poll(() => fieldError(page, 'psw-repeat')).toBe(PASSWORD_MESSAGES.mismatch);

    await fillAndBlur(page, 'psw-repeat', MEMBER.changed);
    await expect.poll(() => fieldError(page, 'psw-repeat')).toBeNull();
  });

  it('each password field has a show/hide toggle and a 16-character cap', async () => {
    for (const id of ['psw-old', 'psw-new', 'psw-repeat']) {
      const input = page.getByTestId(id);
      await expect(input.getAttribute('maxlength')).resolves.toBe('16');
      await expect(input.getAttribute('type')).resolves.toBe('password');
      const toggle = page.locator('.ant-input-affix-wrapper', { has: input }).locator('.ant-input-password-icon');
      await toggle.click();
      await expect(input.getAttribute('type')).resolves.toBe('text');
      await toggle.click();
      await expect(input.getAttribute('type')).resolves.toBe('password');
    }
  });

  it('Finish sends {value, type: 4, oldPassword} encrypted and goes on into the files (no second login)', async () => {
    await page.getByTestId('psw-old').fill(MEMBER.initial);
    const request = page.waitForRequest((r) => r.url().endsWith(API.userInfoModify) && r.method() === 'POST');
    await page.getByTestId('psw-finish').click();
    const body = (await request).postDataJSON() as UserInfoModifyRequest;
    expect(body.type).toBe(4);
    expect(body.value).not.toContain(MEMBER.changed);
    expect(decryptPassword(body.value)).toBe(MEMBER.changed);
    expect(decryptPassword(body.oldPassword)).toBe(MEMBER.initial);
    // A new session for this device (issue 44): straight on to the files.
    await page.waitForURL('**/main/file/personal**');
    await page.getByTestId('file-table').waitFor();
  });

  it('the new password logs in straight to the files, and the user centre shows the member', async () => {
    const again = await (await browser.newContext()).newPage();
    await submitLogin(again, MEMBER.username, MEMBER.changed);
    await again.waitForURL('**/main/file/personal**');
    await again.getByTestId('file-table').waitFor();
    await again.context().close();

    await page.goto(baseUrl() + '/main/user/userInfo');
    await expect.poll(() => page.getByTestId('user-info-account').textContent()).toBe(MEMBER.username);
    await expect(page.getByTestId('user-info-nickname').textContent()).resolves.toBe('张三');
    await expect(page.getByTestId('user-info-quota').textContent()).resolves.toMatch(/^已使用 .+ \/ 共 \d+\.\d{2} (KB|MB|GB)（[\d.]+%）$/);
    await page.getByTestId('user-info-quota-bar').waitFor();
  });

  it('the route guard sends a member opening an admin page to /error', async () => {
    await page.goto(baseUrl() + '/main/system/desk');
    await page.waitForURL('**/error');
    await page.getByTestId('not-found').waitFor();
  });
});

describe('session: 401 from a share link, and an ended session (400sec-core-301)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a 401 on a share link goes to /login with the redirect, and login returns there', async () => {
    const page = await (await browser.newContext()).newPage();
    const link = '/openShareLink?code=Xy7_share';
    await submitLogin(page, ADMIN.username, ADMIN.password, async () => {
      await page.goto(baseUrl() + link);
      await page.waitForURL((url) => url.pathname === '/login');
      expect(new URL(page.url()).searchParams.get('redirect')).toBe(link);
    });
    await page.waitForURL((url) => url.pathname + url.search === link);
    // Signed in now: the page that opens a pasted link inside the app.
    await page.getByTestId('open-share-link').waitFor();
  });

  it("an admin locking the member ends the member's session: '登出' box with the server's message, then /login", async () => {
    const member = await (await browser.newContext()).newPage();
    await submitLogin(member, MEMBER.username, MEMBER.changed);
    await member.waitForURL('**/main/file/personal**');
    await member.getByTestId('file-table').waitFor();

    const admin = await (await browser.newContext()).newPage();
    await submitLogin(admin, ADMIN.username, ADMIN.password);
    await admin.waitForURL('**/main/file/personal**');
    const memberId = await userIdOf(MEMBER.username);
    try {
      // The admin locks the member in 用户管理.
      await admin.goto(baseUrl() + '/main/system/user/list');
      const locked = admin.waitForResponse((r) => r.url().endsWith(API.accountLock));
      await admin.getByTestId(`user-lock-${MEMBER.username}`).click();
      await admin.locator('.ant-popconfirm').getByRole('button', { name: /锁\s*定/ }).click();
      expect((await locked).status()).toBe(200);
      await admin.getByTestId(`user-row-${MEMBER.username}`).getByText('已锁定').waitFor();

      // The member learns of it at their next call (here: opening the user centre), or first from the
      // notice stream: the server checks the stream's sessions every 5 s and the page then asks once
      // more. Either way one call is answered 400sec-core-301 and one '登出' box shows its message. (A
      // fresh clone's run once had the stream's box cover the menu before 基本信息 was clicked.)
      const sessionEnded = member.waitForResponse(async (r) => r.status() === 400 && ((await r.json().catch(() => null)) as { errorCode?: string } | null)?.errorCode === '400sec-core-301');
      const box = member.locator('.ant-modal-confirm');
      const unlessBoxShown = (action: Promise<void>) =>
        action.catch(async (error: unknown) => {
          if (!(await box.isVisible())) throw error;
        });
      await unlessBoxShown(member.getByTestId('user-menu').click({ timeout: 10_000 }));
      if (!(await box.isVisible())) await unlessBoxShown(member.getByText('基本信息', { exact: true }).click({ timeout: 10_000 }));
      const response = await sessionEnded;
      const body = (await response.json()) as { errorCode: string; errorMessage: string };

      await box.waitFor();
      await expect(box.locator('.ant-modal-confirm-title').textContent()).resolves.toBe('登出');
      await expect(box.locator('.ant-modal-confirm-content').textContent()).resolves.toBe(body.errorMessage);
      expect(await member.locator('.ant-modal-confirm').count()).toBe(1);
      await box.getByRole('button', { name: /退\s*出/ }).click();
      await member.waitForURL((url) => url.pathname === '/login');

      // ...and unlocks it there again.
      const unlocked = admin.waitForResponse((r) => r.url().endsWith(API.accountUnlock));
      await admin.getByTestId(`user-unlock-${MEMBER.username}`).click();
      expect((await unlocked).status()).toBe(200);
      await admin.getByTestId(`user-row-${MEMBER.username}`).getByText(/正常|待改初始密码/).waitFor();
    } finally {
      // Whatever failed above, leave the member usable.
      expect((await postFromPage(admin, API.accountUnlock, { userId: memberId })).status).toBe(200);
    }
  });
});

describe('member: a voluntary change in 账号安全', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('/passwordChage shows the same form, and Back returns to the page the user came from', async () => {
    const page = await (await browser.newContext()).newPage();
    await submitLogin(page, MEMBER.username, MEMBER.changed);
    await page.waitForURL('**/main/file/personal**');
    await page.goto(baseUrl() + '/passwordChage');
    await expect.poll(() => page.getByTestId('psw-account').inputValue()).toBe(MEMBER.username);
    await page.getByTestId('psw-back').click();
    await page.waitForURL('**/main/file/personal**');
  });

  it('changes the password from the 账号安全 dialog, stays signed in here, and the new one logs in elsewhere', async () => {
    const page = await (await browser.newContext()).newPage();
    const newest = 'Member$2026y';
    await submitLogin(page, MEMBER.username, MEMBER.changed);
    await page.waitForURL('**/main/file/personal**');
    await page.goto(baseUrl() + '/main/user/accountSafe');
    await page.getByTestId('account-safe-password').click();
    await page.getByTestId('psw-old').fill(MEMBER.changed);
    await fillAndBlur(page, 'psw-new', newest);
    await fillAndBlur(page, 'psw-repeat', newest);
    const modified = page.waitForResponse((r) => r.url().endsWith(API.userInfoModify));
    await page.getByTestId('psw-finish').click();
    expect((await modified).status()).toBe(200);
    await page.locator('.ant-message-notice').getByText('密码已修改，其他设备已退出登录').waitFor();
    expect(new URL(page.url()).pathname).toBe('/main/user/accountSafe');
    await page.getByTestId('device-current').waitFor();

    const elsewhere = await (await browser.newContext()).newPage();
    await submitLogin(elsewhere, MEMBER.username, newest);
    await elsewhere.waitForURL('**/main/file/personal**');
  });
});
