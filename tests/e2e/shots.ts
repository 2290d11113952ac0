/**
 * Screenshots of a journey for a reviewer (issue 44: before/after pictures), taken only when asked:
 * E2E_SHOTS_DIR=<folder> saves `<item>-<phase>-<name>.png` there, the phase from E2E_SHOTS_PHASE
 * ('after' by default; 'before' when the same file runs against the code before a fix).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

export async function shot(page: Page, item: string, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${item}-${process.env.E2E_SHOTS_PHASE ?? 'after'}-${name}.png`), timeout: 5000 }).catch(() => undefined);
}
