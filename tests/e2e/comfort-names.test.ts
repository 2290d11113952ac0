/**
 * Issue 44 item 2: ordinary names fail early, not late. A picked `方案[草稿],v1.docx` (`,` `[` `]` are
 * refused by the spec's name rule) is explained before anything is queued, and one click replaces the
 * characters by their full-width twins and uploads `方案【草稿】，v1.docx` — on a desktop and on a
 * 390-px phone. A name the server refuses for good (here the client's check is bypassed on the way:
 * the merge request carries a name the server refuses, as a queue written by an older client would)
 * is not offered 重试 but 重命名 and 移除, the overall bar and the rail count it as finished with an
 * error instead of sitting at 99 % / 0 %, and 重命名 resumes the upload without sending it again.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import { shot } from './shots';
import { closeBrowserSession, fileRow, launchBrowser, openTransferPanel, revealFileRow, serverChunkBytes, submitLogin, transferItems, waitForRole } from './browser';

const RUN = Date.now().toString(36).slice(-6);
const PICKED = '方案[草稿],v1.docx';
const REPLACED = '方案【草稿】，v1.docx';
/** Requests that put a file on its way: nothing of the kind may leave before the user chose. */
const UPLOAD_PATHS = [API.multipleFileCheck, API.batchUpload, API.chunkExist, API.chunkMerge];

const CONTEXTS: Array<{ label: string; options: BrowserContextOptions }> = [
  { label: 'desktop', options: { viewport: { width: 1280, height: 800 } } },
  { label: 'phone', options: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 } },
];

async function login(page: Page): Promise<void> {
  await submitLogin(page, 'admin', 'Admin@2024');
  await page.waitForURL('**/main/file/personal**');
  await page.getByTestId('file-table').waitFor();
}

/** A folder of this run, made through the API, opened in the list. */
async function openNewFolder(page: Page, name: string): Promise<void> {
  const status = await page.evaluate(async ({ url, name }) => {
    const r = await fetch(url, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ parentId: null, category: 1, name }) });
    return r.status;
  }, { url: API.mkdir, name });
  expect(status).toBe(200);
  await page.reload();
  await page.getByTestId('file-table').waitFor();
  const row = await revealFileRow(page, name);
  await row.getByText(name, { exact: true }).click();
  await page.getByTestId('breadcrumb').getByText(name).waitFor();
}

/** A folder upload: the bad folder is one question for the files under it, a bad file name inside another. */
async function uploadFolderWithBadNames(page: Page, dir: string): Promise<void> {
  const root = path.join(dir, '资料[2024]');
  mkdirSync(path.join(root, 'sub'), { recursive: true });
  writeFileSync(path.join(root, 'a,b.txt'), 'a');
  writeFileSync(path.join(root, 'sub', 'c.txt'), 'c');
  await page.getByTestId('upload-folder-input').setInputFiles(root);
  const dialog = page.getByTestId('upload-name-dialog');
  await dialog.waitFor();
  await expect.poll(() => dialog.getByTestId('upload-name-row').count()).toBe(2);
  await expect(dialog.getByTestId('upload-name-suggested').allTextContents()).resolves.toEqual(['资料【2024】', 'a，b.txt']);
  await dialog.getByTestId('upload-name-go').getByText('全部替换并上传').click();
  for (const rel of ['资料【2024】/a，b.txt', '资料【2024】/sub/c.txt']) await transferItems(page, rel, 'done').waitFor({ timeout: 60_000 });
  await fileRow(page, '资料【2024】').waitFor();
}

/**
 * 新建文件夹: the name is checked as it is typed (no blur, no 确定), and the full-width fix is one click.
 * Typed into the field as soon as it is there, at a person's pace (0.6 s for the name), while the dialog is
 * still opening (its animation ends ~0.3 s after the click, later on a busy machine): selecting the field when
 * it ended made the next key replace what was typed (CI once typed '草稿[1]' and got '1]').
 */
async function typeFolderName(page: Page): Promise<void> {
  await page.getByTestId('toolbar-mkdir').click();
  const input = page.getByTestId('mkdir-name-input');
  // Into the field the moment it is there, as a person who clicks into it does (Playwright's own typing
  // would first wait for the dialog to stop moving).
  await input.focus();
  await page.keyboard.type('草稿[1]', { delay: 120 });
  await expect.poll(() => input.inputValue()).toBe('草稿[1]');
  const dialog = page.getByRole('dialog').filter({ has: input });
  await dialog.getByText('名称不能包含以下字符', { exact: false }).waitFor();
  await page.getByTestId('mkdir-name-input-fix').getByText('一键改为「草稿【1】」').click();
  await expect.poll(() => input.inputValue()).toBe('草稿【1】');
  await expect.poll(() => dialog.getByText('名称不能包含以下字符', { exact: false }).count()).toBe(0);
  await shot(page, 'item2', 'desktop-mkdir');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await fileRow(page, '草稿【1】').waitFor();
}

describe('names checked when picked, refused names renamed', () => {
  let browser: Browser;
  let workDir: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    workDir = path.join('/tmp', `drive-e2e-names-${RUN}`);
    mkdirSync(workDir, { recursive: true });
  });

  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  for (const { label, options } of CONTEXTS) {
    it(`${label}: explains ${PICKED} before queueing it, and one click uploads ${REPLACED}`, async () => {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      await login(page);
      await openNewFolder(page, `命名-${label}-${RUN}`);
      const dir = path.join(workDir, label);
      mkdirSync(dir);
      writeFileSync(path.join(dir, PICKED), 'docx body');

      const sent: string[] = [];
      const onRequest = (r: Request) => {
        if (UPLOAD_PATHS.some((p) => r.url().includes(p))) sent.push(r.url());
      };
      context.on('request', onRequest);
      await page.getByTestId('upload-input').setInputFiles(path.join(dir, PICKED));
      const dialog = page.getByTestId('upload-name-dialog');
      await dialog.waitFor();
      // The reason in Chinese and the name it will become, before anything left for the server.
      await dialog.getByText('名称不能包含以下字符', { exact: false }).first().waitFor();
      await expect(dialog.getByTestId('upload-name-suggested').textContent()).resolves.toBe(REPLACED);
      await shot(page, 'item2', `${label}-dialog`);
      expect(sent).toEqual([]);
      expect(await transferItems(page, PICKED).count()).toBe(0);
      context.off('request', onRequest);

      await dialog.getByTestId('upload-name-go').click();
      await dialog.waitFor({ state: 'detached' });
      await fileRow(page, REPLACED).waitFor({ timeout: 60_000 });
      expect(await fileRow(page, PICKED).count()).toBe(0);
      await shot(page, 'item2', `${label}-uploaded`);
      if (label === 'desktop') {
        await uploadFolderWithBadNames(page, dir);
        await typeFolderName(page);
      }
      await context.close();
    });
  }

  it('offers 重命名 and 移除, not 重试, for a name the server refuses; the bar and the rail end; 重命名 resumes', async () => {
    const context = await browser.newContext(CONTEXTS[0]!.options);
    const page = await context.newPage();
    await login(page);
    await waitForRole(page);
    await openNewFolder(page, `拒收-${RUN}`);
    const refused = `拒收-${RUN}.bin`;
    const accepted = `收下-${RUN}.bin`;
    // Above the batch limit (1 MiB): the chunked protocol, refused only at the merge, every byte sent.
    const source = path.join(workDir, refused);
    writeFileSync(source, randomBytes(1024 * 1024 + 4321));
    await context.route(`**${API.chunkMerge}`, async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}') as { name?: string };
      if (body.name !== refused) return route.continue();
      await route.continue({ postData: JSON.stringify({ ...body, name: `${refused.slice(0, -4)},${refused.slice(-4)}` }) });
    });

    await page.getByTestId('upload-input').setInputFiles(source);
    // The panel opens by itself in the tab a transfer starts in.
    await page.locator('[data-testid="transfer-panel"][data-expanded="true"]').waitFor();
    const row = transferItems(page, refused, 'failed');
    await row.waitFor({ timeout: 60_000 });
    expect(await row.getAttribute('data-hold-reason')).toBe('badName');
    await row.getByTestId('transfer-note').getByText('名称不能包含以下字符', { exact: false }).waitFor();
    expect(await row.getByTestId('transfer-retry').count()).toBe(0);
    await row.getByTestId('transfer-rename').waitFor();
    await row.getByTestId('transfer-remove').waitFor();
    expect(await page.getByTestId('transfer-retry-all').isDisabled()).toBe(true);
    // Finished with an error: the overall bar is full and red, not 99 %.
    const overall = page.getByTestId('transfer-overall-upload');
    await expect.poll(() => overall.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    await overall.getByText('1 项失败').waitFor();
    await shot(page, 'item2', 'refused-panel');

    // The closed panel's rail: nothing under way, one failure marked.
    await page.getByTestId('transfer-toggle').click();
    await page.locator('[data-testid="transfer-panel"][data-expanded="false"]').waitFor();
    await expect.poll(async () => (await page.getByTestId('transfer-panel').boundingBox())?.width).toBeLessThan(60);
    await page.getByTestId('transfer-rail-failed').waitFor();
    expect(await page.getByTestId('transfer-rail-progress').count()).toBe(0);
    await shot(page, 'item2', 'refused-rail');
    // At a phone's width the floating button says it too (red), not a percentage that will not move.
    await page.setViewportSize({ width: 390, height: 844 });
    const button = page.getByTestId('transfer-sheet-button');
    await button.getByText('1 项失败').waitFor();
    expect(await button.getAttribute('class')).toContain('ant-btn-dangerous');
    await shot(page, 'item2', 'refused-phone-button');
    await page.setViewportSize(CONTEXTS[0]!.options.viewport!);
    await page.locator('[data-testid="transfer-panel"]').waitFor();
    await openTransferPanel(page);

    // 重命名: a name checked as it is typed, then the same upload goes on (no byte sent again).
    const bytesBefore = await serverChunkBytes(context);
    await transferItems(page, refused, 'failed').getByTestId('transfer-rename').click();
    const input = page.getByTestId('transfer-rename-input');
    await input.fill('收下[1].bin');
    await page.getByTestId('transfer-rename-problem').getByText('名称不能包含以下字符', { exact: false }).waitFor();
    // One click to the full-width twins, or a name of one's own.
    await page.getByTestId('transfer-rename-fix').getByText('一键改为「收下【1】.bin」').waitFor();
    await shot(page, 'item2', 'refused-rename');
    await input.fill(accepted);
    await page.getByTestId('transfer-rename-ok').click();
    await transferItems(page, accepted, 'done').waitFor({ timeout: 60_000 });
    expect(await serverChunkBytes(context)).toBe(bytesBefore);
    await fileRow(page, accepted).waitFor({ timeout: 30_000 });
    await context.close();
  });
});
