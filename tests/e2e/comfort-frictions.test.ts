/**
 * Issue 44 item 10, the member's small frictions, walked in Chromium by a member of its own (a fresh
 * account with an initial password and a bound phone):
 *  (b) the forced password change goes straight on into the files (no second login, no new captcha);
 *  (h) 账号安全 lists the signed-in devices, 退出 signs another one out;
 *  (g) 更换手机号 asks for the login password and a code sent to the phone bound now;
 *  (a) the selection bar offers 分享 for one entry and keeps 上传文件 / 新建文件夹;
 *  (c) a delete's toast offers 撤销, for a batch too, and offline through the outbox;
 *  (d) 回收站 shows 原位置 (已删除的文件夹 once it is gone) and disables 清空回收站 when empty;
 *  (e) 重命名 selects the name without its extension;
 *  (f) the move picker makes a folder where it points and picks it.
 * On a 390-px phone the same: the devices list and 更换手机号 on the screen, 分享 within reach of the
 * selection bar beside 上传文件 / 新建文件夹, 撤销 tappable on the screen, 原位置 on the recycle rows,
 * the base name preselected in 重命名, and 新建文件夹 in the move picker, on the screen.
 * With E2E_SHOTS_DIR=<dir> each step saves a screenshot there (tests/e2e/shots.ts).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { FileEntry, FileListResponse } from '../../common/api/types';
import { withDb } from '../server/helpers';
import { baseUrl, clickSelectionAction, closeBrowserSession, fileRow, openBrowserSession, submitLogin, visitInApp } from './browser';
import { changePhone } from './phone-change-kit';
import { shot } from './shots';
import { addMember, callRaw, expectOnScreen, PHONE, signIn } from './tenant-kit';

const stamp = Date.now().toString(36);
const USER = { username: `frictions_${stamp}`, initial: 'Friction@2024', changed: 'Friction#2025' };
const OLD_PHONE = `136${String(Date.now()).slice(-8)}`;
const NEW_PHONE = `137${String(Date.now()).slice(-8)}`;

const createTxt = async (page: Page, name: string, parentId: string | null = null) =>
  (await callRaw<{ data: { file: FileEntry } }>(page, API.createTxt, { parentId, category: 1, name, content: name })).body.data.file;

const recycleNames = async (page: Page) => (await callRaw<{ data: FileListResponse }>(page, API.recycleList, {})).body.data.items.map((e) => e.name);

describe('comfort: the member’s small frictions (issue 44 item 10)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let workDir: string;

  beforeAll(async () => {
    ({ browser, context, page, workDir } = await openBrowserSession('frictions', { viewport: { width: 1440, height: 900 } }));
    const id = await addMember(USER.username, USER.initial, true);
    await withDb({ dataDir: inject('dataDir') }, (db) => db.prepare('update users set phone = ? where id = ?').run(OLD_PHONE, id));
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  /** Later steps need a session: where (b) fails (current main) they log in again with the new password. */
  async function signedInAt(url: string): Promise<void> {
    if ((await callRaw(page, API.userDetails)).status === 401) {
      await submitLogin(page, USER.username, USER.changed);
      await page.waitForURL('**/main/**');
    }
    await page.goto(baseUrl() + url);
  }

  it('(b) after the forced password change the member goes straight on into the files', async () => {
    await submitLogin(page, USER.username, USER.initial);
    await page.waitForURL('**/initialPswChange?type=1');
    await page.getByTestId('psw-old').fill(USER.initial);
    await page.getByTestId('psw-new').fill(USER.changed);
    await page.getByTestId('psw-repeat').fill(USER.changed);
    await page.getByTestId('psw-finish').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/initialPswChange'));
    await page.waitForTimeout(500);
    await shot(page, '10', 'b-landing');
    expect(new URL(page.url()).pathname).toBe('/main/file/personal');
    await page.getByTestId('file-table').waitFor();
  });

  it('(h) 账号安全 lists the signed-in devices; 退出 signs another device out', async () => {
    await signedInAt('/main/user/accountSafe');
    const other = await (await browser.newContext({ userAgent: PHONE.userAgent })).newPage();
    await submitLogin(other, USER.username, USER.changed);
    await other.waitForURL('**/main/**');
    await page.reload();
    await page.getByTestId('account-safe').waitFor();
    await page.waitForTimeout(500);
    await shot(page, '10', 'h-devices');
    const rows = page.getByTestId('device-row');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    await expect.poll(() => page.locator('[data-testid="device-row"][data-current]').getByTestId('device-title').textContent()).toContain('Chrome');
    const phoneRow = rows.filter({ hasText: 'iPhone' });
    await phoneRow.getByTestId('device-end').click();
    await expect.poll(() => rows.filter({ hasText: 'iPhone' }).count()).toBe(0);
    // The signed-out device learns it on its next request.
    expect((await callRaw<{ errorCode: string }>(other, API.userDetails)).body.errorCode).toBe('400sec-core-301');
    await other.context().close();
  });

  it('(g) 更换手机号 asks for the login password and a code sent to the phone bound now', async () => {
    await signedInAt('/main/user/accountSafe');
    await changePhone(page, {
      password: USER.changed,
      oldPhone: OLD_PHONE,
      newPhone: NEW_PHONE,
      onOpen: async () => {
        await page.locator('.ant-modal').waitFor();
        await page.waitForTimeout(300);
        await shot(page, '10', 'g-change-phone');
      },
    });
  });

  it('(a) one selected entry offers 分享 in the bar, and 上传文件 / 新建文件夹 stay', async () => {
    await signedInAt('/main/file/personal');
    await createTxt(page, `分享-${stamp}.txt`);
    await page.reload();
    await fileRow(page, `分享-${stamp}.txt`).locator('.ant-checkbox').click();
    await page.getByTestId('selection-count').waitFor();
    await shot(page, '10', 'a-selection-bar');
    await page.getByTestId('toolbar-upload').waitFor({ timeout: 2000 });
    await page.getByTestId('toolbar-mkdir').waitFor({ timeout: 2000 });
    await page.getByTestId('selection-actions').getByTestId('action-share').click({ timeout: 2000 });
    await page.getByTestId('share-dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('share-dialog').waitFor({ state: 'detached' });
    await page.getByTestId('selection-clear').click();
  });

  it('(c) a delete offers 撤销 for a while: one entry, a batch, and offline through the outbox', async () => {
    await signedInAt('/main/file/personal');
    const names = [`撤销甲-${stamp}.txt`, `撤销乙-${stamp}.txt`];
    for (const n of names) await createTxt(page, n);
    await page.reload();
    for (const n of names) await fileRow(page, n).locator('.ant-checkbox').click();
    await page.getByTestId('selection-actions').getByTestId('action-delete').click();
    await page.getByTestId('confirm-delete').click();
    await fileRow(page, names[0]!).waitFor({ state: 'detached' });
    await page.waitForTimeout(300);
    await shot(page, '10', 'c-delete-toast');
    await page.getByTestId('undo-delete').click({ timeout: 2000 });
    for (const n of names) await fileRow(page, n).waitFor();
    expect((await recycleNames(page)).filter((n) => names.includes(n))).toEqual([]);

    // Offline: the delete and its 撤销 wait in the outbox, in order; online again, nothing was lost.
    await context.setOffline(true);
    await page.getByTestId('offline-banner').waitFor();
    await fileRow(page, names[0]!).click({ button: 'right' });
    await page.locator('.ant-dropdown:visible [data-testid="menu-delete"]').click();
    await page.getByTestId('confirm-delete').click();
    await fileRow(page, names[0]!).waitFor({ state: 'detached' });
    await page.getByTestId('undo-delete').click();
    await fileRow(page, names[0]!).waitFor();
    await context.setOffline(false);
    await expect.poll(async () => (await callRaw<{ data: FileListResponse }>(page, API.fileList, { parentId: null, category: 1 })).body.data.items.map((e) => e.name).includes(names[0]!), { timeout: 20_000 }).toBe(true);
    await expect.poll(async () => (await recycleNames(page)).includes(names[0]!), { timeout: 20_000 }).toBe(false);
  });

  it('(d) 回收站 shows 原位置 (已删除的文件夹 once gone) and disables 清空回收站 when empty', async () => {
    await signedInAt('/main/file/personal');
    const folder = (await callRaw<{ data: FileEntry }>(page, API.mkdir, { parentId: null, category: 1, name: `原处-${stamp}` })).body.data;
    const kept = await createTxt(page, `留下-${stamp}.txt`, folder.id);
    const lost = await createTxt(page, `随去-${stamp}.txt`, folder.id);
    await callRaw(page, API.removeFiles, { ids: [kept.id] });
    await callRaw(page, API.removeFiles, { ids: [lost.id] });
    await callRaw(page, API.removeFiles, { ids: [folder.id] });
    await page.goto(baseUrl() + '/main/file/recycle');
    await fileRow(page, `留下-${stamp}.txt`).waitFor();
    await shot(page, '10', 'd-recycle');
    await expect.poll(() => page.getByText('原位置', { exact: true }).count(), { timeout: 2000 }).toBeGreaterThan(0);
    await expect.poll(() => fileRow(page, `留下-${stamp}.txt`).getByTestId('file-origin').textContent()).toBe('已删除的文件夹');
    expect(await fileRow(page, `原处-${stamp}`).getByTestId('file-origin').textContent()).toBe('个人文件');
    await page.getByTestId('toolbar-empty-recycle').click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /清\s*空/ }).click();
    await fileRow(page, `留下-${stamp}.txt`).waitFor({ state: 'detached' });
    await page.waitForTimeout(300);
    await shot(page, '10', 'd-recycle-empty');
    await expect.poll(() => page.getByTestId('toolbar-empty-recycle').isDisabled(), { timeout: 2000 }).toBe(true);
  });

  it('(e) 重命名 selects the name without its extension; a folder’s whole name', async () => {
    await signedInAt('/main/file/personal');
    const name = `季度报告.final-${stamp}.docx.txt`;
    await createTxt(page, name);
    await page.reload();
    await fileRow(page, name).click({ button: 'right' });
    await page.locator('.ant-dropdown:visible [data-testid="menu-rename"]').click();
    const input = page.getByTestId('rename-name-input');
    await input.waitFor();
    await page.waitForTimeout(300);
    await shot(page, '10', 'e-rename');
    const selected = () => input.evaluate((el: HTMLInputElement) => el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0));
    await expect.poll(selected, { timeout: 2000 }).toBe(name.slice(0, name.lastIndexOf('.')));
    await page.keyboard.type('季度报告');
    await page.keyboard.press('Enter');
    await fileRow(page, '季度报告.txt').waitFor();
  });

  it('(f) the move picker makes a folder where it points, picks it, and the move goes there', async () => {
    await signedInAt('/main/file/personal');
    const name = `搬家-${stamp}.txt`;
    const target = `新去处-${stamp}`;
    await createTxt(page, name);
    await page.reload();
    await fileRow(page, name).click({ button: 'right' });
    await page.locator('.ant-dropdown:visible [data-testid="menu-move"]').click();
    const picker = page.getByTestId('folder-picker');
    await picker.getByTestId('folder-picker-node').first().click();
    await page.waitForTimeout(300);
    await shot(page, '10', 'f-picker');
    await page.getByTestId('folder-picker-mkdir').click({ timeout: 2000 });
    await page.getByTestId('picker-mkdir-name-input').fill(target);
    await page.getByTestId('picker-mkdir-name-input').press('Enter');
    await page.locator('.ant-alert', { hasText: `目标位置：个人文件 / ${target}` }).waitFor();
    await picker.locator('.ant-tree-node-selected', { hasText: target }).waitFor();
    await page.getByTestId('folder-picker-ok').click();
    await fileRow(page, name).waitFor({ state: 'detached' });
    await fileRow(page, target).getByTestId('file-name').click();
    await fileRow(page, name).waitFor();
  });

  it('on a 390-px phone: devices, 更换手机号, the selection bar, 撤销, 原位置, 重命名 and the move picker’s 新建文件夹 fit and take a finger', async () => {
    const { context: phoneContext, page: phone } = await signIn(browser, USER.username, USER.changed, PHONE);
    try {
      await visitInApp(phone, '/main/user/accountSafe');
      const current = phone.locator('[data-testid="device-row"][data-current]');
      await current.waitFor();
      await shot(phone, '10', 'phone-devices');
      await expect(current.getByTestId('device-title').textContent()).resolves.toContain('iPhone');
      await expectOnScreen(phone, current, 'this device in 账号安全');
      const changeButton = phone.getByTestId('account-safe-phone');
      await expectOnScreen(phone, changeButton, '更换手机号', { tap: true });
      await changeButton.tap();
      await phone.getByTestId('verify-old-phone').waitFor();
      await phone.waitForTimeout(300);
      await shot(phone, '10', 'phone-change-phone');
      await expectOnScreen(phone, phone.locator('.ant-modal-container').last(), 'the 更换手机号 dialog');
      await expectOnScreen(phone, phone.getByTestId('verify-send'), '发送验证码', { tap: true });
      await phone.keyboard.press('Escape');
      await phone.locator('.ant-modal-container').last().waitFor({ state: 'hidden' });

      const one = `手机删-${stamp}.txt`;
      const name = `手机季报.v2-${stamp}.txt`;
      await createTxt(phone, one);
      await createTxt(phone, name);
      await visitInApp(phone, '/main/file/personal');
      await fileRow(phone, one).locator('.ant-checkbox').tap();
      await phone.getByTestId('selection-count').waitFor();
      await shot(phone, '10', 'phone-selection-bar');
      await expectOnScreen(phone, phone.getByTestId('toolbar-upload'), '上传文件', { tap: true });
      await expectOnScreen(phone, phone.getByTestId('toolbar-mkdir'), '新建文件夹', { tap: true });
      await clickSelectionAction(phone, 'share');
      await phone.getByTestId('share-dialog').waitFor();
      await phone.keyboard.press('Escape');
      await phone.getByTestId('share-dialog').waitFor({ state: 'detached' });
      await clickSelectionAction(phone, 'delete');
      await phone.getByTestId('confirm-delete').tap();
      await fileRow(phone, one).waitFor({ state: 'detached' });
      const undo = phone.getByTestId('undo-delete');
      await shot(phone, '10', 'phone-delete-toast');
      await expectOnScreen(phone, undo, '撤销', { tap: true });
      await undo.tap();
      await fileRow(phone, one).waitFor();

      await callRaw(phone, API.removeFiles, { ids: [(await fileRow(phone, one).getAttribute('data-row-key'))!] });
      await visitInApp(phone, '/main/file/recycle');
      const gone = fileRow(phone, one);
      await gone.waitFor();
      await shot(phone, '10', 'phone-recycle');
      await expect.poll(() => gone.getByTestId('file-origin').textContent().catch(() => null), { timeout: 3000 }).toBe('个人文件');
      await expectOnScreen(phone, gone.getByTestId('file-origin'), '原位置 on the row');

      await visitInApp(phone, '/main/file/personal');
      await fileRow(phone, name).getByRole('button', { name: `更多操作：${name}` }).tap();
      await phone.locator('.ant-dropdown:visible [data-testid="menu-rename"]').tap();
      const input = phone.getByTestId('rename-name-input');
      await input.waitFor();
      await phone.waitForTimeout(300);
      await shot(phone, '10', 'phone-rename');
      await expectOnScreen(phone, phone.locator('.ant-modal-container').last(), 'the 重命名 dialog');
      const selected = () => input.evaluate((el: HTMLInputElement) => el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0));
      await expect.poll(selected, { timeout: 2000 }).toBe(name.slice(0, name.lastIndexOf('.')));
      await phone.keyboard.press('Escape');
      await input.waitFor({ state: 'hidden' });

      await fileRow(phone, name).getByRole('button', { name: `更多操作：${name}` }).tap();
      await phone.locator('.ant-dropdown:visible [data-testid="menu-move"]').tap();
      const picker = phone.getByTestId('folder-picker');
      await picker.getByTestId('folder-picker-node').first().tap();
      await phone.waitForTimeout(300);
      await shot(phone, '10', 'phone-move-picker');
      await expectOnScreen(phone, phone.getByTestId('folder-picker-mkdir'), '新建文件夹 in the move picker', { tap: true });
      await expectOnScreen(phone, phone.getByTestId('folder-picker-ok'), '移动到此处', { tap: true });
    } finally {
      await phoneContext.close();
    }
  });
});
