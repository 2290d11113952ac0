/**
 * Everyday comfort on the file pages (issue 20), in Chromium against `npm start`: the toolbar keeps
 * its line when something is selected, 排序 opens on click (not hover), the keyboard works as in a
 * file manager, a thumbnail grid beside the list is remembered, and a ZIP of several entries is named
 * after the first one. Everything happens inside a folder of its own.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickSelectionAction, closeBrowserSession, fileRow, loginAsAdmin, openBrowserSession, transferItems } from './browser';

const OK = /确\s*定/;

describe('file browsing comfort', () => {
  let browser: Browser;
  let page: Page;
  let workDir: string;
  const stamp = Date.now().toString(36);
  const folder = `舒适-${stamp}`;
  const names = ['报告.txt', '文件2.txt', '文件10.txt', '图片.png'];

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('comfort-files', { acceptDownloads: true, viewport: { width: 1440, height: 900 } }));
    await loginAsAdmin(page);
    await page.getByTestId('toolbar-mkdir').click();
    await page.getByTestId('mkdir-name-input').fill(folder);
    await page.getByRole('button', { name: OK }).click();
    await fileRow(page, folder).getByTestId('file-name').click();
    await page.getByTestId('breadcrumb').getByText(folder).waitFor();
    const files = names.map((n) => path.join(workDir, n));
    for (const f of files.slice(0, 3)) writeFileSync(f, `内容 ${path.basename(f)}`);
    writeFileSync(files[3]!, await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer());
    await page.getByTestId('upload-input').setInputFiles(files);
    for (const n of names) await transferItems(page, n, 'done').waitFor({ timeout: 60_000 });
    for (const n of names) await fileRow(page, n).waitFor();
  });

  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  const rows = () => page.getByTestId('file-table').locator('[data-testid="file-row"]');
  const selectedNames = () => page.getByTestId('file-table').locator('[data-testid="file-row"][aria-selected="true"] [data-testid="file-name"]').allTextContents();

  it('keeps the toolbar on one line when something is selected: the list, sort and search do not move', async () => {
    const before = { table: (await page.getByTestId('file-table').boundingBox())!, search: (await page.getByTestId('toolbar-search').boundingBox())!, sort: (await page.getByTestId('toolbar-sort').boundingBox())! };
    for (const n of names) await fileRow(page, n).locator('.ant-checkbox').click();
    await page.getByTestId('selection-count').getByText(`已选 ${names.length} 项`).waitFor();
    const after = { table: (await page.getByTestId('file-table').boundingBox())!, search: (await page.getByTestId('toolbar-search').boundingBox())!, sort: (await page.getByTestId('toolbar-sort').boundingBox())! };
    expect(after).toEqual(before);
    // 取消选择 gives the page actions back
    await page.getByTestId('selection-clear').click();
    await page.getByTestId('toolbar-upload').waitFor();
    expect((await page.getByTestId('file-table').boundingBox())!).toEqual(before.table);
  });

  it('opens 排序 on a click, not on hover', async () => {
    const menu = page.locator('.ant-dropdown:visible', { hasText: '修改时间 降序' });
    await page.getByTestId('toolbar-sort').hover();
    await page.waitForTimeout(600);
    expect(await menu.count()).toBe(0);
    await page.getByTestId('toolbar-sort').click();
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
  });

  it('sorts names naturally: 文件2 before 文件10', async () => {
    const order = await rows().locator('[data-testid="file-name"]').allTextContents();
    expect(order.indexOf('文件2.txt')).toBeLessThan(order.indexOf('文件10.txt'));
  });

  it('moves, extends, selects all and clears with the keyboard, and opens with Enter', async () => {
    const order = await rows().locator('[data-testid="file-name"]').allTextContents();
    // a click on the size cell (not the name, which opens)
    await fileRow(page, order[0]!).locator('[role="gridcell"]').nth(2).click();
    await expect.poll(selectedNames).toEqual([order[0]]);
    await page.keyboard.press('ArrowDown');
    await expect.poll(selectedNames).toEqual([order[1]]);
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(selectedNames).toEqual([order[1], order[2]]);
    await page.keyboard.press('End');
    await expect.poll(selectedNames).toEqual([order[order.length - 1]]);
    await page.keyboard.press('ControlOrMeta+a');
    await page.getByTestId('selection-count').getByText(`已选 ${names.length} 项`).waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('toolbar-upload').waitFor();
    expect(await selectedNames()).toEqual([]);
    // Delete asks before moving the selection to the recycle bin
    await page.keyboard.press('Home');
    await page.keyboard.press('Delete');
    await page.getByTestId('confirm-delete').waitFor();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /取\s*消/ }).click();
    await page.getByTestId('confirm-delete').waitFor({ state: 'detached' });
    // Enter on a text file previews it
    const text = order.find((n) => n.endsWith('.txt'))!;
    await fileRow(page, text).locator('[role="gridcell"]').nth(2).click();
    await page.getByTestId('file-table').press('Enter');
    await page.getByTestId('preview-text').getByText(`内容 ${text}`).waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('preview-text').waitFor({ state: 'detached' });
  });

  it('shows a thumbnail grid, moves through it by rows with the arrows, and remembers it after a reload', async () => {
    await page.getByTestId('view-grid').click();
    const grid = page.getByTestId('file-grid');
    await grid.waitFor();
    const thumb = grid.locator('[data-testid="file-tile"]', { hasText: '图片.png' }).getByTestId('file-thumbnail');
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const tiles = grid.getByTestId('file-tile');
    expect(await tiles.count()).toBe(names.length);
    // all four tiles on one row at 1440 px: Right moves by one, Down stays on the last row
    await tiles.first().locator('.fg-thumb').click();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => tiles.nth(1).getAttribute('aria-selected')).toBe('true');
    await page.reload();
    await page.getByTestId('file-grid').waitFor();
    await page.getByTestId('view-list').click();
    await page.getByTestId('file-table').waitFor();
    await page.reload();
    await page.getByTestId('file-table').waitFor();
    expect(await page.getByTestId('file-grid').count()).toBe(0);
  });

  it('names a ZIP of several entries after the first one: 报告 等2个文件.zip', async () => {
    const order = await rows().locator('[data-testid="file-name"]').allTextContents();
    const two = order.filter((n) => n === '报告.txt' || n === '文件2.txt');
    for (const n of two) await fileRow(page, n).locator('.ant-checkbox').click();
    const download = page.waitForEvent('download');
    await clickSelectionAction(page, 'zip');
    expect((await download).suggestedFilename()).toBe(`${two[0]!.replace(/\.txt$/, '')} 等2个文件.zip`);
  });
});
