/**
 * Helpers of the admin comfort tests (issue 44 items 5 and 10): API calls in the admin's session, a
 * small organisation made through the API, and before/after screenshots for the note.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { API } from '../../common/api/paths';
import { encryptPassword } from '../../common/crypto/password-cipher';

/** POSTs JSON in the page's session and answers `data` (throws with the server's answer otherwise). */
export async function call<T>(page: Page, url: string, body: unknown): Promise<T> {
  const res = await page.evaluate(
    async ({ url, body }) => {
      const r = await fetch(url, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: r.status, json: (await r.json()) as { data: unknown } };
    },
    { url, body },
  );
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.data as T;
}

export const PASSWORD = 'Admin#2024c';

/** Adds members (nickname 昵称<account>) to a department; they need not change the initial password. */
export async function addPeople(page: Page, departmentId: string, accounts: string[], options: { locked?: string[] } = {}): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const account of accounts) {
    const row = await call<{ id: string }>(page, API.userAdd, { website: account, nickName: `昵称${account}`, phone: '', departmentId, role: 'member', quota: 1024 ** 3, outerLogin: false, password: encryptPassword(PASSWORD) });
    ids[account] = row.id;
  }
  const db = new SQLite(path.join(inject('dataDir'), 'drive.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const clear = db.prepare('update users set must_change_password = 0 where username = ?');
    for (const account of accounts) clear.run(account);
    const lock = db.prepare('update users set locked = 1 where username = ?');
    for (const account of options.locked ?? []) lock.run(account);
  } finally {
    db.close();
  }
  return ids;
}

/**
 * Saves a screenshot when COMFORT_SHOTS names a folder: `<folder>/<item>-<COMFORT_SHOTS_TAG>-<what>.png`
 * (tag `before` on the old code, `after` on the new), for the before/after pictures of the issue.
 */
export async function shot(page: Page, item: string, what: string): Promise<void> {
  const folder = process.env.COMFORT_SHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: path.join(folder, `${item}-${process.env.COMFORT_SHOTS_TAG ?? 'after'}-${what}.png`) });
}

/** antd's search box puts the test id on the input or on its wrapper, depending on the version. */
export const searchBox = (page: Page, id: string) => page.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first();
