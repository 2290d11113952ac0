/**
 * What the issue-44 comfort tests of items 7–9 (offline honesty, empty states, developer text) share:
 * a member of the admin's tenant made for one test file, same-origin API calls from a page, and the
 * screenshots the lead looks at (/work/wt/shots/honesty when that folder exists, else the work dir).
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { addUser, withDb, type TestServer } from '../server/helpers';

/** Adds a member (password gate lifted) to the admin's tenant; returns its id. `mustChange`: the forced first change stays on. */
export async function addMember(username: string, password: string, mustChange = false): Promise<string> {
  const server = { dataDir: inject('dataDir') } as TestServer;
  const tenantId = await withDb(server, (db) => (db.prepare("select tenant_id from users where username = 'admin'").get() as { tenant_id: string }).tenant_id);
  const id = await addUser(server, tenantId, username, password);
  if (mustChange) await withDb(server, (db) => db.prepare('update users set must_change_password = 1 where id = ?').run(id));
  return id;
}

/** A same-origin call from the page (its session cookie and client headers); throws on an error answer. */
export async function apiFromPage<T>(page: Page, apiPath: string, body?: unknown, method: 'GET' | 'POST' = 'POST'): Promise<T> {
  const answer = await page.evaluate(
    async ({ apiPath, body, method }) => {
      const res = await fetch(apiPath, {
        method,
        credentials: 'include',
        headers: { 'Content-Type': 'application/json', 'X-Client-Platform': 'web', 'X-Network-Env': 'internal' },
        body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
      });
      return { status: res.status, json: (await res.json()) as { data?: unknown } };
    },
    { apiPath, body, method },
  );
  if (answer.status !== 200) throw new Error(`${apiPath}: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json.data as T;
}

const SHOTS_DIR = '/work/wt/shots/honesty';

/** Saves a screenshot as `<item>-<phase>-<what>.png` (phase: SHOT_PHASE, 'before' on the unfixed code, else 'after'). */
export async function shot(page: Page, item: string, what: string, workDir: string): Promise<void> {
  const dir = existsSync(path.dirname(SHOTS_DIR)) ? SHOTS_DIR : workDir;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${item}-${process.env.SHOT_PHASE ?? 'after'}-${what}.png`) });
}

/** Waits until `check` holds, polling every 200 ms. */
export async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
