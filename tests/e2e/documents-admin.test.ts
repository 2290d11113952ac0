/**
 * 系统配置 → 文档预览 in a real browser against `npm start` (issue 41): two documents are stored (a text
 * named .docx, which LibreOffice converts, and a broken .docx it cannot load); the card shows the counts,
 * the failure with the file's name and reason, and 重试 queues it again (on the action log).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { CreateTxtResponse } from '../../common/api/types';
import { loggedInJar } from '../support/drive-server';
import { baseUrl, closeBrowserSession, loginAsAdmin, openBrowserSession } from './browser';
import { shot } from './shots';

const HEADERS = { 'Content-Type': 'application/json', 'X-Client-Platform': 'web', 'X-Network-Env': 'internal' };

describe('文档预览 card', () => {
  let browser: Browser | undefined;
  let page: Page;
  let workDir: string;

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('documents-admin', { viewport: { width: 1440, height: 1000 } }));
    const admin = await loggedInJar(baseUrl(), inject('dataDir'));
    const stamp = Date.now().toString(36);
    for (const [name, content] of [
      [`会议纪要-${stamp}.docx`, '会议纪要：第三季度预算讨论'],
      [`损坏的文档-${stamp}.docx`, 'PK\u0003\u0004 this is not a zip at all'],
    ]) {
      const res = await admin.fetch(baseUrl() + API.createTxt, { method: 'POST', headers: HEADERS, body: JSON.stringify({ parentId: null, category: 1, name, content }) });
      expect(((await res.json()) as { data: CreateTxtResponse }).data.status).toBe('created');
    }
    await loginAsAdmin(page);
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('shows counts and the failure with its reason; 重试 queues it again', async () => {
    await page.goto(`${baseUrl()}/main/system/systemConfig`);
    const card = page.getByTestId('documents-card');
    await card.waitFor();
    await card.scrollIntoViewIfNeeded();
    // The card asks again every 3 s while documents wait or convert.
    const failure = card.getByTestId('documents-failures').getByText(/^损坏的文档-/);
    await failure.waitFor({ timeout: 90_000 });
    await expect.poll(async () => card.getByTestId('documents-done').textContent(), { timeout: 90_000 }).toMatch(/已完成\s*[1-9]/);
    expect(await card.getByTestId('documents-failed').textContent()).toMatch(/失败\s*[1-9]/);
    expect(await card.getByTestId('documents-failures').textContent()).toContain('LibreOffice 未能生成 PDF');
    expect(await card.getByTestId('documents-missing').count()).toBe(0);
    await shot(page, 'documents', 'admin-card-failure');
    await card.getByTestId('documents-failures').getByRole('button', { name: '重试' }).click();
    await page.getByText('已重新排队 1 个文件').waitFor();
    await shot(page, 'documents', 'admin-card-retried');
  });
});
