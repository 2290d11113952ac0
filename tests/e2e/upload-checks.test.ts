/**
 * The pre-upload checks of spec §4 as the transfer list shows them, in Chromium against `npm start`:
 *  - 上传新版本 of a file deleted meanwhile: fileVersion/check (by the file's id) finds it gone, the item fails with the
 *    reason and no byte is sent;
 *  - a pick made offline: the .exe is refused at once from the blocked types canBeUploadType gave
 *    earlier (已拦截, naming the type); the .txt waits with its checks pending and goes once online.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import { clickSelectionAction, closeBrowserSession, fileRow, loginAsAdmin, openBrowserSession, openOwnFolder, openTransferPanel, submitLogin, transferItems } from './browser';

const stamp = Date.now().toString(36).slice(-6);
const SHOTS = '/work/wt/shots/speccalls';

describe('pre-upload checks in the transfer list', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let workDir: string;

  beforeAll(async () => {
    ({ browser, context, page, workDir } = await openBrowserSession('upload-checks', { viewport: { width: 1440, height: 900 } }));
    await loginAsAdmin(page);
    // Its files go up into a folder of its own: in the admin's root (earlier files' entries) a new file
    // sorts below the rows the list renders, and its row was never there to tick.
    await openOwnFolder(page, `上传检查-${stamp}`);
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  function file(name: string, content: string): string {
    const at = path.join(workDir, name);
    writeFileSync(at, content);
    return at;
  }

  it('上传新版本 of a file deleted elsewhere fails with the reason, nothing sent', async () => {
    const name = `报告-${stamp}.txt`;
    const typesAsked = page.waitForRequest((r) => r.url().endsWith(API.canBeUploadType));
    await page.getByTestId('upload-input').setInputFiles(file(name, '第一版'));
    await typesAsked;
    await transferItems(page, name, 'done').waitFor({ timeout: 30_000 });
    await fileRow(page, name).locator('.ant-checkbox').click();
    await clickSelectionAction(page, 'uploadVersion');
    // Meanwhile (another tab, another person) the file goes to the recycle bin. (A rename no longer
    // matters: the version is addressed by the file's id.)
    const id = await fileRow(page, name).getAttribute('data-row-key');
    const removed = await page.evaluate(
      async ({ url, id }) => (await fetch(url, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json', 'X-Client-Platform': 'web' }, body: JSON.stringify({ ids: [id] }) })).status,
      { url: API.removeFiles, id },
    );
    expect(removed).toBe(200);
    const chunks: string[] = [];
    page.on('request', (r) => r.url().includes(API.chunkExist) && chunks.push(r.url()));
    const versionAsked = page.waitForRequest((r) => r.url().endsWith(API.fileVersionCheck));
    await page.getByTestId('new-version-input').setInputFiles(file('第二版.txt', '第二版'));
    await versionAsked;
    await openTransferPanel(page);
    const failed = transferItems(page, name, 'failed');
    await failed.getByTestId('transfer-note').getByText('原文件已被删除或不再与您共享，无法上传为它的新版本').waitFor();
    // 重试 would fail again: only 取消 is offered.
    expect(await failed.getByTestId('transfer-retry').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/version-check-after-gone.png` });
    expect(chunks).toEqual([]);
  });

  it('offline: a blocked type is refused at once from the kept list, the rest waits for its checks, then goes', async () => {
    const text = `离线-${stamp}.txt`;
    const exe = `工具-${stamp}.exe`;
    await context.setOffline(true);
    await page.getByTestId('upload-input').setInputFiles([file(exe, 'MZ not really'), file(text, '离线时选的文件')]);
    await openTransferPanel(page);
    // 已拦截 is folded under the list: opened, it names the file and why.
    await page.getByText('已拦截（1）').click();
    await page.getByTestId('transfer-blocked-item').filter({ hasText: exe }).getByText('管理员禁止上传 .exe 类型的文件').waitFor();
    const waiting = transferItems(page, text, 'waiting');
    await waiting.getByTestId('transfer-note').getByText('离线中：联网后先完成上传检查，再开始上传').waitFor();
    await page.screenshot({ path: `${SHOTS}/offline-checks-after-pending.png` });
    const checked = page.waitForRequest((r) => r.url().endsWith(API.multipleFileCheck));
    await context.setOffline(false);
    await checked;
    await transferItems(page, text, 'done').waitFor({ timeout: 30_000 });
    expect(await transferItems(page, exe).count()).toBe(0);
  });

  it('files picked just after sign-in, before the page knows its permissions, are uploaded, not dropped', async () => {
    // The full e2e stage's loaded server answered pagePermissions late: the hidden picker was there and
    // took the files, the page (no upload target yet) dropped them without a word (document-office-preview).
    const fresh = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const early = await fresh.newPage();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await early.route(`**${API.pagePermissions}`, async (route) => {
      await held;
      await route.continue();
    });
    await submitLogin(early, 'admin', 'Admin@2024');
    await early.waitForURL('**/main/file/personal**');
    await early.getByTestId('file-toolbar').waitFor();
    const name = `刚登录就选的-${stamp}.txt`;
    const picked = early.getByTestId('upload-input').setInputFiles(file(name, '登录后马上选的文件'));
    // A picker there while the permissions are unanswered takes the files now, before they come.
    if ((await early.getByTestId('upload-input').count()) > 0) await picked;
    release();
    await picked;
    await openTransferPanel(early);
    await transferItems(early, name, 'done').waitFor({ timeout: 30_000 });
    await fresh.close();
  });
});
