/**
 * Issue 44 item 7, offline honesty: with the network gone, a row's 下载 says what the ⋮ menu says
 * (unavailable offline) instead of pretending 已开始下载, and so do the toolbar and opening the file;
 * a page never opened before says it is not cached (and what to do) instead of claiming an empty
 * folder, and nothing keeps loading. On a 390-px phone (its own browser, its own service worker) the
 * row's ⋮ menu and opening the file say the same, on the screen, and so does a page never opened.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { CreateTxtResponse } from '../../common/api/types';
import { clickSelectionAction, closeBrowserSession, fileRow, openBrowserSession, submitLogin } from './browser';
import { shot } from './shots';
import { addMember, call, expectOnScreen, PHONE, signIn, waitUntil } from './tenant-kit';

describe('offline honesty: one rule for what works offline, and pages that say they are not cached', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let workDir: string;
  const stamp = Date.now();
  const user = `offhonest${stamp}`;
  const fileName = `离线说明-${stamp}.txt`;

  beforeAll(async () => {
    ({ browser, context, page, workDir } = await openBrowserSession('offline-honesty'));
    await addMember(user, 'Honest@2024');
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('online: a file in 个人文件, the list saved for offline use', async () => {
    await submitLogin(page, user, 'Honest@2024');
    await page.waitForURL('**/main/file/personal**');
    const created = await call<CreateTxtResponse>(page, API.createTxt, { parentId: null, category: 1, name: fileName, content: 'offline' });
    expect(created.status).toBe('created');
    await page.reload();
    await fileRow(page, fileName).waitFor();
    await waitUntil(() => page.evaluate(() => navigator.serviceWorker.controller !== null), 'the service worker to control the page');
  });

  it('offline: the row 下载, the toolbar, the ⋮ menu and opening the file all say it needs the network', async () => {
    await context.setOffline(true);
    await page.getByTestId('offline-banner').waitFor();
    const row = fileRow(page, fileName);
    const download = row.getByRole('button', { name: '下载', exact: true });
    await download.waitFor();
    await shot(page, 'item7', 'download-offline');
    // The row button: disabled, saying why (as the menu does), and a click starts nothing.
    expect(await download.isDisabled()).toBe(true);
    expect(await download.getAttribute('title')).toContain('离线时不可用');
    await download.click({ force: true });
    await page.waitForTimeout(300);
    expect(await page.getByText('已开始下载').count()).toBe(0);

    // The ⋮ menu says the same.
    await row.getByRole('button', { name: `更多操作：${fileName}` }).click();
    const menuDownload = page.locator('.ant-dropdown:visible [data-testid="menu-download"]');
    await menuDownload.getByText('离线时不可用').waitFor();
    await page.keyboard.press('Escape');

    // The toolbar too.
    await row.getByRole('checkbox').check();
    await page.getByTestId('selection-actions').waitFor();
    const bar = page.getByTestId('selection-actions');
    const toolbarDownload = bar.getByTestId('action-download');
    if (await toolbarDownload.isVisible()) expect(await toolbarDownload.isDisabled()).toBe(true);
    else await clickSelectionAction(page, 'download').catch(() => undefined);
    expect(await page.getByText('已开始下载').count()).toBe(0);
    await page.getByTestId('selection-clear').click();

    // Opening the file (its preview needs the server) says so instead of a preview that never loads.
    await row.getByTestId('file-name').click();
    await page.locator('.ant-message-notice', { hasText: `打开「${fileName}」：离线时不可用` }).waitFor();
    expect(await page.locator('.ant-modal:visible').count()).toBe(0);
  });

  it('offline: a page never opened before says it is not cached, with what to do, and stops loading', async () => {
    await page.getByTestId('side-menu').getByText('同步文件', { exact: true }).click();
    await page.waitForURL('**/main/file/backups**');
    const notice = page.getByTestId('offline-uncached');
    await notice.waitFor({ timeout: 10_000 }).catch(() => undefined);
    await page.waitForTimeout(1500);
    await shot(page, 'item7', 'uncached-page');
    await notice.waitFor({ timeout: 1000 });
    await expect(notice.textContent()).resolves.toContain('离线中，此页面尚未缓存');
    await expect(notice.textContent()).resolves.toContain('联网');
    expect(await page.getByText('暂无文件', { exact: true }).count()).toBe(0);
    // Nothing keeps loading: no skeleton, spinner or 加载中….
    expect(await page.locator('.ant-skeleton:visible, .ant-spin-spinning:visible').count()).toBe(0);
    expect(await page.getByText('加载中…').count()).toBe(0);

    // 共享文件 (its sharer filter was a skeleton that never ended) and 公共空间 (a spinner) say the same.
    await page.getByTestId('side-menu').getByText('共享文件', { exact: true }).click();
    await page.waitForURL('**/main/file/share**');
    await notice.waitFor({ timeout: 5000 });
    await page.waitForTimeout(1000);
    await shot(page, 'item7', 'uncached-shared');
    expect(await page.locator('.ant-skeleton:visible, .ant-spin-spinning:visible').count()).toBe(0);
    await page.getByTestId('side-menu').getByText('公共空间', { exact: true }).click();
    await page.waitForURL('**/main/file/publicSpace**');
    await notice.waitFor({ timeout: 5000 });
    await page.waitForTimeout(1000);
    expect(await page.locator('.ant-skeleton:visible, .ant-spin-spinning:visible').count()).toBe(0);

    // Back online, the page loads by itself.
    await context.setOffline(false);
    await notice.waitFor({ state: 'detached', timeout: 15_000 });
  });

  it('on a 390-px phone: the ⋮ menu and opening the file say it needs the network, on the screen; so does a page never opened', async () => {
    const { context: phoneContext, page: phone } = await signIn(browser, user, 'Honest@2024', PHONE);
    try {
      const row = fileRow(phone, fileName);
      await row.waitFor();
      await waitUntil(() => phone.evaluate(() => navigator.serviceWorker.controller !== null), 'the service worker to control the phone page');
      await phoneContext.setOffline(true);
      await phone.getByTestId('offline-banner').waitFor();
      // The phone's row has one control, ⋮ (every action is in its menu).
      const more = row.getByRole('button', { name: `更多操作：${fileName}` });
      await expectOnScreen(phone, more, 'the row’s ⋮', { tap: true });
      await more.tap();
      const menuDownload = phone.locator('.ant-dropdown:visible [data-testid="menu-download"]');
      await menuDownload.getByText('离线时不可用').waitFor();
      await shot(phone, 'item7', 'phone-menu-offline');
      // The whole menu (offline, each item says why it is off: a long one) stays on the screen.
      await expectOnScreen(phone, phone.locator('.ant-dropdown:visible .ant-dropdown-menu'), 'the ⋮ menu');
      await expectOnScreen(phone, menuDownload, '下载 in the ⋮ menu');
      expect(await menuDownload.getAttribute('aria-disabled')).toBe('true');
      await menuDownload.tap({ force: true });
      await phone.waitForTimeout(300);
      expect(await phone.getByText('已开始下载').count()).toBe(0);
      await phone.keyboard.press('Escape');
      await phone.locator('.ant-dropdown:visible').waitFor({ state: 'hidden' });

      await row.getByTestId('file-name').tap();
      const toast = phone.locator('.ant-message-notice', { hasText: `打开「${fileName}」：离线时不可用` });
      await toast.waitFor();
      await expectOnScreen(phone, toast, 'the 离线时不可用 notice');
      expect(await phone.locator('.ant-modal:visible').count()).toBe(0);

      // A page this phone never opened: through the menu drawer, as a person goes there.
      await phone.getByTestId('open-menu').tap();
      await phone.getByTestId('menu-drawer').getByText('同步文件', { exact: true }).tap();
      await phone.waitForURL('**/main/file/backups**');
      const notice = phone.getByTestId('offline-uncached');
      await notice.waitFor({ timeout: 10_000 });
      await phone.waitForTimeout(1000);
      await shot(phone, 'item7', 'phone-uncached-page');
      await expectOnScreen(phone, notice, 'the not-cached notice');
      await expect(notice.textContent()).resolves.toContain('离线中，此页面尚未缓存');
      expect(await phone.getByText('暂无文件', { exact: true }).count()).toBe(0);
      expect(await phone.locator('.ant-skeleton:visible, .ant-spin-spinning:visible').count()).toBe(0);
      await phoneContext.setOffline(false);
      await notice.waitFor({ state: 'detached', timeout: 15_000 });
    } finally {
      await phoneContext.close();
    }
  });
});
