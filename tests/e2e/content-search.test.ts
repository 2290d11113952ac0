/**
 * Search inside files in Chromium: a document whose text holds a word is found by 统一搜索's 内容 group,
 * its snippet with the word marked and the page it is on; a click opens its preview (at that page with
 * the word looked for, once the document viewer takes `{ page, term }`). The text is put in the store
 * as the renditions pipeline puts it (test setup: the pipeline has its own tests), through the
 * server's own repository code path (charTokens for the short-keyword index).
 */
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { FileEntry } from '../../common/api/types';
import { charTokens } from '../../server/db/dialect';
import { closeBrowserSession, loginAsAdmin, openBrowserSession } from './browser';
import { shot } from './shots';

const RUN = Date.now().toString(36).slice(-6);
const NAME = `季度纪要-${RUN}.txt`;
const WORD = `鲲鹏${RUN}`;

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

describe('统一搜索 finds a word inside a document', () => {
  let browser: Browser;
  let page: Page;
  let workDir: string;

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('content-search'));
    await loginAsAdmin(page);
    await page.waitForURL('**/main/file/personal**');
    const file = await call<FileEntry>(page, API.createTxt, { parentId: null, category: 1, name: NAME, content: `第一页：例行事项。\n第二页：本季度的${WORD}计划如下。` });
    const text = `第一页：例行事项。\f第二页：本季度的${WORD}计划如下。`;
    const db = new SQLite(path.join(inject('dataDir'), 'drive.sqlite'));
    db.pragma('busy_timeout = 5000');
    const blob = db.prepare('select blob_id, tenant_id from files where id = ?').get(file.id) as { blob_id: string; tenant_id: string };
    db.prepare('delete from blob_texts where blob_id = ?').run(blob.blob_id);
    const doc = db
      .prepare('insert into blob_texts (blob_id, tenant_id, body, page_starts, chars, truncated, created_at, scanned_hash) values (?, ?, ?, ?, ?, 0, ?, null)')
      .run(blob.blob_id, blob.tenant_id, text, JSON.stringify([0, text.indexOf('\f') + 1]), text.length, Date.now()).lastInsertRowid;
    db.prepare('insert into blob_text_chars (rowid, body) values (?, ?)').run(doc, charTokens(text));
    db.close();
  });
  afterAll(async () => closeBrowserSession(browser, workDir));

  it('shows the hit under 内容 with the word marked and its page, and opens the preview', async () => {
    await page.goto(`/main/file/unifiedSearch?keyword=${encodeURIComponent(WORD)}`);
    await page.getByTestId('search-group').getByText('内容').click();
    const hit = page.getByTestId('content-hit').filter({ hasText: NAME });
    await hit.waitFor();
    expect(await hit.locator('mark').allTextContents()).toEqual([WORD]);
    expect(await hit.getByTestId('content-hit-page').textContent()).toBe('第 2 页');
    expect(page.url()).toContain('in=content');
    await shot(page, 'content-search', 'hits');
    await hit.click();
    await page.getByRole('dialog').getByText(WORD).first().waitFor();
    await shot(page, 'content-search', 'preview');
  });
});
