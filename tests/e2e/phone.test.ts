/**
 * A phone is a first-class screen (issue 13): at 390×844 with touch, the menu is a drawer, the file
 * list one column with its ⋮ menu, the transfer list a bottom sheet behind a badge, dialogs fit, and
 * touch targets are at least 44 px. Browse into a folder, upload a file, preview a picture, open the
 * transfer list. What shows is checked in the frame it first paints (first-paint-watch.ts): a notice
 * never lies over the transfer button, and the preview opens already fitted.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import { closeBrowserSession, fileRow, openBrowserSession, submitLogin, visitInApp } from './browser';
import { shot } from './shots';
import { call } from './tenant-kit';
import { watchFirstPaint, type FirstPaintFindings } from './first-paint-watch';

const VIEWPORT = { width: 390, height: 844 };

describe('on a phone (390×844, touch)', () => {
  let browser: Browser;
  let page: Page;
  let workDir: string;
  const stamp = Date.now();
  const folder = `手机目录 ${stamp}`;

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('phone', { viewport: VIEWPORT, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }));
    await page.addInitScript(watchFirstPaint, { controlSelector: '[data-testid="transfer-sheet-button"]', imageSelector: '[data-testid="preview-image"]' });
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('logs in; the file list takes the width', async () => {
    await submitLogin(page, 'admin', 'Admin@2024');
    await page.waitForURL('**/main/file/personal**');
    const table = page.getByTestId('file-table');
    await table.waitFor();
    expect((await table.boundingBox())!.width).toBeGreaterThan(VIEWPORT.width * 0.9);
  });

  // Before any touch on the page, which would close the notice (this step's last check).
  it('says 已可离线使用 once inside the app, never over the transfer button', async () => {
    // The service worker's first caching ends whenever it does; the notice comes once it has.
    const notice = page.locator('.ant-notification-notice', { hasText: '已可离线使用' });
    await notice.waitFor({ timeout: 90_000 });
    await page.getByTestId('transfer-sheet-button').waitFor();
    const frames = (await findings()).notices.filter((n) => n.text.includes('已可离线使用'));
    expect(frames.length).toBeGreaterThan(0);
    // Not on the way in: the login screen never showed it.
    expect(frames.filter((n) => n.path.startsWith('/login'))).toEqual([]);
    // In every frame it showed (its slide-in included), clear of the button, which a tap still reaches.
    const measured = frames.filter((n) => n.control);
    expect(measured.length).toBeGreaterThan(0);
    expect(measured.filter((n) => overlap(n.notice, n.control!))).toEqual([]);
    expect(measured.filter((n) => !n.controlReachable)).toEqual([]);
    // A touch anywhere else closes it: the page is the user's again.
    await page.getByTestId('breadcrumb').tap();
    await notice.waitFor({ state: 'detached' });
  });

  it('has no sidebar beside the list: the menu is a drawer from the header', async () => {
    await page.getByTestId('open-menu').tap();
    await page.getByTestId('menu-drawer').getByText('个人文件').first().waitFor();
    await page.getByTestId('menu-drawer').getByText('个人文件').first().tap();
    await page.getByTestId('menu-drawer').waitFor({ state: 'hidden' });
  });

  it('creates a folder in a dialog that fits the screen and browses into it', async () => {
    await page.getByTestId('toolbar-mkdir').tap();
    const dialog = page.getByRole('dialog').last();
    await dialog.waitFor();
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(VIEWPORT.width);
    await page.getByTestId('mkdir-name-input').fill(folder);
    await page.getByRole('button', { name: /确\s*定/ }).tap();
    await fileRow(page, folder).getByTestId('file-name').tap();
    await page.getByTestId('breadcrumb').getByText(folder).waitFor();
  });

  it('uploads a picture, shows it as one column with size and date, its ⋮ a 44 px target, and previews it', async () => {
    const name = `照片-${stamp}.png`;
    const source = path.join(workDir, name);
    writeFileSync(source, await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 20, g: 120, b: 60 } } }).png().toBuffer());
    await page.getByTestId('upload-input').setInputFiles(source);
    const row = fileRow(page, name);
    await row.waitFor({ timeout: 60_000 });
    await expect(row.getByTestId('file-meta').textContent()).resolves.toMatch(/\d{4}-\d{2}-\d{2}/);
    const more = row.locator('[data-testid^="more-"]');
    const target = (await more.boundingBox())!;
    expect(Math.min(target.width, target.height)).toBeGreaterThanOrEqual(44);
    await row.getByTestId('file-name').tap();
    const image = page.getByTestId('preview-image');
    await image.waitFor();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    // The picture fits the screen from the frame it first shows, not after a later measurement.
    await expect.poll(async () => (await findings()).previewWidths.length).toBe(2);
    const [first, next] = (await findings()).previewWidths;
    expect(first).toBeLessThanOrEqual(VIEWPORT.width);
    expect(next).toBeLessThanOrEqual(VIEWPORT.width);
    expect((await image.boundingBox())!.width).toBeLessThanOrEqual(VIEWPORT.width);
    // A phone has no Escape key: the dialog's × closes it, itself a 44 px target.
    const close = page.getByRole('dialog').getByRole('button', { name: '关闭' });
    const x = (await close.boundingBox())!;
    expect(Math.min(x.width, x.height)).toBeGreaterThanOrEqual(44);
    await close.tap();
    await image.waitFor({ state: 'detached' });
  });

  it('scrolls any page’s last row clear of the floating transfer button: 设备密码’s last 撤销 is tappable', async () => {
    // Enough device passwords that the card ends at the page's bottom edge.
    const created: string[] = [];
    for (let i = 0; i < 4; i++) created.push((await call<{ id: string }>(page, API.devicePasswordCreate, { name: `手机 ${stamp} ${i}` })).id);
    try {
      await visitInApp(page, '/main/user/accountSafe');
      const rows = page.getByTestId('device-password-row');
      await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(created.length);
      // The user scrolls as far down as the page goes.
      await page.locator('main.ant-layout-content').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const revoke = rows.last().getByTestId('device-password-revoke');
      const box = (await revoke.boundingBox())!;
      await shot(page, 'phone-fab', 'device-passwords-bottom');
      // What a tap at the action's centre (and at each of its corners) reaches is the action, not the
      // floating button over it.
      const points = [
        { x: box.x + box.width / 2, y: box.y + box.height / 2 },
        ...[2, box.width - 2].flatMap((dx) => [2, box.height - 2].map((dy) => ({ x: box.x + dx, y: box.y + dy }))),
      ];
      const hits = await page.evaluate((at) => at.map(({ x, y }) => {
        const el = document.elementFromPoint(x, y);
        return el?.closest('[data-testid="device-password-revoke"]') ? 'revoke' : (el?.closest('[data-testid]')?.getAttribute('data-testid') ?? el?.tagName ?? null);
      }), points);
      expect(hits).toEqual(points.map(() => 'revoke'));
      const fab = (await page.getByTestId('transfer-sheet-button').boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(fab.y);
    } finally {
      for (const id of created) await call(page, API.devicePasswordRevoke, { id });
    }
  });

  it('opens the transfer list as a bottom sheet from its badge', async () => {
    const button = page.getByTestId('transfer-sheet-button');
    await button.waitFor();
    const b = (await button.boundingBox())!;
    expect(b.height).toBeGreaterThanOrEqual(44);
    await button.tap();
    const sheet = page.getByTestId('transfer-sheet');
    await sheet.getByTestId('transfer-list-upload').waitFor();
    const panel = (await sheet.getByTestId('transfer-panel').boundingBox())!;
    expect(panel.width).toBeGreaterThan(VIEWPORT.width * 0.9);
    expect(await sheet.getByTestId('transfer-item').count()).toBeGreaterThan(0);
  });

  function findings(): Promise<FirstPaintFindings> {
    return page.evaluate(() => (window as unknown as { __firstPaint: FirstPaintFindings }).__firstPaint);
  }
});

type Box = FirstPaintFindings['notices'][number]['notice'];

function overlap(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}
