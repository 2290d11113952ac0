/**
 * 系统配置 → 文档预览 in a real browser against `npm start` (issue 41): two .docx files are stored (a
 * real one, which LibreOffice converts, and a broken one whose bytes are no Word package, which is
 * never handed to LibreOffice); the card shows the counts, the failure with the file's name and
 * reason, and 重试 in its row queues it again (on the action log). The tenant is the shared e2e
 * server's admin tenant: other files' failures may be listed too, so this test works on its own row.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { CreateTxtResponse } from '../../common/api/types';
import { docx } from '../support/document-kit';
import { loggedInJar } from '../support/drive-server';
import { baseUrl, closeBrowserSession, loginAsAdmin, openBrowserSession, transferItems } from './browser';
import { shot } from './shots';

const HEADERS = { 'Content-Type': 'application/json', 'X-Client-Platform': 'web', 'X-Network-Env': 'internal' };
const STAMP = Date.now().toString(36);
const GOOD = `会议纪要-${STAMP}.docx`;
const BROKEN = `损坏的文档-${STAMP}.docx`;

describe('文档预览 card', () => {
  let browser: Browser | undefined;
  let page: Page;
  let workDir: string;

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('documents-admin', { viewport: { width: 1440, height: 1000 } }));
    const admin = await loggedInJar(baseUrl(), inject('dataDir'));
    const res = await admin.fetch(baseUrl() + API.createTxt, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ parentId: null, category: 1, name: BROKEN, content: 'PK\u0003\u0004 this is not a zip at all' }),
    });
    expect(((await res.json()) as { data: CreateTxtResponse }).data.status).toBe('created');
    await loginAsAdmin(page);
    writeFileSync(path.join(workDir, GOOD), await docx(['会议纪要：第三季度预算讨论']));
    await page.getByTestId('upload-input').setInputFiles(path.join(workDir, GOOD));
    await transferItems(page, GOOD, 'done').waitFor({ timeout: 60_000 });
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
    const failure = card.getByTestId('documents-failures').getByRole('row').filter({ hasText: BROKEN });
    await failure.waitFor({ timeout: 90_000 });
    await expect.poll(async () => card.getByTestId('documents-done').textContent(), { timeout: 90_000 }).toMatch(/已完成\s*[1-9]/);
    expect(await card.getByTestId('documents-failed').textContent()).toMatch(/失败\s*[1-9]/);
    expect(await failure.textContent()).toContain('文件内容不是有效的 Word 文档（.docx 应为 Office Open XML 压缩包）');
    expect(await card.getByTestId('documents-missing').count()).toBe(0);
    await shot(page, 'documents', 'admin-card-failure');
    await failure.getByRole('button', { name: '重试' }).click();
    await page.getByText('已重新排队 1 个文件').waitFor();
    await shot(page, 'documents', 'admin-card-retried');
  });
});
