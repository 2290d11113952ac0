/**
 * Everyday comfort on the file pages (issue 20), in Chromium against `npm start`: the toolbar keeps
 * its line when something is selected, 排序 opens on click (not hover), the keyboard works as in a
 * file manager, a thumbnail grid beside the list is remembered, and a ZIP of several entries is named
 * after the first one. Everything happens inside a folder of its own.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Frame, Page, Request } from 'playwright-core';
import { API } from '../../common/api/paths';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { antdClassesWithoutStyles } from './antd-styles';
import { clickSelectionAction, closeBrowserSession, fileRow, loginAsAdmin, openBrowserSession, transferItems } from './browser';
import { minimalPdf } from '../support/minimal-pdf';

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
    expect(await antdClassesWithoutStyles(page)).toEqual([]);
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

  it('a load straight into a folder asks for its listing once, at boot, before the shell has rendered', async () => {
    const dir = new URL(page.url()).searchParams.get('dir');
    expect(dir).toBeTruthy();
    const sent: string[] = [];
    // The reloaded document's requests only. Until it commits, the page before it runs on, and the test
    // before this one leaves as soon as its rows show, while that page's background work is still
    // starting: its pop-up notices were seen first in a full run (load straight into the next reload).
    let reloading = false;
    let committed = false;
    const onCommit = (frame: Frame) => void (reloading && frame === page.mainFrame() && (committed = true));
    const onRequest = (r: Request) => {
      if (r.isNavigationRequest() && r.frame() === page.mainFrame()) reloading = true;
      if (!committed) return;
      const { pathname } = new URL(r.url());
      if (pathname === API.fileList) sent.push(`list ${(JSON.parse(r.postData() ?? '{}') as { parentId: string | null }).parentId}`);
      else if (pathname === API.sysMsgPopup) sent.push('popup notices');
    };
    page.on('framenavigated', onCommit);
    page.on('request', onRequest);
    await page.reload();
    for (const n of names) await fileRow(page, n).waitFor();
    // The pop-up notices are asked for by the shell's background work, which starts once the shell
    // has committed (AfterCommits): it may come after the rows.
    await expect.poll(() => sent.includes('popup notices')).toBe(true);
    page.off('request', onRequest);
    page.off('framenavigated', onCommit);
    // The page took the answer asked for at boot: one listing, sent before the shell asked for its
    // pop-up notices.
    expect(sent).toEqual([`list ${dir}`, 'popup notices']);
  });

  it('names a ZIP of several entries after the first one: 报告 等2个文件.zip', async () => {
    const order = await rows().locator('[data-testid="file-name"]').allTextContents();
    const two = order.filter((n) => n === '报告.txt' || n === '文件2.txt');
    for (const n of two) await fileRow(page, n).locator('.ant-checkbox').click();
    const download = page.waitForEvent('download');
    await clickSelectionAction(page, 'zip');
    expect((await download).suggestedFilename()).toBe(`${two[0]!.replace(/\.txt$/, '')} 等2个文件.zip`);
  });

  it('previews pictures at full size with zoom, steps to the next file, shows a CSV as a table, shows a PDF’s pages, and asks before downloading a kind it cannot show', async () => {
    // the ZIP step left its two entries selected: 取消选择 brings the page actions back
    await page.getByTestId('selection-clear').click();
    await page.getByTestId('toolbar-mkdir').click();
    await page.getByTestId('mkdir-name-input').fill('预览');
    await page.getByRole('button', { name: OK }).click();
    await fileRow(page, '预览').getByTestId('file-name').click();
    await page.getByTestId('breadcrumb').getByText('预览').waitFor();
    const files: Record<string, Buffer> = {
      'a-大图.png': await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 20, g: 90, b: 200 } } }).png().toBuffer(),
      'b-名单.csv': Buffer.from('\uFEFF姓名,部门,备注\r\n张三,研发,"含,逗号"\r\n李四,市场,"两行\n备注"\r\n', 'utf8'),
      'c-季度.pdf': minimalPdf(),
      'd-数据.bin': Buffer.from('PK not a kind anyone previews'),
    };
    for (const [n, bytes] of Object.entries(files)) writeFileSync(path.join(workDir, n), bytes);
    await page.getByTestId('upload-input').setInputFiles(Object.keys(files).map((n) => path.join(workDir, n)));
    for (const n of Object.keys(files)) await fileRow(page, n).waitFor({ timeout: 60_000 });

    // the picture: the original, fitted, then zoomed
    await fileRow(page, 'a-大图.png').getByTestId('file-name').click();
    const img = page.getByTestId('preview-image');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1600);
    const viewer = page.getByTestId('image-viewer');
    const fitted = Number(await viewer.getAttribute('data-scale'));
    expect(fitted).toBeLessThan(100);
    await page.getByTestId('image-zoom-in').click();
    await expect.poll(async () => Number(await viewer.getAttribute('data-scale'))).toBeGreaterThan(fitted);
    await page.getByTestId('image-actual-size').click();
    await expect.poll(() => viewer.getAttribute('data-scale')).toBe('100');
    await expect(page.getByTestId('preview-position').textContent()).resolves.toBe('1 / 3');

    // → the CSV, as a table with its quoted fields whole
    await page.keyboard.press('ArrowRight');
    const table = page.getByTestId('preview-csv');
    await table.waitFor();
    await expect(table.locator('thead th').allTextContents()).resolves.toEqual(['#', '姓名', '部门', '备注']);
    await expect(table.locator('tbody tr').nth(0).locator('td').allTextContents()).resolves.toEqual(['1', '张三', '研发', '含,逗号']);
    expect(await table.locator('tbody tr').count()).toBe(2);

    // next: the PDF, its page drawn by the document viewer
    await page.getByTestId('preview-next').click();
    await page.getByTestId('preview-title').getByText('c-季度.pdf').waitFor();
    await page.locator('[data-testid="document-pages"][data-first-page="shown"]').waitFor();
    await expect(page.getByTestId('preview-next').isDisabled()).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await page.getByTestId('preview').waitFor({ state: 'detached' });

    // a kind that cannot be shown: asked first; 取消 downloads nothing
    let downloads = 0;
    const count = () => void downloads++;
    page.on('download', count);
    await fileRow(page, 'd-数据.bin').getByTestId('file-name').click();
    const ask = page.locator('.ant-modal-confirm', { hasText: '无法在线预览' });
    await ask.waitFor();
    await ask.getByRole('button', { name: /取\s*消/ }).click();
    await ask.waitFor({ state: 'detached' });
    await page.waitForTimeout(500);
    expect(downloads).toBe(0);
    page.off('download', count);
    await fileRow(page, 'd-数据.bin').getByTestId('file-name').click();
    const download = page.waitForEvent('download');
    await page.getByTestId('confirm-download').click();
    expect((await download).suggestedFilename()).toBe('d-数据.bin');
  });

  it('asks about a same-name upload in a dialog naming the folder, before queueing; the toast does not count a refused .exe', async () => {
    // (inside 预览, left open by the previous step)
    const picked = { 'b-名单.csv': '姓名\r\n王五\r\n', 'e-新.txt': '新的', '工具.exe': 'MZ' };
    for (const [n, text] of Object.entries(picked)) writeFileSync(path.join(workDir, n), text);
    await page.getByTestId('upload-input').setInputFiles(Object.keys(picked).map((n) => path.join(workDir, n)));
    const dialog = page.getByTestId('upload-clash-dialog');
    await dialog.getByText('「预览」中已有 1 个同名的文件或文件夹').waitFor();
    await expect(page.getByTestId('upload-clash-names').locator('li').allTextContents()).resolves.toEqual(['b-名单.csv']);
    // nothing is queued while the question is open
    expect(await transferItems(page, 'e-新.txt').count()).toBe(0);
    await page.getByTestId('upload-clash-rename').click();
    await page.locator('.ant-message', { hasText: '已加入传输列表：2 个文件' }).waitFor();
    await page.locator('.ant-message', { hasText: '「工具.exe」的类型禁止上传，未加入传输列表。' }).waitFor();
    await fileRow(page, 'b-名单 (1).csv').waitFor({ timeout: 60_000 });
    await fileRow(page, 'e-新.txt').waitFor();
    expect(await fileRow(page, '工具.exe').count()).toBe(0);

    // again, as a new version: no third entry. Its toast appears at once, without antd's slide and fade,
    // even where the rest of the app animates (the toolbar's buttons): every upload pick shows one, and
    // its motion was ~0.7 s of frames of the whole page while the upload needed the CPU (issue 43).
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await expect.poll(() => page.getByTestId('file-toolbar').locator('.ant-btn').first().evaluate((el) => getComputedStyle(el).transitionDuration)).not.toBe('0s');
    await page.getByTestId('upload-input').setInputFiles([path.join(workDir, 'e-新.txt')]);
    await dialog.getByText('「预览」中已有 1 个同名的文件或文件夹').waitFor();
    await page.getByTestId('upload-clash-new-version').click();
    const toast = page.locator('.ant-message-notice', { hasText: '已加入传输列表：1 个文件' });
    await toast.waitFor();
    expect(await toast.getAttribute('class')).not.toMatch(/fade/);
    expect(await toast.evaluate((el) => getComputedStyle(el).transitionDuration.split(',').map((d) => d.trim()))).toSatisfy((durations: string[]) => durations.every((d) => d === '0s'));
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await expect.poll(() => transferItems(page, 'e-新.txt', 'done').count(), { timeout: 60_000 }).toBe(2);
    expect(await fileRow(page, 'e-新 (1).txt').count()).toBe(0);
  });
});
