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
import { ACTION_LOG_EXPORT_COLUMNS } from '../../common/api/action-log';
import { API } from '../../common/api/paths';
import { hashPassword } from '../../server/services/password-hash';
import SQLite from 'better-sqlite3';
import { baseUrl, closeBrowserSession, openBrowserSession, submitLogin, type BrowserSession } from './browser';

const AUDITEE = { username: `auditee${randomBytes(3).toString('hex')}`, password: 'Audit@2024', nickName: '审计对象' };

/** The user this test owns, added to the admin's tenant straight in the database (password gate lifted). */
async function addAuditee(): Promise<void> {
  const hash = await hashPassword(AUDITEE.password);
  // There is no user-creation API on this branch yet: a writable connection of the test's own.
  const db = new SQLite(path.join(inject('dataDir'), 'drive.sqlite'));
  db.pragma('busy_timeout = 5000');
  try {
    const tenant = (db.prepare("select tenant_id from users where username = 'admin'").get() as { tenant_id: string }).tenant_id;
    const now = Date.now();
    db.prepare(
      `insert into users (id, tenant_id, username, nick_name, phone, avatar, role, password_hash, must_change_password,
         password_changed_at, quota, used_size, created_at, outer_login) values (?, ?, ?, ?, '', '', 'member', ?, 0, ?, ?, 0, ?, 1)`,
    ).run(randomBytes(16).toString('base64url'), tenant, AUDITEE.username, AUDITEE.nickName, hash, now, 1024 ** 3, now);
  } finally {
    db.close();
  }
}

/** A same-origin JSON POST from the page (its session cookie and client headers). */
function postFromPage(page: Page, apiPath: string, body: unknown): Promise<{ status: number; body: { data?: { id?: string } } }> {
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

  beforeAll(async () => {
    await addAuditee();
    user = await openBrowserSession('audit-user');
    admin = await openBrowserSession('audit-admin', { acceptDownloads: true });
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
    await submitLogin(page, 'admin', 'Admin@2024');
    await page.waitForURL('**/main/file/personal**');
    await page.goto(`${baseUrl()}/main/system/actionLog`);
    await page.getByTestId('action-log-page').waitFor();
    await rowsOnPage(page).first().waitFor();

    await page.getByTestId('action-log-operator').click();
    await page.keyboard.type(AUDITEE.username);
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
    await page.keyboard.press('Escape');
  });

  it('exports the filtered set as .xlsx and .csv: the same four rows, headers in Chinese', async () => {
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

    const csv = await fetchExport(/导出为 CSV/);
    const lines = readFileSync(csv.target, 'utf8').replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe(ACTION_LOG_EXPORT_COLUMNS.join(','));
    expect(lines.slice(1).map((l) => l.split(',')[5])).toEqual(['重命名', '新建文件夹', '同意用户协议', '账号密码登录']);
  });
});
