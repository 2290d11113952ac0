/**
 * Every label Chinese (issue 44): what the UI libraries write in English whatever antd's locale —
 * the number input's "Increase Value" / "Decrease Value", the dialog's "Close", the segmented
 * control's name — is searched for in the rendered pages (text, and the names screen readers and
 * tooltips use), on the pages that hold those components, with a dialog open.
 * The fix is vite.config.ts's chineseLibraryLabels.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, submitLogin } from './browser';
import { shot } from './shots';

/** antd's and its rc-components' English words (those a locale does not reach, and the usual ones). */
const ENGLISH = /\b(Increase Value|Decrease Value|Close|segmented control|No data|Search|Loading|Cancel|OK|Expand|Collapse|Previous Page|Next Page|Clear|Toggle|Go to|Today|Now|Select)\b/;

/** Each English phrase on the page, with where it is (an attribute or the text). */
async function englishOn(page: Page): Promise<string[]> {
  const found = await page.evaluate((source) => {
    const pattern = new RegExp(source);
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      if (el.closest('script, style, svg')) continue;
      for (const attr of ['aria-label', 'title', 'placeholder', 'alt', 'aria-roledescription']) {
        const v = el.getAttribute(attr);
        if (v && pattern.test(v)) out.push(`${el.tagName.toLowerCase()}[${attr}="${v}"]`);
      }
      for (const node of Array.from(el.childNodes)) if (node.nodeType === Node.TEXT_NODE && pattern.test(node.textContent ?? '')) out.push(`${el.tagName.toLowerCase()}: ${node.textContent}`);
    }
    return out;
  }, ENGLISH.source);
  return [...new Set(found)];
}

describe('every label Chinese (issue 44)', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await submitLogin(page, 'admin', 'Admin@2024');
    await page.waitForURL('**/main/file/personal**');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('系统配置 and 文件安全: the number inputs step 增加数值 / 减少数值', async () => {
    for (const [url, name] of [['/main/system/systemConfig', 'system-config'], ['/main/system/fileSecurity', 'file-security']] as const) {
      await page.goto(baseUrl() + url);
      const steps = page.locator('.ant-input-number-action');
      await steps.first().waitFor({ state: 'attached' });
      expect(await steps.evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('aria-label')))])).toEqual(['增加数值', '减少数值']);
      expect(await englishOn(page)).toEqual([]);
      await page.locator('.ant-input-number').first().hover();
      await shot(page, 'B4', name);
    }
  });

  it('文件消息 (a segmented control) and a dialog on 个人文件 say nothing in English', async () => {
    await page.goto(baseUrl() + '/main/notice/fileNotice');
    await page.getByTestId('message-category').waitFor();
    expect(await englishOn(page)).toEqual([]);
    await page.goto(baseUrl() + '/main/file/personal');
    await page.getByTestId('toolbar-mkdir').click();
    await page.getByTestId('mkdir-name-input').waitFor();
    expect(await page.locator('.ant-modal-close').getAttribute('aria-label')).toBe('关闭');
    expect(await englishOn(page)).toEqual([]);
    await page.keyboard.press('Escape');
  });
});
