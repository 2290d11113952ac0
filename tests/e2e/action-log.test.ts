/**
 * The action log (操作日志) in a real browser against `npm start`: a user of its own does a few
 * things (logs in and accepts the agreement, creates a folder through the file page, renames it), the admin filters the log to
 * that user and sees exactly those actions, opens one, and exports the filtered set; the file (xlsx,
 * read back with exceljs, and csv) holds the same rows.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ACTION_LOG_EXPORT_COLUMNS, type ActionLogCheckpoint } from '../../common/api/action-log';
import { API } from '../../common/api/paths';
import { encryptPassword } from '../../common/crypto/password-cipher';
import { QUOTA_CHOICES } from '../../common/org/quota';
import SQLite from 'better-sqlite3';
import { antdClassesWithoutStyles } from './antd-styles';
import { baseUrl, closeBrowserSession, openBrowserSession, submitLogin, type BrowserSession } from './browser';
import { shot } from './shots';

const AUDITEE = { username: `auditee${randomBytes(3).toString('hex')}`, password: 'Audit@2024', nickName: '审计对象' };

/**
 * The user this test owns, in a department of its own, added by the admin through the people API
 * (from the admin's page); its initial-password gate is then lifted in the database (test setup: the
 * forced first change has its own Chromium test).
 */
async function addAuditee(adminPage: Page): Promise<string> {
  const dept = await postFromPage(adminPage, API.departmentCreate, { parentId: null, name: `审计部${randomBytes(2).toString('hex')}` });
  expect(dept.status).toBe(200);
  const departmentId = dept.body.data!.id!;
  const added = await postFromPage(adminPage, API.userAdd, {
    website: AUDITEE.username,
    nickName: AUDITEE.nickName,
    phone: `137${String(Date.now()).slice(-8)}`,
    departmentId,
    role: 'member',
    quota: QUOTA_CHOICES[0]!.bytes,
    outerLogin: true,
    password: encryptPassword(AUDITEE.password),
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  const db = new SQLite(path.join(inject('dataDir'), 'drive.sqlite'));
  db.pragma('busy_timeout = 5000');
  try {
    db.prepare('update users set must_change_password = 0 where username = ?').run(AUDITEE.username);
  } finally {
    db.close();
  }
  return departmentId;
}

/** A same-origin JSON POST from the page (its session cookie and client headers). */
function postFromPage(page: Page, apiPath: string, body: unknown): Promise<{ status: number; body: { data?: { id?: string }; errorCode?: string } }> {
  return page.evaluate(
    async ({ url, payload }) => {
      const r = await fetch(url, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json', 'X-Client-Platform': 'web', 'X-Network-Env': 'internal' }, body: JSON.stringify(payload) });
      return { status: r.status, body: (await r.json()) as { data?: { id?: string } } };
    },
    { url: baseUrl() + apiPath, payload: body },
  );
}

const rowsOnPage = (page: Page) => page.getByTestId('action-log-row');

describe('操作日志: one user\'s actions, filtered and exported', () => {
  let user: BrowserSession;
  let admin: BrowserSession;
  const folder = `审计-${Date.now()}`;

  let departmentName = '';

  beforeAll(async () => {
    admin = await openBrowserSession('audit-admin', { acceptDownloads: true });
    await submitLogin(admin.page, 'admin', 'Admin@2024');
    await admin.page.waitForURL('**/main/file/personal**');
    const departmentId = await addAuditee(admin.page);
    departmentName = await admin.page.evaluate(async (url) => {
      const tree = (await (await fetch(url, { credentials: 'include', headers: { 'X-Client-Platform': 'web' } })).json()) as { data: { departments: Array<{ id: string; name: string }> } };
      return tree.data.departments.map((d) => [d.id, d.name]);
    }, baseUrl() + API.orgTree).then((pairs) => pairs.find(([id]) => id === departmentId)![1]!);
    user = await openBrowserSession('audit-user');
  });
  afterAll(async () => {
    await closeBrowserSession(user.browser, user.workDir);
    await closeBrowserSession(admin.browser, admin.workDir);
  });

  it('the user logs in, creates a folder on the file page and renames it', async () => {
    const page = user.page;
    await submitLogin(page, AUDITEE.username, AUDITEE.password);
    await page.waitForURL('**/main/file/personal**');
    await page.getByTestId('file-table').waitFor();
    await page.getByTestId('toolbar-mkdir').click();
    await page.getByTestId('mkdir-name-input').fill(folder);
    await page.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByTestId('file-table').getByText(folder, { exact: true }).waitFor();
    const list = (await page.evaluate(
      async (url) => (await fetch(url, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json', 'X-Client-Platform': 'web' }, body: JSON.stringify({ parentId: null, category: 1 }) })).json(),
      baseUrl() + API.fileList,
    )) as { data: { items: Array<{ id: string; name: string }> } };
    const id = list.data.items.find((i) => i.name === folder)!.id;
    expect((await postFromPage(page, API.rename, { id, name: `${folder}-改` })).status).toBe(200);
  });

  it('the admin filters the log to that user: exactly the login, the agreement, the folder and the rename, newest first', async () => {
    const page = admin.page;
    await page.goto(`${baseUrl()}/main/system/actionLog`);
    await page.getByTestId('action-log-page').waitFor();
    await rowsOnPage(page).first().waitFor();

    await page.getByTestId('action-log-operator').click();
    await page.keyboard.type(AUDITEE.username);
    // The select's list, and the detail drawer below, came with the page's chunk and brought their styles.
    await page.locator('.ant-select-item-option', { hasText: AUDITEE.username }).waitFor();
    expect(await antdClassesWithoutStyles(page)).toEqual([]);
    await page.locator('.ant-select-item-option', { hasText: AUDITEE.username }).click();
    await page.getByTestId('action-log-search').click();
    await page.getByTestId('action-log-end').waitFor();
    await expect.poll(async () => (await rowsOnPage(page).allInnerTexts()).map((t) => t.split('\n')[2])).toEqual(['重命名', '新建文件夹', '同意用户协议', '账号密码登录']);
    const texts = await rowsOnPage(page).allInnerTexts();
    expect(texts.every((t) => t.includes(`${AUDITEE.nickName}（${AUDITEE.username}）`))).toBe(true);
    expect(texts[0]).toContain(folder);

    // One record, opened: the rename with both names and its place in the chain.
    await rowsOnPage(page).first().click();
    const detail = page.getByTestId('action-log-detail');
    await detail.waitFor();
    await expect.poll(() => detail.innerText()).toContain(`${folder}-改`);
    expect(await detail.innerText()).toMatch(/[0-9a-f]{64}/);
    expect(await antdClassesWithoutStyles(page)).toEqual([]);
    // 详情 in Chinese (issue 44): every recorded key by its label, the old and new names beside them.
    const rows = detail.getByTestId('action-log-detail-rows');
    expect(await rows.locator('dt').allInnerTexts()).toEqual(['原值', '新值']);
    expect(await rows.locator('dd').allInnerTexts()).toEqual([folder, `${folder}-改`]);
    await shot(page, 'B3', 'detail-rename');
    await page.keyboard.press('Escape');
    // The folder's creation: where (the top of 个人文件), not a raw parentId / category.
    await rowsOnPage(page).nth(1).click();
    await expect.poll(() => detail.getByTestId('action-log-detail-rows').innerText()).toContain('个人文件');
    const labels = await detail.getByTestId('action-log-detail-rows').locator('dt').allInnerTexts();
    expect(labels.filter((l) => /[A-Za-z]/.test(l))).toEqual([]);
    await page.keyboard.press('Escape');
  });

  it('the same four rows filtered by the user\'s department instead of the operator', async () => {
    const page = admin.page;
    await page.getByRole('button', { name: /重\s*置/ }).click();
    await page.getByTestId('action-log-department').click();
    await page.keyboard.type(departmentName);
    await page.locator('.ant-select-tree-node-content-wrapper', { hasText: departmentName }).click();
    await page.getByTestId('action-log-search').click();
    await expect.poll(async () => (await rowsOnPage(page).allInnerTexts()).map((t) => t.split('\n')[2])).toEqual(['重命名', '新建文件夹', '同意用户协议', '账号密码登录']);
  });

  it('exports the filtered set as .xlsx and .csv: the same four rows with their department, headers in Chinese', async () => {
    const page = admin.page;
    const fetchExport = async (label: RegExp) => {
      await page.getByTestId('action-log-export').click();
      const download = page.waitForEvent('download');
      await page.getByText(label).click();
      const file = await download;
      const target = path.join(admin.workDir, file.suggestedFilename());
      await file.saveAs(target);
      return { name: file.suggestedFilename(), target };
    };

    const xlsx = await fetchExport(/导出为 Excel/);
    expect(xlsx.name).toMatch(/^操作日志-\d{12}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(xlsx.target);
    const rows: string[][] = [];
    book.getWorksheet('操作日志')!.eachRow((r) => rows.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
    expect(rows[0]).toEqual([...ACTION_LOG_EXPORT_COLUMNS]);
    expect(rows.slice(1).map((r) => [r[1], r[5]])).toEqual([
      [AUDITEE.username, '重命名'],
      [AUDITEE.username, '新建文件夹'],
      [AUDITEE.username, '同意用户协议'],
      [AUDITEE.username, '账号密码登录'],
    ]);
    expect(rows[1]![7]).toBe(folder);
    // The department the user was in when acting, by name (the page's filter is that department now).
    expect(rows.slice(1).map((r) => r[4])).toEqual([departmentName, departmentName, departmentName, departmentName]);

    const csv = await fetchExport(/导出为 CSV/);
    const lines = readFileSync(csv.target, 'utf8').replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe(ACTION_LOG_EXPORT_COLUMNS.join(','));
    expect(lines.slice(1).map((l) => l.split(',')[5])).toEqual(['重命名', '新建文件夹', '同意用户协议', '账号密码登录']);
  });

  it('下载校验点 saves a signed checkpoint of the chain head, to keep off the server', async () => {
    const page = admin.page;
    const download = page.waitForEvent('download');
    await page.getByTestId('action-log-checkpoint').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^操作日志校验点-第\d+条\.json$/);
    const target = path.join(admin.workDir, file.suggestedFilename());
    await file.saveAs(target);
    const checkpoint = JSON.parse(readFileSync(target, 'utf8')) as ActionLogCheckpoint;
    expect(checkpoint).toMatchObject({ format: 'drive-audit-checkpoint', version: 1 });
    expect(checkpoint.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(file.suggestedFilename()).toBe(`操作日志校验点-第${checkpoint.seq}条.json`);
    await page.getByText(`已下载校验点（第 ${checkpoint.seq} 条）`).waitFor();
  });
});
