/**
 * 设备密码 (issue 39) in Chromium on a 390 px phone: a member opens 账号安全, sees the WebDAV address and
 * user name, creates a device password (shown once, 复制 puts it on the clipboard), signs a WebDAV
 * client in with it (PROPFIND /dav/ from here), sees 最近使用 in the list, revokes it, and the client's
 * next request is refused. The admin's 系统配置 switch then turns WebDAV off for the tenant: the card says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders } from '../../common/api/client-env';
import { API } from '../../common/api/paths';
import { baseUrl, launchBrowser, visitInApp } from './browser';
import { shot } from './shots';
import { addMember, DESKTOP, pageOverflowsSideways, PHONE, signIn, signInAdmin, type SignedIn } from './tenant-kit';

const MEMBER = { account: 'dav-member', password: 'DavMember@2024' };

/** A WebDAV client's PROPFIND of /dav/, read to its end. */
async function propfind(password: string): Promise<{ status: number; headers: Headers; text: string }> {
  const authorization = `Basic ${Buffer.from(`${MEMBER.account}:${password}`, 'utf8').toString('base64')}`;
  const res = await fetch(`${baseUrl()}/dav/`, { method: 'PROPFIND', headers: { authorization, depth: '1' } });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('device passwords', () => {
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let member: SignedIn;
  let admin: SignedIn;

  beforeAll(async () => {
    browser = await launchBrowser();
    await addMember(MEMBER.account, MEMBER.password);
    member = await signIn(browser, MEMBER.account, MEMBER.password, PHONE);
    await member.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    admin = await signInAdmin(browser, DESKTOP);
  });
  afterAll(async () => {
    // Leave the shared server's tenant as it was.
    await admin?.page
      .evaluate(
        ({ path, headers }) => fetch(path, { method: 'POST', credentials: 'include', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: 'value=1' }),
        { path: API.switchWebdav, headers: clientHeaders('web', 'internal') },
      )
      .catch(() => undefined);
    await browser?.close();
  });

  it('creates one shown once, signs a WebDAV client in with it, revokes it', async () => {
    const page = member.page;
    await visitInApp(page, '/main/user/accountSafe');
    await page.getByTestId('account-safe').waitFor();
    await page.getByTestId('signed-in-devices').scrollIntoViewIfNeeded();
    await shot(page, 'device-passwords', 'account-safe');
    const card = page.getByTestId('device-passwords');
    await card.scrollIntoViewIfNeeded();
    await expect.poll(() => card.getByText('还没有设备密码').isVisible()).toBe(true);
    expect(await page.getByTestId('dav-address-value').textContent()).toBe(`${baseUrl()}/dav/`);
    expect(await page.getByTestId('dav-username').textContent()).toBe(MEMBER.account);
    await shot(page, 'device-passwords', 'empty');

    await page.getByTestId('device-password-new').click();
    await page.getByTestId('device-password-name').fill('rclone 备份');
    await page.getByTestId('device-password-submit').click();
    const value = page.getByTestId('device-password-value');
    await value.waitFor();
    const password = (await value.textContent())!;
    expect(password).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){7}$/);
    expect(await page.getByTestId('device-password-created').textContent()).toContain('密码只显示这一次');
    expect(await pageOverflowsSideways(page)).toBe(false);
    await shot(page, 'device-passwords', 'created');
    await page.getByTestId('device-password-copy').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);

    await page.getByTestId('device-password-done').click();
    await value.waitFor({ state: 'detached' });
    const row = page.getByTestId('device-password-row');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getByTestId('device-password-used').textContent()).toContain('从未使用');
    // Shown once: nowhere on the page any more.
    expect(await page.content()).not.toContain(password);

    // A WebDAV client signs in with it.
    const signedIn = await propfind(password);
    expect(signedIn.status).toBe(207);
    expect(signedIn.text).toContain('个人文件');
    await visitInApp(page, '/main/file/personal');
    await visitInApp(page, '/main/user/accountSafe');
    await expect.poll(() => row.getByTestId('device-password-used').textContent()).toContain('最近使用');
    await card.scrollIntoViewIfNeeded();
    expect(await pageOverflowsSideways(page)).toBe(false);
    await shot(page, 'device-passwords', 'used');

    await row.getByTestId('device-password-revoke').click();
    await page.getByTestId('confirm-device-password-revoke').click();
    await expect.poll(() => row.count()).toBe(0);
    await shot(page, 'device-passwords', 'revoked');
    const refused = await propfind(password);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('Basic');
  });

  it("the admin's WebDAV switch in 系统配置 turns it off for the tenant", async () => {
    const a = admin.page;
    await visitInApp(a, '/main/system/systemConfig');
    await a.getByTestId('switch-exchangeSwitch').scrollIntoViewIfNeeded();
    await shot(a, 'device-passwords', 'system-config');
    const control = a.getByTestId('switch-webdav');
    await control.scrollIntoViewIfNeeded();
    expect(await control.getAttribute('aria-checked')).toBe('true');
    const switched = a.waitForResponse((r) => r.url().includes(API.switchWebdav) && r.status() === 200);
    await control.click();
    await switched;
    await shot(a, 'device-passwords', 'system-config-off');

    const page = member.page;
    await visitInApp(page, '/main/file/personal');
    await visitInApp(page, '/main/user/accountSafe');
    const off = page.getByTestId('device-passwords-off');
    await off.waitFor();
    expect(await page.getByTestId('device-password-new').isDisabled()).toBe(true);
    await off.scrollIntoViewIfNeeded();
    await shot(page, 'device-passwords', 'switched-off');
  });
});
