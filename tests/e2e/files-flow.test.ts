/**
 * The foundation's whole path in a real browser against `npm start`: log in as admin, create a
 * folder, upload a few MB through the UI (the engine worker moves the bytes), see the file listed,
 * download it and compare every byte. A folder made below the rows in view is scrolled to and marked.
 */
import { randomBytes, createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import { antdClassesWithoutStyles } from './antd-styles';
import { baseUrl, closeBrowserSession, fileRow, openBrowserSession, openOwnFolder, revealFileRow, submitLogin } from './browser';
import { shot } from './shots';
import { call, expectOnScreen } from './tenant-kit';

/** 9 MiB + a bit: three chunks at the default 4 MiB chunk size, the last one short. */
const UPLOAD_SIZE = 9 * 1024 * 1024 + 12345;

describe('admin: folder, upload, list, download', () => {
  let browser: Browser;
  let page: Page;
  let workDir: string;

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('files', { acceptDownloads: true }));
  });

  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('logs in through the captcha and lands on personal files', async () => {
    await submitLogin(page, 'admin', 'Admin@2024');
    await page.waitForURL('**/main/file/personal**');
    // The main shell is a lazy chunk: wait for it rather than sample it.
    await page.getByTestId('file-table').waitFor();
  });

  it('scrolls to a folder just made that sorts below the rows in view, and marks it', async () => {
    const stamp = Date.now();
    const crowded = await openOwnFolder(page, `满屏-${stamp}`);
    // More folders sorting before the new one than the list renders from the top (a screen and 8 more).
    for (let i = 0; i < 30; i++) await call(page, API.mkdir, { parentId: crowded.id, category: 1, name: `000 目录 ${String(i).padStart(2, '0')}` });
    await page.reload();
    await fileRow(page, '000 目录 00').waitFor();
    const name = `新建-${stamp}`;
    await page.getByTestId('toolbar-mkdir').click();
    await page.getByTestId('mkdir-name-input').fill(name);
    await page.getByRole('button', { name: /确\s*定/ }).click();
    const made = page.locator('[data-testid="file-row"][data-fresh="true"]', { has: page.getByText(name, { exact: true }) });
    await made.waitFor({ timeout: 10_000 });
    await shot(page, 'new-entry', 'scrolled-to');
    await expectOnScreen(page, made, 'the folder just made');
    await page.goto(baseUrl() + '/main/file/personal');
    await page.getByTestId('file-table').waitFor();
  });

  it('creates a folder and opens it', async () => {
    const folder = `E2E 文件夹 ${Date.now()}`;
    await page.getByTestId('toolbar-mkdir').click();
    await page.getByTestId('mkdir-name-input').fill(folder);
    await page.getByRole('button', { name: /确\s*定/ }).click();
    const row = page.getByTestId('file-table').getByText(folder, { exact: true });
    await row.waitFor();
    await row.click();
    await page.getByTestId('breadcrumb').getByText(folder).waitFor();
    expect(page.url()).toContain('dir=');
  });

  it('refuses a name with a forbidden character, with the rule shown in Chinese', async () => {
    await page.getByTestId('toolbar-mkdir').click();
    await page.getByTestId('mkdir-name-input').fill('a|b');
    await page.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('名称不能包含以下字符').first().waitFor();
    // The dialog and the form's error are styled (antd's styles load with the code that renders them).
    expect(await antdClassesWithoutStyles(page)).toEqual([]);
    await page.keyboard.press('Escape');
  });

  it('uploads a multi-chunk file through the engine, then downloads identical bytes', async () => {
    const bytes = randomBytes(UPLOAD_SIZE);
    const name = `data-${Date.now()}.bin`;
    const source = path.join(workDir, name);
    writeFileSync(source, bytes);

    await page.getByTestId('upload-input').setInputFiles(source);
    const item = page.getByTestId('transfer-item').filter({ hasText: name });
    await item.and(page.locator('[data-state="done"]')).waitFor({ timeout: 90_000 });

    const row = await revealFileRow(page, name);
    const rowKey = await row.getAttribute('data-row-key');
    expect(rowKey).toBeTruthy();

    const downloadEvent = page.waitForEvent('download');
    await page.getByTestId(`download-${rowKey}`).click();
    const download = await downloadEvent;
    const saved = path.join(workDir, 'downloaded.bin');
    await download.saveAs(saved);
    const got = readFileSync(saved);
    expect(got.length).toBe(bytes.length);
    expect(createHash('sha256').update(got).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(download.suggestedFilename()).toBe(name);
  });
});
