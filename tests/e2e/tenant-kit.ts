/**
 * Setup the e2e walks share and are not about: calls in a page's session (the app's own headers),
 * a department and its people made through the API (the first-login password change lifted, some
 * locked), a person signed in in a context of their own, on a desktop or on a phone.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { inject } from 'vitest';
import { clientHeaders } from '../../common/api/client-env';
import { API } from '../../common/api/paths';
import { DEFAULT_SHARE_POLICY } from '../../common/api/sharing';
import { encryptPassword } from '../../common/crypto/password-cipher';
import { addUser, withDb, type TestServer } from '../server/helpers';
import { submitLogin } from './browser';

/** A phone as people hold one: 390×844 CSS px, touch, a phone's user agent (iOS Safari). */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  hasTouch: true,
  isMobile: true,
  deviceScaleFactor: 2,
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
};
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1440, height: 900 } };

/** A same-origin call from the page (its session cookie, the app's client headers), as it was answered. */
export async function callRaw<T>(page: Page, url: string, body?: unknown, method: 'GET' | 'POST' = 'POST'): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ url, body, method, headers }) => {
      const r = await fetch(url, { method, credentials: 'include', headers: { 'content-type': 'application/json', ...headers }, body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined });
      return { status: r.status, body: (await r.json()) as T };
    },
    { url, body, method, headers: clientHeaders('web', 'internal') },
  );
}

/** A same-origin call from the page; answers `data`, throws with the server's answer on anything but 200. */
export async function call<T>(page: Page, url: string, body?: unknown, method: 'GET' | 'POST' = 'POST'): Promise<T> {
  const res = await callRaw<{ data: T }>(page, url, body, method);
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A department (top level unless `parentId`), made through the API by an admin's page. */
export async function addDepartment(admin: Page, name: string, parentId: string | null = null): Promise<string> {
  return (await call<{ id: string }>(admin, API.departmentCreate, { parentId, name })).id;
}

export interface PeopleOptions {
  password: string;
  /** The nickname of each account (default 昵称<account>). */
  nick?: (account: string) => string;
  /** Accounts an admin has locked. */
  locked?: string[];
  quota?: number;
}

/**
 * Adds members to a department through the API; they skip the first-login password change (its own
 * tests walk it). Answers each account's id.
 */
export async function addPeople(admin: Page, departmentId: string, accounts: string[], options: PeopleOptions): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const account of accounts) {
    const nickName = options.nick ? options.nick(account) : `昵称${account}`;
    const row = await call<{ id: string }>(admin, API.userAdd, { website: account, nickName, phone: '', departmentId, role: 'member', quota: options.quota ?? 1024 ** 3, outerLogin: false, password: encryptPassword(options.password) });
    ids[account] = row.id;
  }
  await withDb({ dataDir: inject('dataDir') }, (db) => {
    const clear = db.prepare('update users set must_change_password = 0 where username = ?');
    for (const account of accounts) clear.run(account);
    const lock = db.prepare('update users set locked = 1 where username = ?');
    for (const account of options.locked ?? []) lock.run(account);
  });
  return ids;
}

/**
 * Adds a member straight into the admin's tenant (no department until the organisation is first read;
 * faster than the API when the walk is not about departments). `mustChange`: the forced first change stays on.
 */
export async function addMember(username: string, password: string, mustChange = false): Promise<string> {
  const server = { dataDir: inject('dataDir') } as TestServer;
  const tenantId = await withDb(server, (db) => (db.prepare("select tenant_id from users where username = 'admin'").get() as { tenant_id: string }).tenant_id);
  const id = await addUser(server, tenantId, username, password);
  if (mustChange) await withDb(server, (db) => db.prepare('update users set must_change_password = 1 where id = ?').run(id));
  return id;
}

/** Every link needs an application (on), or the tenant's default policy again (off); the admin's page calls. */
export async function requireLinkApproval(admin: Page, on: boolean): Promise<void> {
  const sharePolicy = on ? { ...DEFAULT_SHARE_POLICY, link: { ...DEFAULT_SHARE_POLICY.link, always: true } } : DEFAULT_SHARE_POLICY;
  await call(admin, API.fileSecurityUpdate, { sharePolicy });
}

export interface SignedIn {
  context: BrowserContext;
  page: Page;
}

/**
 * Signs `account` in, in a context of its own (`options`: PHONE, DESKTOP…), and waits for 个人文件.
 * `pageErrors`, when given, collects the page's uncaught errors, prefixed with the account.
 */
export async function signIn(browser: Browser, account: string, password: string, options: BrowserContextOptions = {}, pageErrors?: string[]): Promise<SignedIn> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  if (pageErrors) page.on('pageerror', (e) => pageErrors.push(`${account}: ${e.message}`));
  await submitLogin(page, account, password);
  await page.waitForURL('**/main/file/personal**');
  return { context, page };
}

export const ADMIN = { account: 'admin', password: 'Admin@2024' };

/** The seeded tenant admin, signed in (for setup through the API, or a walk of the admin pages). */
export function signInAdmin(browser: Browser, options: BrowserContextOptions = {}, pageErrors?: string[]): Promise<SignedIn> {
  return signIn(browser, ADMIN.account, ADMIN.password, options, pageErrors);
}

/** The smallest control a phone shows (antd's small size in the phone theme, src/app/antd-theme.ts): a finger can hit it. */
export const PHONE_MIN_TAP_PX = 36;

/**
 * Throws unless `what` lies wholly on the screen (nothing cut off at any edge) and, with `tap`, is at
 * least PHONE_MIN_TAP_PX tall: the box it was found at goes into the message.
 */
export async function expectOnScreen(page: Page, target: Locator, what: string, { tap = false } = {}): Promise<void> {
  await target.waitFor();
  const box = await target.boundingBox();
  const size = page.viewportSize()!;
  const where = box ? `${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}×${Math.round(box.height)}` : 'no box';
  if (!box || box.x < -0.5 || box.y < -0.5 || box.x + box.width > size.width + 0.5 || box.y + box.height > size.height + 0.5) {
    throw new Error(`${what} is not wholly on the ${size.width}×${size.height} screen (${where})`);
  }
  if (tap && box.height < PHONE_MIN_TAP_PX - 0.5) throw new Error(`${what} is too small to tap (${where}, under ${PHONE_MIN_TAP_PX} px tall)`);
}

/**
 * Throws unless the whole of `target` shows where it is: both its ends are what the page has there (not
 * cut off by an ellipsis or a scroller, not under something else), and it lies wholly on the screen.
 */
export async function expectUncut(page: Page, target: Locator, what: string): Promise<void> {
  await expectOnScreen(page, target, what);
  const shown = await target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const ends = [r.left + 2, r.right - 2].map((x) => document.elementFromPoint(x, r.top + r.height / 2));
    return ends.every((hit) => hit !== null && el.contains(hit));
  });
  if (!shown) throw new Error(`${what} is cut off or covered`);
}

/** Whether the page is wider than the screen (something pushes it sideways: cut off or a sideways scroll of the whole page). */
export function pageOverflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}

/** Waits until `check` holds, polling every 200 ms. */
export async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** antd's search box puts the test id on the input or on its wrapper, depending on the version. */
export const searchBox = (page: Page, id: string) => page.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first();
