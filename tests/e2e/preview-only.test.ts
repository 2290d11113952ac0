/**
 * A preview-only recipient in Chromium against `npm start` (issue 35; rules in common/api/byte-access.ts):
 * a PDF opens in the document viewer with the viewer's line painted into its page, a picture comes watermarked, with no 下载 anywhere; a .bin
 * says 该文件类型不支持预览 instead of offering (or starting) a download; a picture the server cannot
 * render for the watermark shows the server's coded reason, not a generic failure; a preview-only link
 * says the same for its .bin row.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { LinkInfo } from '../../common/api/sharing';
import type { FileEntry, FileListResponse } from '../../common/api/types';
import { encryptPassword } from '../../common/crypto/password-cipher';
import { minimalPdf } from '../support/minimal-pdf';
import { closeBrowserSession, fileRow, openBrowserSession, submitLogin, transferItems } from './browser';

const RUN = Date.now().toString(36).slice(-6);
const PASSWORD = 'Bytes@2024x';
const SHARER = `pvsharer.${RUN}`;
const VIEWER = `pvviewer.${RUN}`;
const FOLDER = `只读资料${RUN}`;
const FILES = { pdf: `方案-${RUN}.pdf`, png: `照片-${RUN}.png`, bin: `数据-${RUN}.bin`, broken: `损坏-${RUN}.png`, txt: `纪要-${RUN}.txt` };

/** A call through the page's own session (the app's cookie), for setup the test is not about. */
async function call<T>(page: Page, apiPath: string, body: unknown): Promise<T> {
  const res = await page.evaluate(
    async ({ apiPath, body }) => {
      const r = await fetch(apiPath, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: r.status, json: (await r.json()) as { data: unknown } };
    },
    { apiPath, body },
  );
  if (res.status !== 200) throw new Error(`${apiPath}: ${JSON.stringify(res.json)}`);
  return res.json.data as T;
}

describe('a preview-only recipient', () => {
  let browser: Browser;
  let admin: Page;
  let workDir: string;
  let viewer: Page;
  let viewerContext: BrowserContext;
  let link: LinkInfo;
  const downloads: string[] = [];

  beforeAll(async () => {
    ({ browser, page: admin, workDir } = await openBrowserSession('preview-only'));
    await submitLogin(admin, 'admin', 'Admin@2024');
    await admin.waitForURL('**/main/file/personal**');
    const team = await call<{ id: string }>(admin, API.departmentCreate, { parentId: null, name: `预览部${RUN}` });
    for (const account of [SHARER, VIEWER]) {
      await call(admin, API.userAdd, { website: account, nickName: `昵称${account}`, phone: '', departmentId: team.id, role: 'member', quota: 10 * 1024 ** 3, outerLogin: false, password: encryptPassword(PASSWORD) });
    }
    // Test setup: the accounts skip their first-login password change (account-flow.test.ts covers it).
    const db = new SQLite(path.join(inject('dataDir'), 'drive.sqlite'));
    db.pragma('busy_timeout = 5000');
    db.prepare('update users set must_change_password = 0 where username in (?, ?)').run(SHARER, VIEWER);
    const viewerId = (db.prepare('select id from users where username = ?').get(VIEWER) as { id: string }).id;
    db.close();

    // The sharer uploads the four files into a folder through the page, then shares them preview-only.
    const sharerContext = await browser.newContext();
    const sharer = await sharerContext.newPage();
    await submitLogin(sharer, SHARER, PASSWORD);
    await sharer.waitForURL('**/main/file/personal**');
    const folder = await call<FileEntry>(sharer, API.mkdir, { parentId: null, category: 1, name: FOLDER });
    await sharer.reload();
    await fileRow(sharer, FOLDER).getByTestId('file-name').click();
    await sharer.getByTestId('breadcrumb').getByText(FOLDER).waitFor();
    const bytes: Record<string, Buffer> = {
      [FILES.pdf]: minimalPdf(),
      [FILES.png]: await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 250, g: 250, b: 250 } } }).png().toBuffer(),
      [FILES.bin]: randomBytes(4096),
      [FILES.broken]: Buffer.from('this is no picture at all'),
      [FILES.txt]: Buffer.from('会议纪要：下周一交付'),
    };
    for (const [name, content] of Object.entries(bytes)) writeFileSync(path.join(workDir, name), content);
    await sharer.getByTestId('upload-input').setInputFiles(Object.keys(bytes).map((n) => path.join(workDir, n)));
    for (const name of Object.keys(bytes)) await transferItems(sharer, name, 'done').waitFor({ timeout: 60_000 });
    const listed = await call<FileListResponse>(sharer, API.fileList, { parentId: folder.id, category: 1, pageSize: 100 });
    await call(sharer, API.shareCreate, { fileIds: listed.items.map((i) => i.id), recipients: [{ type: 'user', id: viewerId }], permission: 'preview', validityDays: 0 });
    link = await call<LinkInfo>(sharer, API.linkCreate, { fileId: folder.id, code: '', validityDays: 0, downloadLimit: null, previewOnly: true });
    await sharerContext.close();

    viewerContext = await browser.newContext({ acceptDownloads: true });
    viewer = await viewerContext.newPage();
    viewer.on('download', (d) => downloads.push(d.suggestedFilename()));
    await submitLogin(viewer, VIEWER, PASSWORD);
    await viewer.waitForURL('**/main/file/personal**');
    await viewer.goto(inject('baseUrl') + '/main/file/share');
    for (const name of Object.values(FILES)) await fileRow(viewer, name).waitFor();
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  async function open(name: string): Promise<void> {
    await fileRow(viewer, name).getByTestId('file-name').click();
    await viewer.getByTestId('preview-title').getByText(name).waitFor();
    // Nothing to take away: no 下载 in the preview, the note instead.
    expect(await viewer.getByTestId('preview-download').count()).toBe(0);
    await viewer.getByTestId('preview-only-note').waitFor();
  }

  async function close(): Promise<void> {
    await viewer.keyboard.press('Escape');
    await viewer.getByTestId('preview').waitFor({ state: 'detached' });
  }

  it('previews a PDF with the viewer’s line painted into its page, inline and never kept, nothing to copy', async () => {
    const answer = viewer.waitForResponse((r) => r.url().includes(API.previewPrefix));
    await open(FILES.pdf);
    const res = await answer;
    expect([res.status(), res.headers()['content-type'], res.headers()['cache-control']]).toEqual([200, 'application/pdf', 'private, no-store']);
    expect(res.headers()['content-disposition']).toMatch(/^inline;/);
    await viewer.locator('[data-testid="document-pages"][data-first-page="shown"]').waitFor();
    const line = await viewer.getByTestId('watermark').getAttribute('data-watermark');
    expect(line).toMatch(new RegExp(`^昵称${VIEWER.replace('.', '\\.')} ${VIEWER.replace('.', '\\.')} \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}$`));
    // The page is blank: with the overlay's node removed, its grey pixels are the painted line.
    await viewer.evaluate(() => document.querySelectorAll('[data-watermark-layer]').forEach((n) => n.remove()));
    expect(await viewer.locator('[data-watermark-layer]').count()).toBe(0);
    const grey = await viewer.locator('.pdfViewer .page canvas').first().evaluate((canvas: HTMLCanvasElement) => {
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! < 235) n++;
      return n / (data.length / 4);
    });
    expect(grey).toBeGreaterThan(0.01);
    expect(await viewer.getByTestId('document-download').count()).toBe(0);
    await close();
  });

  it('previews a picture with the viewer burnt in', async () => {
    const answer = viewer.waitForResponse((r) => r.url().includes(API.previewPrefix) && r.request().resourceType() === 'image');
    await open(FILES.png);
    const res = await answer;
    expect([res.status(), res.headers()['content-type'], res.headers()['cache-control']]).toEqual([200, 'image/webp', 'private, no-store']);
    const img = viewer.getByTestId('preview-image');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(320);
    await close();
  });

  it('a .bin: 该文件类型不支持预览, no download offered nor started', async () => {
    await fileRow(viewer, FILES.bin).getByTestId('file-name').click();
    await viewer.getByTestId('preview-title').getByText(FILES.bin).waitFor();
    expect(await viewer.getByTestId('preview-unsupported').textContent()).toBe(ERRORS.PREVIEW_UNSUPPORTED.message);
    expect(ERRORS.PREVIEW_UNSUPPORTED.message).toBe('该文件类型不支持预览');
    expect(await viewer.getByTestId('preview-download').count()).toBe(0);
    expect(await viewer.locator('.ant-modal-confirm', { hasText: '无法在线预览' }).count()).toBe(0);
    await close();
    // The row offers no download either.
    expect(await fileRow(viewer, FILES.bin).locator('[data-testid^="download-"]').count()).toBe(0);
  });

  it('a shared .txt says why it cannot be edited online (onlyoffice/canoperationforshare), asked when the preview opens', async () => {
    const asked = viewer.waitForResponse((r) => r.url().includes(API.canOperationForShare));
    await open(FILES.txt);
    await asked;
    await viewer.getByTestId('preview-online-edit').getByText('不能在线编辑：没有编辑权限').waitFor();
    await close();
  });

  it('a picture the server cannot render with the watermark shows the server’s coded reason', async () => {
    await open(FILES.broken);
    await viewer.getByTestId('preview-failed').getByText('该图片无法添加水印预览').waitFor();
    await close();
    expect(downloads).toEqual([]);
  });

  it('a preview-only link says the same for its .bin, and shows its PDF', async () => {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    const started: string[] = [];
    page.on('download', (d) => started.push(d.suggestedFilename()));
    await page.goto(`${inject('baseUrl')}/shareLink/${link.token}`);
    if (link.code) {
      await page.getByTestId('link-code-entry').fill(link.code);
      await page.getByTestId('link-code-submit').click();
    }
    await page.getByTestId('link-opened').waitFor();
    expect(await page.getByTestId('link-download-main').count()).toBe(0);
    const bin = page.locator('[data-testid="link-row"][data-name="' + FILES.bin + '"]');
    expect(await bin.getByTestId('link-row-no-preview').textContent()).toBe(ERRORS.PREVIEW_UNSUPPORTED.message);
    expect(await bin.getByTestId('link-row-download').count()).toBe(0);
    await page.locator('[data-testid="link-row"][data-name="' + FILES.pdf + '"]').getByTestId('link-row-preview').click();
    await page.getByTestId('link-preview').locator('[data-testid="document-pages"][data-first-page="shown"]').waitFor();
    // The server's line for the visitor, painted into the page and laid over it.
    expect(await page.getByTestId('link-preview').getByTestId('watermark').getAttribute('data-watermark')).toMatch(/^guest@/);
    expect(started).toEqual([]);
    await context.close();
  });
});
