/**
 * Office previews in Chromium against `npm start` (issue 41): a .docx and a .pptx written by the test
 * (tests/support/document-kit.ts) are uploaded through the page; the server's LibreOffice makes their
 * PDF renditions in the background while the viewer says 正在生成预览… and asks again; each then shows
 * its text in the document viewer, and the grid shows the first page as its thumbnail.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docx, pptx } from '../support/document-kit';
import { closeBrowserSession, openBrowserSession, revealFileRow, revealFileTile, submitLogin, transferItems } from './browser';

const RUN = Date.now().toString(36).slice(-6);
const FILES = { docx: `周报-${RUN}.docx`, pptx: `路演-${RUN}.pptx` };
const SHOTS = process.env.DOCVIEW_SHOTS ?? '';

describe('Office previews', () => {
  let browser: Browser;
  let page: Page;
  let workDir: string;

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('document-office-preview'));
    await submitLogin(page, 'admin', 'Admin@2024');
    await page.waitForURL('**/main/file/personal**');
    writeFileSync(path.join(workDir, FILES.docx), await docx(['Quarterly report of the storage team', '本周完成了文档预览的开发']));
    writeFileSync(path.join(workDir, FILES.pptx), await pptx(['Roadshow slide one', '第二页：产品路线图']));
    await page.getByTestId('upload-input').setInputFiles(Object.values(FILES).map((n) => path.join(workDir, n)));
    for (const name of Object.values(FILES)) await transferItems(page, name, 'done').waitFor({ timeout: 60_000 });
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  async function preview(name: string, text: string): Promise<void> {
    await page.mouse.move(1, 1);
    // The shared server's admin root holds earlier files' entries: the row may sort below the rendered window.
    await (await revealFileRow(page, name)).getByTestId('file-name').click();
    const viewer = page.getByTestId('document-viewer');
    await viewer.waitFor();
    // Converted in the background: the viewer waits (正在生成预览…) and asks again by itself.
    await page.locator('[data-testid="document-pages"][data-first-page="shown"]').waitFor({ timeout: 60_000 });
    await page.locator('.pdfViewer .textLayer').getByText(text).first().waitFor();
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `office-after-${path.extname(name).slice(1)}.png`) });
    await page.keyboard.press('Escape');
    await page.getByTestId('preview').waitFor({ state: 'detached' });
  }

  it('a .docx shows its text', async () => {
    await preview(FILES.docx, 'Quarterly report of the storage team');
    await expect.poll(() => page.locator('.pdfViewer').count()).toBe(0);
  });

  it('a .pptx shows its slides’ text', async () => {
    await preview(FILES.pptx, 'Roadshow slide one');
  });

  it('the grid shows their first pages as thumbnails', async () => {
    await page.getByTestId('view-grid').first().click();
    for (const name of Object.values(FILES)) {
      const tile = await revealFileTile(page, name);
      // Drawn in the window's overscan it may be off screen, where its lazy <img> does not load.
      await tile.scrollIntoViewIfNeeded();
      const thumb = tile.getByTestId('file-thumbnail');
      await expect.poll(() => thumb.getAttribute('data-thumbnail'), { timeout: 20_000 }).toBe('loaded');
    }
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'grid-after.png') });
    await page.getByTestId('view-list').first().click();
  });
});
