/**
 * Issue 18: transfer states tell the truth within a second, in Chromium. 暂停 stops the bytes and
 * shows 已暂停 at once, 继续 sends again within a second, 100 % only ever shows as 已完成, and an item
 * can always be removed. (Progress across a reload is not here yet: a reload after pause and resume
 * once left the item unfinished for 90 s, 1 run in ~10; see the note.)
 *
 * Chunk requests are slowed down (context.route) so the upload takes several seconds.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { UploadConfig } from '../../common/transfer/protocol';
import { baseUrl, chunkIndexOf, closeBrowserSession, loginAsAdmin, openBrowserSession, serverChunkBytes, throttleUploads, transferItems } from './browser';
import { shot } from './shots';

const CHUNK_DELAY_MS = 600;
/** What the user may wait for a state to show, and a little for the test's own polling. */
const PROMPT_MS = 1_000;
/** Upload rate while a whole-file request should still be under way when the test acts (~8 MB/s). */
const UPLOAD_BYTES_PER_SECOND = 8 * 1024 * 1024;

interface Sample {
  t: number;
  state: string;
  percent: number;
}

/**
 * Every 50 ms, the row's state and percentage, and the time of each click on a row's command, kept
 * in the page (re-installed after a reload). Times are taken from the click, not from Playwright's
 * click call, which first waits for the row to hold still (it re-renders with every progress update).
 */
async function sampleRow(page: Page, name: string): Promise<void> {
  await page.evaluate((n) => {
    const w = window as unknown as { __samples: Sample[]; __clicks: Record<string, number> };
    w.__samples = [];
    w.__clicks = {};
    document.addEventListener(
      'click',
      (e) => {
        const id = (e.target as Element).closest('[data-testid^="transfer-"]')?.getAttribute('data-testid');
        if (id) w.__clicks[id] = Date.now();
      },
      true,
    );
    setInterval(() => {
      for (const row of document.querySelectorAll('[data-testid="transfer-item"]')) {
        if (row.querySelector('[data-testid="transfer-name"]')?.textContent !== n) continue;
        const bar = row.querySelector('[role="progressbar"]');
        w.__samples.push({ t: Date.now(), state: row.getAttribute('data-state') ?? '', percent: Number(bar?.getAttribute('aria-valuenow') ?? -1) });
      }
    }, 50);
  }, name);
}

const samples = (page: Page): Promise<Sample[]> => page.evaluate(() => (window as unknown as { __samples: Sample[] }).__samples);
const clickedAt = (page: Page, testId: string): Promise<number> => page.evaluate((id) => (window as unknown as { __clicks: Record<string, number> }).__clicks[id] ?? NaN, testId);

describe('transfer states', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let workDir: string;

  beforeAll(async () => {
    ({ browser, context, page, workDir } = await openBrowserSession('states'));
    await loginAsAdmin(page);
  });

  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('pause stops the bytes and shows 已暂停 within a second, resume sends within a second, 100 % is 已完成', async () => {
    const config = (await (await context.request.get(baseUrl() + API.uploadConfig)).json()) as { data: UploadConfig };
    const chunkSize = config.data.chunkSize;
    const size = 6 * chunkSize + 1234;
    const name = `states-${Date.now()}.bin`;
    writeFileSync(path.join(workDir, name), randomBytes(size));

    let issued = 0;
    const issuedAt: number[] = [];
    const stored = new Set<number>();

    context.on('request', (r) => {
      if (chunkIndexOf(r.url()) === null || r.method() !== 'POST') return;
      issued++;
      issuedAt.push(Date.now());
    });
    context.on('requestfinished', (r) => {
      const index = chunkIndexOf(r.url());
      if (index !== null) void r.response().then((res) => res?.ok() && stored.add(index));
    });
    const slow = async (route: Route): Promise<void> => {
      await new Promise((r) => setTimeout(r, CHUNK_DELAY_MS));
      await route.continue().catch(() => undefined); // aborted meanwhile (pause, reload)
    };
    await context.route(`**${API.chunkUpload}**`, slow);

    await sampleRow(page, name);
    // A new file goes up as one whole-file request: slow its bytes, so the pause lands mid-upload.
    await throttleUploads(page, UPLOAD_BYTES_PER_SECOND);
    const receivedBefore = await serverChunkBytes(context);
    await page.getByTestId('upload-input').setInputFiles(path.join(workDir, name));
    const row = transferItems(page, name);
    await transferItems(page, name, 'uploading').waitFor({ timeout: 60_000 });
    await expect.poll(async () => stored.size > 0 || (await serverChunkBytes(context)) - receivedBefore >= chunkSize, { timeout: 30_000, interval: 50 }).toBe(true);

    // 暂停: 已暂停 within a second, and no chunk request goes out any more.
    await row.getByTestId('transfer-pause').click();
    await transferItems(page, name, 'paused').waitFor({ timeout: 10_000 });
    await expect.poll(async () => (await samples(page)).some((x) => x.state === 'paused'), { interval: 20 }).toBe(true); // the sampler's next tick
    const pausedAt = (await samples(page)).find((x) => x.state === 'paused')!.t;
    const pausedAfterMs = pausedAt - (await clickedAt(page, 'transfer-pause'));
    expect(await row.getByTestId('transfer-state').textContent()).toBe('已暂停');
    // Its bar jumps, never slides, and nothing else in the panel fades, even where the rest of the app
    // animates (the toolbar's buttons): a width transition restarted by every 1 % of a fast upload never
    // ends, and the buttons turning on or off as an upload starts or ends made a dozen frames of the whole
    // page each time, on the CPU the upload needs (issue 43).
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await expect.poll(() => page.getByTestId('file-toolbar').locator('.ant-btn').first().evaluate((el) => getComputedStyle(el).transitionDuration)).not.toBe('0s');
    expect(await row.locator('.ant-progress-track').evaluate((el) => getComputedStyle(el).transitionDuration)).toBe('0s');
    expect(await row.getByTestId('transfer-resume').evaluate((el) => getComputedStyle(el).transitionDuration)).toBe('0s');
    expect(await page.getByTestId('transfer-pause-all').evaluate((el) => getComputedStyle(el).transitionDuration)).toBe('0s');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const issuedAtPause = issued;
    await page.waitForTimeout(1_500);
    expect(issued).toBe(issuedAtPause);
    // Unslowed for the resume: requests held in the route's queue would time the route, not the engine.
    await context.unroute(`**${API.chunkUpload}**`);
    await throttleUploads(page, null);

    // 继续: a chunk request within a second.
    await row.getByTestId('transfer-resume').click();
    await expect.poll(() => issued, { timeout: 15_000, interval: 20 }).toBeGreaterThan(issuedAtPause);
    const resumeClick = await clickedAt(page, 'transfer-resume');
    const resumedAfterMs = issuedAt.find((t) => t >= resumeClick)! - resumeClick;

    // Slowed again until it ends: 100 % shows only with 已完成.
    await context.route(`**${API.chunkUpload}**`, slow);
    await transferItems(page, name, 'done').waitFor({ timeout: 90_000 });
    await page.waitForTimeout(200);
    const seen = await samples(page);
    await context.unroute(`**${API.chunkUpload}**`);

    console.info(`[transfer-states] paused after ${pausedAfterMs} ms, resumed after ${resumedAfterMs} ms`);
    expect(pausedAfterMs).toBeLessThanOrEqual(PROMPT_MS);
    expect(resumedAfterMs).toBeLessThanOrEqual(PROMPT_MS);
    // 100 % is shown only as 已完成 (a sample or two may catch the frame between, not a lasting 100 %).
    const early100 = seen.filter((x) => x.percent === 100 && x.state !== 'done');
    expect(early100.length, JSON.stringify(early100.slice(0, 5))).toBeLessThanOrEqual(2);
  });

  it('an item can always be removed: cancel, then 清除已完成', async () => {
    const name = `removable-${Date.now()}.bin`;
    writeFileSync(path.join(workDir, name), randomBytes(3 * 1024 * 1024));
    await context.route(`**${API.chunkUpload}**`, () => undefined); // never answered: the item stays under way
    await page.getByTestId('upload-input').setInputFiles(path.join(workDir, name));
    const row = transferItems(page, name);
    await row.getByTestId('transfer-cancel').click({ timeout: 60_000 });
    await transferItems(page, name, 'cancelled').waitFor({ timeout: PROMPT_MS });
    await page.getByTestId('transfer-clear-finished').click();
    await expect.poll(() => row.count(), { timeout: 5_000 }).toBe(0);
    await context.unroute(`**${API.chunkUpload}**`);
  });

  it('清除已完成 clears what finished and keeps a failed upload; 清除失败（n） clears those, after asking (issue 44)', async () => {
    const done = `done-${Date.now()}.bin`;
    const failing = `refused-${Date.now()}.bin`;
    writeFileSync(path.join(workDir, done), randomBytes(64 * 1024));
    writeFileSync(path.join(workDir, failing), randomBytes(3 * 1024 * 1024));
    await page.getByTestId('upload-input').setInputFiles(path.join(workDir, done));
    await transferItems(page, done, 'done').waitFor({ timeout: 60_000 });
    // The server refuses its bytes for good (a 4xx): the item fails.
    await context.route(`**${API.chunkUpload}**`, (route: Route) => route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ errorCode: 'AUTH-1005', errorMessage: '没有权限' }) }));
    await page.getByTestId('upload-input').setInputFiles(path.join(workDir, failing));
    await transferItems(page, failing, 'failed').waitFor({ timeout: 60_000 });
    await context.unroute(`**${API.chunkUpload}**`);

    const finished = await page.locator('[data-testid="transfer-item"][data-state="done"], [data-testid="transfer-item"][data-state="cancelled"]').count();
    expect(await page.getByTestId('transfer-clear-finished').innerText()).toBe(`清除已完成（${finished}）`);
    const failed = await page.locator('[data-testid="transfer-item"][data-state="failed"]').count();
    expect(await page.getByTestId('transfer-clear-failed').innerText()).toBe(`清除失败（${failed}）`);
    await shot(page, 'B5', 'done-and-failed');

    await page.getByTestId('transfer-clear-finished').click();
    await expect.poll(() => transferItems(page, done).count(), { timeout: 5_000 }).toBe(0);
    expect(await transferItems(page, failing, 'failed').count()).toBe(1);
    expect(await page.getByTestId('transfer-clear-finished').isDisabled()).toBe(true);

    await page.getByTestId('transfer-clear-failed').click();
    await page.locator('.ant-modal-confirm-title', { hasText: `清除 ${failed} 项失败的上传？` }).waitFor();
    await shot(page, 'B5', 'clear-failed-asks');
    await page.getByRole('dialog').getByRole('button', { name: /清\s*除/ }).click();
    await expect.poll(() => transferItems(page, failing).count(), { timeout: 5_000 }).toBe(0);
    expect(await page.getByTestId('transfer-clear-failed').innerText()).toBe('清除失败');
    await shot(page, 'B5', 'cleared');
  });
});
