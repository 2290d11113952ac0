/**
 * 手势密码 (issue 38) in Chromium: the admin turns the lock on in 系统配置 with a 1-minute idle time; a
 * member, in the installed app (display-mode standalone) on a 390 px phone, sets a pattern in 账号安全
 * (drawn twice with the pointer), is asked for it after idling (the page's clock jumps ahead), unlocks
 * with the keyboard alone, and after idling again draws 5 wrong patterns: the server ends the session and the lock screen says so.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders } from '../../common/api/client-env';
import { API } from '../../common/api/paths';
import { ERRORS, GESTURE_LOCKOUT_MESSAGE } from '../../common/api/errors';
import { launchBrowser, submitLogin, visitInApp } from './browser';
import { shot } from './shots';
import { addMember, callRaw, PHONE, signInAdmin, type SignedIn } from './tenant-kit';

const MEMBER = { account: 'gesture-member', password: 'Gesture@2024x' };
const RIGHT = [0, 3, 6, 7, 8]; // an L
const WRONG = [2, 1, 0, 3];

/** The installed PWA: its window matches (display-mode: standalone), which Chromium cannot emulate itself. */
async function runInstalled(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const original = window.matchMedia.bind(window);
    window.matchMedia = (query: string) =>
      /display-mode:\s*standalone/.test(query) ? original('all') : /display-mode/.test(query) ? original('not all') : original(query);
  });
}

/** Draws `dots` on the pad with the pointer: press on the first, pass over the others, lift. */
async function draw(page: Page, padTestId: string, dots: number[]): Promise<void> {
  const pad = page.getByTestId(padTestId);
  await expect.poll(() => pad.getAttribute('data-pattern-length')).toBe('0');
  const centre = async (dot: number) => {
    const box = (await pad.locator(`[data-dot="${dot}"]`).boundingBox())!;
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  const first = await centre(dots[0]!);
  await page.mouse.move(first.x, first.y);
  await page.mouse.down();
  for (const dot of dots.slice(1)) {
    const c = await centre(dot);
    await page.mouse.move(c.x, c.y, { steps: 4 });
  }
  await page.mouse.up();
}

describe('gesture lock', () => {
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let admin: SignedIn;

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await signInAdmin(browser);
  });
  afterAll(async () => {
    // Leave the shared server's tenant as it was.
    await admin?.page
      .evaluate(
        ({ path, headers }) => fetch(path, { method: 'POST', credentials: 'include', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: 'value=0' }),
        { path: API.switchGesture, headers: clientHeaders('web', 'internal') },
      )
      .catch(() => undefined);
    await browser?.close();
  });

  it('admin turns it on; a member sets a pattern, is asked after idling, unlocks, and is signed out after 5 wrong', async () => {
    const a = admin.page;
    await visitInApp(a, '/main/system/systemConfig');
    await a.getByTestId('system-config').waitFor();
    await shot(a, 'gesture', 'admin-config-off');
    const switched = a.waitForResponse((r) => r.url().includes(API.switchGesture) && r.status() === 200);
    await a.getByTestId('switch-gesture').click();
    await switched;
    const idle = a.getByTestId('config-gesture-idle');
    await idle.fill('1');
    const idleSaved = a.waitForResponse((r) => r.url().includes(API.gestureIdleTime) && r.status() === 200);
    await idle.blur();
    await idleSaved;
    await shot(a, 'gesture', 'admin-config-on');

    await addMember(MEMBER.account, MEMBER.password);
    const context = await browser.newContext(PHONE);
    await runInstalled(context);
    await context.clock.install();
    const page = await context.newPage();
    await submitLogin(page, MEMBER.account, MEMBER.password);
    await page.waitForURL('**/main/file/personal**');
    // Just signed in with the password: not asked again at once.
    expect(await page.getByTestId('gesture-lock').count()).toBe(0);

    await visitInApp(page, '/main/user/accountSafe');
    await page.getByTestId('account-safe-gesture').click();
    await draw(page, 'gesture-set-pad', [0, 1]);
    await expect.poll(() => page.getByTestId('gesture-set-hint').textContent()).toContain('至少连接 4 个点');
    await draw(page, 'gesture-set-pad', RIGHT);
    await expect.poll(() => page.getByTestId('gesture-set-hint').textContent()).toBe('请再次绘制相同的手势密码');
    await shot(page, 'gesture', 'member-set-pattern');
    const saved = page.waitForResponse((r) => r.url().includes(API.gestureSet) && r.status() === 200);
    await draw(page, 'gesture-set-pad', RIGHT);
    await saved;
    await expect.poll(() => page.getByTestId('account-safe-gesture-state').textContent()).toContain('已开启');
    await shot(page, 'gesture', 'member-account-safe');

    // Idle for the tenant's minute: the lock covers the app, whose content is hidden (not dimmed).
    await context.clock.fastForward('01:05');
    await page.getByTestId('gesture-lock').waitFor();
    expect(await page.getByTestId('gesture-lock-content').isVisible()).toBe(false);
    expect(await page.getByTestId('account-safe').isVisible()).toBe(false);
    await shot(page, 'gesture', 'member-locked');
    // Unlocked with the keyboard alone: arrows move between the dots, Space joins one, Enter on 完成.
    const pad = page.getByTestId('gesture-lock-pad');
    await pad.locator('[data-dot="4"]').focus();
    for (const key of ['ArrowUp', 'ArrowLeft', ' ', 'ArrowDown', ' ', 'ArrowDown', ' ', 'ArrowRight', ' ', 'ArrowRight', ' ']) await page.keyboard.press(key);
    expect(await pad.getAttribute('data-pattern-length')).toBe(String(RIGHT.length));
    expect(await pad.locator('[aria-pressed="true"]').count()).toBe(RIGHT.length);
    // The server holds the lock too: while it was up, the session's other calls were refused.
    // (The lock screen tells the server as it goes up; the poll waits for that call, not for a time.)
    await expect.poll(async () => (await callRaw<{ errorCode?: string }>(page, API.fileList, { parentId: null, category: 1 })).body.errorCode).toBe(ERRORS.GESTURE_LOCKED.code);
    await page.getByTestId('gesture-lock-pad-done').press('Enter');
    await page.getByTestId('gesture-lock').waitFor({ state: 'detached' });
    expect(await page.getByTestId('account-safe').isVisible()).toBe(true);
    expect((await callRaw(page, API.fileList, { parentId: null, category: 1 })).status).toBe(200);

    // Another window of the session (here a script) locks it: the app's next call is refused, and the lock shows.
    expect((await callRaw(page, API.gestureLock)).status).toBe(200);
    await page.evaluate(() => {
      history.pushState(null, '', '/main/file/personal');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.getByTestId('gesture-lock').waitFor();
    await shot(page, 'gesture', 'member-locked-by-another-window');
    await draw(page, 'gesture-lock-pad', RIGHT);
    await page.getByTestId('gesture-lock').waitFor({ state: 'detached' });

    // Again idle, then five wrong patterns: the session ends on the server.
    await context.clock.fastForward('01:05');
    await page.getByTestId('gesture-lock').waitFor();
    for (let left = 4; left >= 1; left--) {
      await draw(page, 'gesture-lock-pad', WRONG);
      await expect.poll(() => page.getByTestId('gesture-lock-hint').textContent()).toBe(`手势密码错误，还可尝试 ${left} 次`);
    }
    await shot(page, 'gesture', 'member-wrong');
    await draw(page, 'gesture-lock-pad', WRONG);
    await expect.poll(() => page.getByTestId('gesture-lock-signed-out').textContent()).toBe(GESTURE_LOCKOUT_MESSAGE);
    await shot(page, 'gesture', 'member-signed-out');
    expect((await callRaw<{ errorCode?: string }>(page, API.userDetails)).body.errorCode).toBe('400sec-core-301');
    await page.getByTestId('gesture-lock-relogin').click();
    await page.waitForURL('**/login**');
    await context.close();
  });
});
