/**
 * The app works under its own Content-Security-Policy (server/http/security-headers.ts): logging in,
 * the file list, the transfer engine's workers hashing and uploading a file, and a preview — with no
 * violation reported and no script error. And no other site may frame it.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, closeBrowserSession, loginAsAdmin, openBrowserSession, revealFileRow } from './browser';

describe('the app under its Content-Security-Policy', () => {
  let browser: Browser;
  let page: Page;
  let workDir: string;
  const violations: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('csp'));
    await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as unknown as { reportViolation(v: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
      });
    });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content.Security.Policy|Refused to/i.test(m.text())) errors.push(m.text());
    });
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('sends the policy with the page', async () => {
    const res = await page.goto(baseUrl() + '/login');
    const headers = res!.headers();
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
  });

  it('logs in, lists files, uploads through the worker engine and previews a text file without a violation', async () => {
    await loginAsAdmin(page);
    const name = `csp-${Date.now()}.txt`;
    const source = path.join(workDir, name);
    writeFileSync(source, 'content under the policy');
    await page.getByTestId('upload-input').setInputFiles(source);
    await page.getByTestId('transfer-item').filter({ hasText: name }).and(page.locator('[data-state="done"]')).waitFor({ timeout: 60_000 });
    await (await revealFileRow(page, name)).getByTestId('file-name').click();
    await page.getByText('content under the policy').waitFor();
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('cannot be framed by another page', async () => {
    const framing = await browser.newPage();
    const blocked: string[] = [];
    framing.on('console', (m) => blocked.push(m.text()));
    await framing.setContent(`<iframe id="f" src="${baseUrl()}/login"></iframe>`);
    await framing.waitForTimeout(1500);
    const frame = framing.frames().find((f) => f.url().includes('/login'));
    // Chromium refuses to render it: the frame stays empty (or never commits the document).
    const rendered = frame ? await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '') : '';
    expect(rendered).toBe('');
    await framing.close();
  });
});
