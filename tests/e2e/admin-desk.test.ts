/**
 * 工作台 and 统计报表 (issue 38) in Chromium against `npm start`: the admin uploads a file, opens
 * 系统管理 and lands on 工作台, whose charts (drawn by ECharts from the server's aggregates) count
 * today's upload; then exports 统计报表's growth report as .xlsx, read back with exceljs: the same
 * totals the page shows. Screenshots (E2E_SHOTS_DIR) at desktop width and on a 390 px phone.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { DeskSummary, GrowthReport } from '../../common/api/reports';
import { antdClassesWithoutStyles } from './antd-styles';
import { baseUrl, closeBrowserSession, loginAsAdmin, openBrowserSession, type BrowserSession } from './browser';
import { shot } from './shots';

async function getFromPage<T>(page: Page, url: string): Promise<T> {
  return page.evaluate(async (u) => {
    const r = await fetch(u, { credentials: 'include', headers: { 'X-Client-Platform': 'web', 'X-Network-Env': 'internal' } });
    return ((await r.json()) as { data: T }).data;
  }, baseUrl() + url);
}

describe('工作台 and 统计报表', () => {
  let s: BrowserSession;

  beforeAll(async () => {
    s = await openBrowserSession('admin-desk', { acceptDownloads: true, viewport: { width: 1440, height: 900 } });
    await loginAsAdmin(s.page);
  });
  afterAll(async () => {
    await closeBrowserSession(s?.browser, s?.workDir ?? '');
  });

  it("系统管理 lands on 工作台, whose charts count today's upload", async () => {
    const { page } = s;
    const name = `工作台-${Date.now()}.pdf`;
    const source = path.join(s.workDir, name);
    writeFileSync(source, randomBytes(48 * 1024));
    await page.getByTestId('upload-input').setInputFiles(source);
    await page.getByTestId('transfer-item').filter({ hasText: name }).and(page.locator('[data-state="done"]')).waitFor({ timeout: 30_000 });

    await page.getByRole('menuitem', { name: '系统管理' }).click();
    await page.getByRole('menuitem', { name: '工作台' }).click();
    await page.waitForURL('**/main/system/desk');
    // The transfers chart is drawn (SVG) and names today's uploads, as the server counts them.
    const chart = page.getByTestId('desk-chart-transfers');
    await chart.locator('svg text').first().waitFor({ state: 'attached' });
    const desk = await getFromPage<DeskSummary>(page, API.reportDesk);
    const today = desk.transfers.at(-1)!;
    expect(today.day).toBe(desk.today);
    expect(today.uploads).toBeGreaterThanOrEqual(1);
    await expect.poll(() => chart.getAttribute('aria-label')).toContain(`今日上传 ${today.uploads} 个文件`);
    await expect.poll(() => page.getByTestId('desk-tile-uploads').innerText()).toMatch(new RegExp(`今日上传\\s*${today.uploads}\\s*个`));
    // Today's column is on the axis.
    expect(await chart.locator('svg text').allTextContents()).toContain(today.day.slice(5));
    // Each tile opens the page that acts on it.
    expect(await page.getByTestId('desk-tile-applications').getAttribute('href')).toBe('/main/safe/dealApply');
    expect(await antdClassesWithoutStyles(page)).toEqual([]);
    await shot(page, 'desk', 'desktop-desk');

    // /main/system itself goes to 工作台 (spec §2: system defaults to desk).
    await page.goto(`${baseUrl()}/main/system`);
    await page.waitForURL('**/main/system/desk');
    await page.getByTestId('desk-chart-transfers').locator('svg text').first().waitFor({ state: 'attached' });
  });

  it('统计报表 exports the growth report as .xlsx with the totals the page shows', async () => {
    const { page } = s;
    await page.getByRole('menuitem', { name: '统计报表' }).click();
    await page.waitForURL('**/main/system/reportForm**');
    await page.getByRole('tab', { name: '增长趋势' }).click();
    await page.getByTestId('report-growth').waitFor();
    await page.getByTestId('report-chart-transfers').locator('svg text').first().waitFor({ state: 'attached' });
    const totals = await page.getByTestId('report-totals').innerText();
    const q = new URL(page.url()).searchParams;
    expect(q.get('kind')).toBe('growth');
    await shot(page, 'desk', 'desktop-report');

    const download = page.waitForEvent('download');
    await page.getByTestId('report-export').click();
    await page.getByRole('menuitem', { name: '导出为 Excel（.xlsx）' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^统计报表-增长趋势-\d{12}\.xlsx$/);
    const saved = path.join(s.workDir, 'report.xlsx');
    await file.saveAs(saved);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(saved);
    const sheet = book.getWorksheet('增长趋势')!;
    const last = (sheet.getRow(sheet.rowCount).values as unknown[]).slice(1, 6);
    expect(last[0]).toBe('合计');
    const uploads = Number(last[1]);
    expect(uploads).toBeGreaterThanOrEqual(1);
    // The page's totals and the file's agree (the page shows counts as they are).
    expect(totals).toMatch(new RegExp(`上传文件数\\s*${uploads}\\b`));
    expect(totals).toMatch(new RegExp(`下载次数\\s*${Number(last[3])}\\b`));
    const from = (sheet.getRow(2).values as unknown[])[1] as string;
    const to = (sheet.getRow(sheet.rowCount - 1).values as unknown[])[1] as string;
    const report = await getFromPage<GrowthReport>(page, `${API.reportGet}?kind=growth&from=${from}&to=${to}`);
    expect([report.totals.uploads, report.totals.uploadBytes, report.totals.downloads, report.totals.downloadBytes]).toEqual(last.slice(1).map(Number));
  });

  it('on a 390 px phone both pages fit the screen', async () => {
    const { page } = s;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${baseUrl()}/main/system/desk`);
    await page.getByTestId('desk-chart-transfers').locator('svg text').first().waitFor({ state: 'attached' });
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shot(page, 'desk', 'phone-desk');
    await page.goto(`${baseUrl()}/main/system/reportForm?kind=storage`);
    await page.getByTestId('report-storage').waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shot(page, 'desk', 'phone-report');
  });
});
