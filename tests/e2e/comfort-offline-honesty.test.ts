/**
 * Issue 44 item 7, offline honesty: with the network gone, a row's 下载 says what the ⋮ menu says
 * (unavailable offline) instead of pretending 已开始下载, and so do the toolbar and opening the file;
 * a page never opened before says it is not cached (and what to do) instead of claiming an empty
 * folder, and nothing keeps loading.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { CreateTxtResponse } from '../../common/api/types';
import { clickSelectionAction, closeBrowserSession, fileRow, openBrowserSession, submitLogin } from './browser';
import { addMember, apiFromPage, shot, waitUntil } from './comfort-honesty-kit';

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
    const created = await apiFromPage<CreateTxtResponse>(page, API.createTxt, { parentId: null, category: 1, name: fileName, content: 'offline' });
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
    await shot(page, 'item7', 'download-offline', workDir);
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
    await shot(page, 'item7', 'uncached-page', workDir);
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
    await shot(page, 'item7', 'uncached-shared', workDir);
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
});
