/**
 * Folder uploads keep their tree: a small folder picked through '上传文件夹' (an <input webkitdirectory>)
 * creates its nested folders and files; a folder's files also arrive when dropped on the page; a
 * picked file of a name the folder has is asked about before it is queued, and a clash inside an
 * uploaded folder is held in the transfer list; both become a new version on the user's word.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBrowserSession, fileRow, loginAsAdmin, openBrowserSession, revealFileRow, transferItems } from './browser';

describe('folders, drops and held uploads', () => {
  let browser: Browser;
  let page: Page;
  let workDir: string;

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('folder'));
    await loginAsAdmin(page);
  });

  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  /** Opens a folder of the one shown; the admin's root holds earlier files' entries, so its row is scrolled to. */
  async function openFolder(name: string): Promise<void> {
    await (await revealFileRow(page, name)).getByText(name, { exact: true }).click();
    await page.getByTestId('breadcrumb').getByText(name).waitFor();
  }

  it("uploads a folder tree through '上传文件夹' and lists its nested folders and files", async () => {
    const root = `tree-${Date.now()}`;
    const dir = path.join(workDir, root);
    mkdirSync(path.join(dir, 'sub', 'deep'), { recursive: true });
    writeFileSync(path.join(dir, 'a.txt'), 'top level\n');
    writeFileSync(path.join(dir, 'sub', 'b.txt'), 'one down\n');
    writeFileSync(path.join(dir, 'sub', 'deep', 'c.txt'), 'two down\n');

    await page.getByTestId('upload-folder-input').setInputFiles(dir);
    for (const rel of [`${root}/a.txt`, `${root}/sub/b.txt`, `${root}/sub/deep/c.txt`]) {
      await transferItems(page, rel, 'done').waitFor({ timeout: 60_000 });
    }

    await openFolder(root);
    await fileRow(page, 'a.txt').waitFor();
    await fileRow(page, 'sub').waitFor();
    await openFolder('sub');
    await fileRow(page, 'b.txt').waitFor();
    await fileRow(page, 'deep').waitFor();
    await openFolder('deep');
    await fileRow(page, 'c.txt').waitFor();
    await page.getByTestId('breadcrumb').getByText('个人文件').click();
    await revealFileRow(page, root);
  });

  it('shows the drop overlay and uploads files dropped on the page', async () => {
    const name = `dropped-${Date.now()}.txt`;
    await page.evaluate((fileName) => {
      const target = document.querySelector('[data-testid="files-page"]') as HTMLElement;
      const dt = new DataTransfer();
      dt.items.add(new File(['dropped content\n'], fileName, { type: 'text/plain' }));
      target.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true, cancelable: true }));
      (window as unknown as { __drop: DataTransfer }).__drop = dt;
    }, name);
    await page.getByTestId('drop-overlay').getByText('松开鼠标上传到当前文件夹').waitFor();
    await page.evaluate(() => {
      const target = document.querySelector('[data-testid="files-page"]') as HTMLElement;
      const dt = (window as unknown as { __drop: DataTransfer }).__drop;
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await page.getByTestId('drop-overlay').waitFor({ state: 'detached' });
    await transferItems(page, name, 'done').waitFor({ timeout: 60_000 });
    // The admin's folder holds earlier e2e files' entries: the new one may sort below the first screen.
    await revealFileRow(page, name);
  });

  it("asks before queueing a picked file of a name the folder has, and uploads it as a new version on '覆盖为新版本'", async () => {
    const name = `conflict-${Date.now()}.txt`;
    const first = path.join(workDir, 'v1');
    const second = path.join(workDir, 'v2');
    mkdirSync(first);
    mkdirSync(second);
    writeFileSync(path.join(first, name), 'version one\n');
    writeFileSync(path.join(second, name), 'version two, longer\n');

    await page.getByTestId('upload-input').setInputFiles(path.join(first, name));
    await transferItems(page, name, 'done').waitFor({ timeout: 60_000 });
    await revealFileRow(page, name);

    await page.getByTestId('upload-input').setInputFiles(path.join(second, name));
    await page.getByTestId('upload-clash-dialog').getByText('「个人文件」中已有 1 个同名的文件或文件夹').waitFor();
    await page.getByTestId('upload-clash-new-version').click();

    await expect.poll(() => transferItems(page, name, 'done').count(), { timeout: 60_000 }).toBe(2);
    // Still one file of that name, now holding the second content.
    await expect.poll(async () => (await revealFileRow(page, name)).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await (await revealFileRow(page, name)).textContent()) ?? '', { timeout: 10_000 }).toContain('20 B');
  });

  it("holds a same-name file inside an uploaded folder in the transfer list, and uploads it as a new version on '作为新版本上传'", async () => {
    const root = `again-${Date.now()}`;
    const dir = path.join(workDir, root);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'same.txt'), 'one\n');
    await page.getByTestId('upload-folder-input').setInputFiles(dir);
    await transferItems(page, `${root}/same.txt`, 'done').waitFor({ timeout: 60_000 });

    writeFileSync(path.join(dir, 'same.txt'), 'two, longer\n');
    await page.getByTestId('upload-folder-input').setInputFiles(dir);
    const held = transferItems(page, `${root}/same.txt`, 'held');
    await held.waitFor({ timeout: 60_000 });
    expect(await held.getAttribute('data-hold-reason')).toBe('exists');
    await held.getByTestId('transfer-note').getByText('目标文件夹中已有同名文件').waitFor();
    await held.getByTestId('transfer-decide-newVersion').click();
    await expect.poll(() => transferItems(page, `${root}/same.txt`, 'done').count(), { timeout: 60_000 }).toBe(2);
    await openFolder(root);
    await expect.poll(() => fileRow(page, 'same.txt').count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await fileRow(page, 'same.txt').textContent()) ?? '', { timeout: 10_000 }).toContain('12 B');
  });
});
