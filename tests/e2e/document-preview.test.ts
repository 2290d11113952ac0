/**
 * The document viewer (issue 41, src/components/document/) in Chromium against `npm start`: a 12-page
 * PDF written by the test opens with its first page drawn and only the pages near the viewport
 * rendered; zoom (steps, fit page, fit width, keys); find with highlights, a hit count and next; a
 * deep link opening it at a page with a term found; and a 390-px phone where the toolbar fits and
 * the pages zoom with buttons and a two-finger pinch.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { FileEntry } from '../../common/api/types';
import { textPdf } from '../support/text-pdf';
import { baseUrl, closeBrowserSession, openBrowserSession, revealFileRow, submitLogin, transferItems } from './browser';

const RUN = Date.now().toString(36).slice(-6);
const NAME = `手册-${RUN}.pdf`;
const PAGES = 12;
/** On pages 5 and 9 only. */
const TERM = 'needle';
const SHOTS = process.env.DOCVIEW_SHOTS ?? '';

const pageText = (n: number): string[] => [`Page ${n} of the handbook`, `Chapter ${n}: how the drive keeps files.`, ...(n === 5 || n === 9 ? [`Here is the ${TERM} on page ${n}.`] : []), 'Lorem ipsum dolor sit amet.'];

describe('the document viewer', () => {
  let browser: Browser;
  let page: Page;
  let workDir: string;
  let file: FileEntry;

  const shot = async (p: Page, name: string): Promise<void> => {
    if (!SHOTS) return;
    mkdirSync(SHOTS, { recursive: true });
    await p.screenshot({ path: path.join(SHOTS, name) });
  };
  const shown = (p: Page) => p.locator('[data-testid="document-pages"][data-first-page="shown"]');
  const indicator = (p: Page) => p.getByTestId('document-page-indicator');
  const percent = async (p: Page): Promise<number> => parseInt((await p.getByTestId('document-zoom-percent').textContent()) ?? '', 10);

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('document-preview'));
    await submitLogin(page, 'admin', 'Admin@2024');
    await page.waitForURL('**/main/file/personal**');
    const source = path.join(workDir, NAME);
    writeFileSync(source, textPdf(PAGES, pageText));
    await page.getByTestId('upload-input').setInputFiles(source);
    await transferItems(page, NAME, 'done').waitFor({ timeout: 60_000 });
    // The shared server's admin root holds earlier files' entries: the row may sort below the rendered window.
    await revealFileRow(page, NAME);
    file = await page.evaluate(
      async ({ listPath, name }) => {
        const r = await fetch(listPath, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ parentId: null, category: 1, pageSize: 200 }) });
        const body = (await r.json()) as { data: { items: FileEntry[] } };
        return body.data.items.find((i) => i.name === name)!;
      },
      { listPath: API.fileList, name: NAME },
    );
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('opens with page 1 drawn and only pages near the viewport rendered; zooms by buttons and keys', async () => {
    const fetched: string[] = [];
    page.on('request', (r) => void fetched.push(r.url()));
    await (await revealFileRow(page, NAME)).getByTestId('file-name').click();
    await shown(page).waitFor();
    // pdf.js's worker and data come from our build, never elsewhere; the service worker does not precache the viewer.
    expect(fetched.filter((u) => /pdf\.worker/.test(u))).toHaveLength(1);
    expect(fetched.filter((u) => !u.startsWith(baseUrl()) && !u.startsWith('data:') && !u.startsWith('blob:'))).toEqual([]);
    const precache = await (await fetch(`${baseUrl()}/sw.js`)).text();
    expect(precache).not.toMatch(/PdfViewer|pdf\.worker/);
    await expect(indicator(page).getAttribute('data-pages')).resolves.toBe(String(PAGES));
    await expect(indicator(page).getAttribute('data-page')).resolves.toBe('1');
    // Every page has its place; only a few have a canvas.
    expect(await page.locator('.pdfViewer .page').count()).toBe(PAGES);
    const drawn = await page.locator('.pdfViewer .page canvas').count();
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(PAGES);
    // The text layer holds the page's words (find and selection use it).
    await page.locator('.pdfViewer .page[data-page-number="1"] .textLayer').getByText('Page 1 of the handbook').waitFor();
    await shot(page, 'pdf-after-open.png');

    const fitted = await percent(page);
    await page.getByTestId('document-zoom-in').click();
    await expect.poll(() => percent(page)).toBeGreaterThan(fitted);
    await page.getByTestId('document-fit-page').click();
    await expect.poll(() => percent(page)).toBeLessThan(fitted);
    await page.getByTestId('document-pages').focus();
    await page.keyboard.press('0');
    await expect.poll(() => percent(page)).toBe(fitted);
    await page.keyboard.press('-');
    await expect.poll(() => percent(page)).toBeLessThan(fitted);
    await page.getByTestId('document-fit-width').click();

    // Jump by the page field; the pages there get drawn.
    await page.getByTestId('document-page-input').fill('7');
    await page.getByTestId('document-page-input').press('Enter');
    await expect.poll(() => indicator(page).getAttribute('data-page')).toBe('7');
    await page.locator('.pdfViewer .page[data-page-number="7"] canvas').waitFor();
  });

  it('finds a term: the hits counted and highlighted, Enter goes to the next one', async () => {
    // Off the toolbar: an open tooltip would take the first Esc (antd closes the topmost layer).
    await page.mouse.move(1, 1);
    await page.getByTestId('document-pages').focus();
    await page.keyboard.press('Home');
    await expect.poll(() => indicator(page).getAttribute('data-page')).toBe('1');
    await page.keyboard.press('Control+f');
    const input = page.getByTestId('document-find-input');
    await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
    await input.fill(TERM);
    await expect.poll(() => page.getByTestId('document-find-count').textContent()).toBe('1 / 2');
    await expect.poll(() => indicator(page).getAttribute('data-page')).toBe('5');
    await page.locator('.pdfViewer .page[data-page-number="5"] .textLayer .highlight.selected').waitFor();
    await shot(page, 'pdf-after-find.png');
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('document-find-count').textContent()).toBe('2 / 2');
    await expect.poll(() => indicator(page).getAttribute('data-page')).toBe('9');
    await input.fill('no such words');
    await expect.poll(() => page.getByTestId('document-find-count').textContent()).toBe('无结果');
    // Esc closes the find bar, then the preview.
    await input.press('Escape');
    await page.getByTestId('document-find-bar').waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await page.getByTestId('preview').waitFor({ state: 'detached' });
  });

  it('opens at a page with a term found from ?preview=&page=&term=', async () => {
    await page.goto(`${baseUrl()}/main/file/personal?preview=${encodeURIComponent(file.id)}&page=6&term=${TERM}`);
    await shown(page).waitFor();
    await expect(page.getByTestId('document-find-input').inputValue()).resolves.toBe(TERM);
    // The first hit at or after page 6: page 9's.
    await expect.poll(() => page.getByTestId('document-find-count').textContent()).toBe('2 / 2');
    await expect.poll(() => indicator(page).getAttribute('data-page')).toBe('9');
    await page.locator('.pdfViewer .page[data-page-number="9"] .textLayer .highlight.selected').waitFor();
    expect(new URL(page.url()).search).toBe('');
    // Esc closes the find bar first (its input has the focus), then the preview.
    await page.keyboard.press('Escape');
    await page.getByTestId('document-find-bar').waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await page.getByTestId('preview').waitFor({ state: 'detached' });
  });

  it('an Office file without a rendition says 该文件类型暂不支持预览 and offers 下载', async () => {
    const name = `坏的-${RUN}.docx`;
    writeFileSync(path.join(workDir, name), 'PK this is no document');
    await page.getByTestId('upload-input').setInputFiles(path.join(workDir, name));
    await transferItems(page, name, 'done').waitFor({ timeout: 60_000 });
    await (await revealFileRow(page, name)).getByTestId('file-name').click();
    // (While a rendition is being made the viewer says 正在生成预览… and asks again; this one cannot be made.)
    const said = page.getByTestId('document-viewer').getByTestId('preview-unsupported');
    await said.waitFor({ timeout: 30_000 });
    expect(await said.textContent()).toContain('该文件类型暂不支持预览');
    await shot(page, 'office-unsupported-after.png');
    const download = page.waitForEvent('download');
    await page.getByTestId('document-download').click();
    expect((await download).suggestedFilename()).toBe(name);
    await page.keyboard.press('Escape');
    await page.getByTestId('preview').waitFor({ state: 'detached' });
  });

  it('fits a 390-px phone: the toolbar wraps inside, buttons and a pinch zoom', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, reducedMotion: 'reduce' });
    const p = await phone.newPage();
    await submitLogin(p, 'admin', 'Admin@2024');
    await p.waitForURL('**/main/file/personal**');
    await p.goto(`${baseUrl()}/main/file/personal?preview=${encodeURIComponent(file.id)}`);
    await shown(p).waitFor();
    const box = await p.getByRole('toolbar', { name: '文档工具栏' }).boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    const fitted = await percent(p);
    await p.getByTestId('document-zoom-in').tap();
    await expect.poll(() => percent(p)).toBeGreaterThan(fitted);
    await p.getByTestId('document-fit-width').tap();
    await expect.poll(() => percent(p)).toBe(fitted);
    await shot(p, 'pdf-after-phone.png');

    // Two fingers moving apart (the DevTools protocol's multi-touch) zoom the pages in.
    const pages = await p.getByTestId('document-pages').boundingBox();
    const cx = pages!.x + pages!.width / 2;
    const cy = pages!.y + pages!.height / 2;
    const cdp = await phone.newCDPSession(p);
    const fingers = (d: number) => [
      { x: cx - d, y: cy, id: 1 },
      { x: cx + d, y: cy, id: 2 },
    ];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(30) });
    for (let d = 40; d <= 120; d += 20) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(d) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect.poll(() => percent(p)).toBeGreaterThan(fitted * 2.5);
    await phone.close();
  });
});
