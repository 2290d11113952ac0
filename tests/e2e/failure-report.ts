/**
 * When an e2e test fails, print what each open page showed at that moment: its address, the layers
 * on top (dialogs, drawers, menus, toasts) and the start of its visible text, and keep a screenshot;
 * then the browser's last console warnings, errors and uncaught exceptions.
 * A step that fails only in CI's full run can then be read from the log instead of guessed at.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeEach } from 'vitest';
import { openBrowsers, recentConsole } from './browser';

const SHOT_DIR = path.join(tmpdir(), 'drive-e2e-failures');
const TEXT_CHARS = 1200;

/** Open layers, by what a user would call them, with their visible text. */
const LAYERS = {
  dialog: '.ant-modal-wrap:not([style*="display: none"]) .ant-modal',
  drawer: '.ant-drawer-open .ant-drawer-content',
  menu: '.ant-dropdown:not(.ant-dropdown-hidden)',
  popover: '.ant-popover:not(.ant-popover-hidden)',
  toast: '.ant-message-notice, .ant-notification-notice',
} as const;

async function describePage(page: Page, label: string): Promise<string> {
  const lines = [`--- ${label}: ${page.url()}`];
  try {
    const seen = await page.evaluate(
      ({ layers, chars }) => {
        const text = (el: Element) => ((el as HTMLElement).innerText ?? '').replace(/\s+/g, ' ').trim();
        const open = Object.entries(layers).flatMap(([kind, selector]) =>
          [...document.querySelectorAll(selector)].map((el) => `${kind}: ${text(el).slice(0, 200)}`),
        );
        const focused = document.activeElement;
        const focus = focused ? `${focused.tagName.toLowerCase()}${focused.getAttribute('data-testid') ? `[${focused.getAttribute('data-testid')}]` : ''}` : 'none';
        return { open, focus, body: text(document.body).slice(0, chars) };
      },
      { layers: LAYERS, chars: TEXT_CHARS },
    );
    lines.push(...seen.open.map((l) => `  ${l}`), `  focus: ${seen.focus}`, `  text: ${seen.body}`);
    mkdirSync(SHOT_DIR, { recursive: true });
    const shot = path.join(SHOT_DIR, `${Date.now()}-${label.replace(/[^\w-]+/g, '_')}.png`);
    await page.screenshot({ path: shot, timeout: 5000 });
    lines.push(`  screenshot: ${shot}`);
  } catch (e) {
    lines.push(`  (could not read the page: ${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
  }
  return lines.join('\n');
}

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(async () => {
    const reports: string[] = [];
    let n = 0;
    for (const browser of openBrowsers) {
      for (const context of browser.contexts()) {
        for (const page of context.pages()) reports.push(await describePage(page, `page ${++n}`));
      }
      const lines = recentConsole.get(browser) ?? [];
      if (lines.length > 0) reports.push(`--- the browser's last warnings and errors:\n  ${lines.join('\n  ')}`);
    }
    console.error(`What the open pages showed when "${task.name}" failed:\n${reports.join('\n') || '(no page open)'}`);
  });
});
