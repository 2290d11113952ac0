/**
 * Search inside files in Chromium, through the whole pipeline: a two-page PDF is uploaded through the
 * page, the renditions pipeline extracts its text (pdftotext, page breaks kept) into the text store,
 * and 统一搜索's 内容 group finds the word on its second page — the snippet with the word marked, 第 2 页
 * — and a click opens the document's preview (at that page with the word looked for, where the
 * document viewer takes `{ page, term }`).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { SearchResponse } from '../../common/api/types';
import { pagePerLinePdf } from '../support/text-pdf';
import { baseUrl, closeBrowserSession, loginAsAdmin, openBrowserSession, transferItems } from './browser';
import { shot } from './shots';

const RUN = Date.now().toString(36).slice(-6);
const NAME = `quarterly-${RUN}.pdf`;
const WORD = `zephyrine${RUN}`;

/** The unified search through the page's own session. */
async function contentHitsOf(page: Page, keyword: string): Promise<string[]> {
  return page.evaluate(
    async ({ url }) => {
      const r = await fetch(url, { credentials: 'include' });
      const body = (await r.json()) as { data: SearchResponse };
      return (body.data.content?.items ?? []).map((i) => i.name);
    },
    { url: `${API.unifiedSearch}?keyword=${encodeURIComponent(keyword)}` },
  );
}

describe('统一搜索 finds a word inside a PDF', () => {
  let browser: Browser;
  let page: Page;
  let workDir: string;

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('content-search'));
    await loginAsAdmin(page);
    await page.waitForURL('**/main/file/personal**');
    const file = path.join(workDir, NAME);
    writeFileSync(file, pagePerLinePdf(['first page: routine matters', `second page holds the ${WORD} plan`]));
    await page.getByTestId('upload-input').setInputFiles([file]);
    await transferItems(page, NAME, 'done').waitFor({ timeout: 30_000 });
    // The pipeline extracts the text in the background: found once it is stored.
    for (let i = 0; i < 100 && !(await contentHitsOf(page, WORD)).includes(NAME); i++) await page.waitForTimeout(200);
  });
  afterAll(async () => closeBrowserSession(browser, workDir));

  it('shows the hit under 内容 with the word marked and its page, and opens the preview', async () => {
    await page.goto(`${baseUrl()}/main/file/unifiedSearch?keyword=${encodeURIComponent(WORD)}`);
    await page.getByTestId('search-group').getByText('内容').click();
    const hit = page.getByTestId('content-hit').filter({ hasText: NAME });
    await hit.waitFor({ timeout: 10_000 });
    expect(await hit.locator('mark').allTextContents()).toEqual([WORD]);
    expect(await hit.getByTestId('content-hit-page').textContent()).toBe('第 2 页');
    expect(page.url()).toContain('in=content');
    await shot(page, 'content-search', 'hits');
    await hit.click();
    await page.getByRole('dialog').waitFor();
    await page.waitForTimeout(1500);
    await shot(page, 'content-search', 'preview');
  });
});
