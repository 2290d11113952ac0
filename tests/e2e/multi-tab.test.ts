/**
 * One engine per origin: two tabs of one browser profile elect exactly one leader (Web Lock); an
 * upload started in the follower tab is carried out by the leader and both tabs see it done; closing
 * the leader mid-upload hands the engine to the other tab, which finishes the upload by itself.
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, downloadUrl } from '../../common/api/paths';
import { baseUrl, chunkIndexOf, closeBrowserSession, loginAsAdmin, openBrowserSession, openTransferPanel, revealFileRow, transferItems, transferRoleText, waitForRole } from './browser';

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('two tabs, one engine', () => {
  let browser: Browser;
  let context: BrowserContext;
  let tabA: Page;
  let tabB: Page;
  let workDir: string;

  beforeAll(async () => {
    ({ browser, context, page: tabA, workDir } = await openBrowserSession('tabs'));
  });

  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('exactly one tab runs the engine', async () => {
    await loginAsAdmin(tabA);
    tabB = await context.newPage();
    await tabB.goto(baseUrl() + '/main/file/personal');
    await tabB.getByTestId('file-table').waitFor();
    const roles = [await waitForRole(tabA), await waitForRole(tabB)];
    expect(roles.sort()).toEqual(['follower', 'leader']);
    expect(roles.filter((r) => r === 'leader')).toHaveLength(1);
    // The first tab got the lock first.
    expect(await tabA.getByTestId('transfer-role').getAttribute('data-role')).toBe('leader');
    expect(await transferRoleText(tabB)).toContain('由其他标签页传输');
  });

  it('an upload started in the follower tab is done by the leader and shown done in both tabs', async () => {
    const name = `from-follower-${Date.now()}.bin`;
    const bytes = randomBytes(5 * 1024 * 1024 + 77);
    writeFileSync(path.join(workDir, name), bytes);

    await tabB.getByTestId('upload-input').setInputFiles(path.join(workDir, name));
    await openTransferPanel(tabA);
    await openTransferPanel(tabB);
    await transferItems(tabA, name, 'done').waitFor({ timeout: 60_000 });
    await transferItems(tabB, name, 'done').waitFor({ timeout: 10_000 });
    await revealFileRow(tabA, name);
    await revealFileRow(tabB, name);
  });

  it('closing the leader mid-upload hands over to the other tab, which finishes the upload', async () => {
    const name = `handover-${Date.now()}.bin`;
    const size = 48 * 1024 * 1024 + 5;
    const bytes = randomBytes(size);
    writeFileSync(path.join(workDir, name), bytes);

    let stored = 0;
    context.on('requestfinished', (r) => {
      if (chunkIndexOf(r.url()) !== null) stored++;
    });
    await context.route(`**${API.chunkUpload}**`, async (route) => {
      await new Promise((r) => setTimeout(r, 300));
      await route.continue().catch(() => undefined);
    });

    await tabB.getByTestId('upload-input').setInputFiles(path.join(workDir, name));
    await transferItems(tabB, name, 'uploading').waitFor({ timeout: 60_000 });
    await expect.poll(() => stored, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(2);
    await tabA.close();

    await tabB.locator('[data-testid="transfer-role"][data-role="leader"]').waitFor({ timeout: 15_000 });
    await transferItems(tabB, name, 'done').waitFor({ timeout: 110_000 });
    await context.unroute(`**${API.chunkUpload}**`);

    const row = await revealFileRow(tabB, name);
    const id = (await row.getAttribute('data-row-key')) as string;
    const got = await (await context.request.get(baseUrl() + downloadUrl(id))).body();
    expect(got.length).toBe(size);
    expect(sha256(got)).toBe(sha256(bytes));
  });
});
