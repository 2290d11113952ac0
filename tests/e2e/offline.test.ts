/**
 * The app keeps working with the network gone (issue 13): after a visit to 个人文件 and a sub-folder,
 * going offline and reloading shows both lists from the cache with the offline banner; a deep link
 * opens offline; changes made offline wait in 待同步 and replay in order when the network is back,
 * a clash with a change made meanwhile on the server is asked about (and so do a text file, a favorite
 * and a delete, each through the file actions' outbox rows); logging out wipes that
 * account's cache, and another account never sees it.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { CreateTxtResponse, FileEntry } from '../../common/api/types';
import { addUser, withDb, type TestServer } from '../server/helpers';
import { loggedInJar } from '../support/drive-server';
import { baseUrl, closeBrowserSession, fileRow, openBrowserSession, revealFileRow, submitLogin } from './browser';

/** Calls the API from the page (same origin, with its session cookie and the client headers). */
async function apiPost<T>(page: Page, path: string, body: unknown): Promise<T> {
  return page.evaluate(
    async ({ path, body }) => {
      const res = await fetch(path, {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json', 'X-Client-Platform': 'web', 'X-Network-Env': 'internal' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { data: T };
      if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
      return json.data;
    },
    { path, body },
  );
}

/** The keys of the cache partitions saved in IndexedDB, with whether each mentions `text`. */
async function savedPartitions(page: Page, text: string): Promise<Array<{ key: string; mentions: boolean }>> {
  return page.evaluate(async (needle) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('drive-cache');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    try {
      if (!db.objectStoreNames.contains('entries')) return [];
      const store = db.transaction('entries').objectStore('entries');
      const read = <T,>(req: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
      const [keys, values] = await Promise.all([read(store.getAllKeys()), read(store.getAll())]);
      const rows = keys.map((key, i) => ({ key: String(key), value: String(values[i]) }));
      return rows.map((r) => ({ key: r.key, mentions: r.value.includes(needle) }));
    } finally {
      db.close();
    }
  }, text);
}

/** `explain`: what the page can say about why the wait failed, added to the error (a rare CI failure left no clue). */
async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 15_000, explain?: () => Promise<string>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${explain ? `: ${await explain().catch((e: unknown) => String(e))}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The page's service worker registration, worker by worker (installing, waiting, active) with their states. */
function serviceWorkerState(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    if (!reg) return 'no registration';
    const state = (w: ServiceWorker | null) => (w ? `${w.state} ${w.scriptURL}` : 'none');
    return `installing: ${state(reg.installing)}; waiting: ${state(reg.waiting)}; active: ${state(reg.active)}; controller: ${state(navigator.serviceWorker.controller)}`;
  });
}

describe('offline-first: the app opens and shows cached data without network', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let workDir: string;
  const stamp = Date.now();
  const folderName = `离线目录 ${stamp}`;
  const fileName = `离线笔记-${stamp}.txt`;
  const renamedFile = `离线改名-${stamp}.txt`;
  const newFolder = `离线新建 ${stamp}`;
  const clashName = `撞名 ${stamp}`;
  const offlineNote = `离线文本-${stamp}.txt`;
  let folder: FileEntry;

  beforeAll(async () => {
    ({ browser, context, page, workDir } = await openBrowserSession('offline'));
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('visits personal files and a sub-folder online; the service worker takes control', async () => {
    await submitLogin(page, 'admin', 'Admin@2024');
    await page.waitForURL('**/main/file/personal**');
    await page.getByTestId('file-table').waitFor();
    folder = await apiPost<FileEntry>(page, API.mkdir, { parentId: null, category: 1, name: folderName });
    const created = await apiPost<CreateTxtResponse>(page, API.createTxt, { parentId: folder.id, category: 1, name: fileName, content: 'offline' });
    expect(created.status).toBe('created');

    await page.reload();
    // The admin's root holds earlier files' entries: the folder's row is scrolled to (and its page kept offline).
    await (await revealFileRow(page, folderName)).getByText(folderName, { exact: true }).click();
    await fileRow(page, fileName).waitFor();
    await page.getByTestId('breadcrumb').getByText(folderName).waitFor();
    await waitUntil(() => page.evaluate(() => navigator.serviceWorker.controller !== null), 'the service worker to control the page', 15_000, () => serviceWorkerState(page));
    await waitUntil(async () => (await savedPartitions(page, fileName)).some((p) => p.key.startsWith('account:') && p.mentions), 'the folder listing to be saved');
  });

  it('a page loaded past the service worker (a hard reload) asks it to take control, so it still opens offline', async () => {
    // A hard reload skips the worker like a navigation that was under way while it activated.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Page.reload', { ignoreCache: true });
    await cdp.detach();
    await page.getByTestId('file-table').waitFor();
    const servedByWorker = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).workerStart > 0);
    expect(servedByWorker).toBe(false);
    await waitUntil(() => page.evaluate(() => navigator.serviceWorker.controller !== null), 'the service worker to take the page', 15_000, () => serviceWorkerState(page));
  });

  it('offline, a reload shows the sub-folder from the cache with the offline banner, and its parent too', async () => {
    await context.setOffline(true);
    await page.reload();
    await fileRow(page, fileName).waitFor();
    await page.getByTestId('offline-banner').waitFor();
    await expect(page.getByTestId('offline-banner').textContent()).resolves.toContain('从服务器确认的数据');
    await page.getByTestId('breadcrumb').getByText(folderName).waitFor();

    await page.getByTestId('breadcrumb').getByText('个人文件').click();
    await revealFileRow(page, folderName);
  });

  it('offline, a deep link to the folder opens', async () => {
    await page.goto(`${baseUrl()}/main/file/personal?dir=${encodeURIComponent(folder.id)}`);
    await fileRow(page, fileName).waitFor();
    await page.getByTestId('offline-banner').waitFor();
  });

  it('offline: a new folder, a rename and a clashing folder are kept in 待同步 and shown at once', async () => {
    await page.getByTestId('toolbar-mkdir').click();
    await page.getByTestId('mkdir-name-input').fill(newFolder);
    await page.getByRole('button', { name: /确\s*定/ }).click();
    await fileRow(page, newFolder).waitFor();

    await fileRow(page, fileName).getByTestId('file-name').click({ button: 'right' });
    await page.locator('.ant-dropdown:visible [data-testid="menu-rename"]').click();
    await page.getByTestId('rename-name-input').fill(renamedFile);
    await page.getByRole('button', { name: /确\s*定/ }).click();
    await fileRow(page, renamedFile).waitFor();

    // Meanwhile someone else (the same account on another device, online) takes a name we will use.
    const jar = await loggedInJar(baseUrl(), inject('dataDir'));
    const made = await jar.fetch(baseUrl() + API.mkdir, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Client-Platform': 'web', 'X-Network-Env': 'internal' },
      body: JSON.stringify({ parentId: folder.id, category: 1, name: clashName }),
    });
    expect(made.status).toBe(200);
    // The renamed file is still selected, and a selection puts the batch bar where 新建文件夹 was.
    await page.getByTestId('selection-clear').click();
    await page.getByTestId('toolbar-mkdir').click();
    await page.getByTestId('mkdir-name-input').fill(clashName);
    await page.getByRole('button', { name: /确\s*定/ }).click();

    // Server-only actions say why they are unavailable.
    await fileRow(page, renamedFile).getByTestId('file-name').click({ button: 'right' });
    await page.locator('.ant-dropdown:visible [data-testid="menu-lock"]').getByText('离线时不可用').waitFor();
    await page.keyboard.press('Escape');

    await expect(page.getByTestId('outbox-button').textContent()).resolves.toContain('待同步');
    await page.getByTestId('outbox-button').click();
    // The drawer's code loads at its first opening (from the service worker's copy, offline).
    await expect.poll(() => page.getByTestId('outbox-row').count()).toBe(3);
    await page.keyboard.press('Escape');
    await page.getByTestId('outbox-drawer').waitFor({ state: 'hidden' });
  });

  it('online again: the changes replay in order, the clash is asked about, and the server has all of them', async () => {
    await context.setOffline(false);
    const drawer = page.getByTestId('outbox-drawer');
    await page.getByTestId('outbox-button').click();
    await drawer.waitFor();
    const conflict = drawer.locator('[data-testid="outbox-row"][data-state="conflict"]');
    await conflict.waitFor({ timeout: 30_000 });
    await expect(conflict.getByTestId('outbox-label').textContent()).resolves.toContain(clashName);
    await conflict.getByTestId('outbox-new-name').fill(`${clashName} 离线版`);
    await conflict.getByTestId('outbox-use-name').click();
    await page.getByTestId('outbox-button').waitFor({ state: 'detached', timeout: 30_000 });

    const jar = await loggedInJar(baseUrl(), inject('dataDir'));
    const listed = await jar.fetch(baseUrl() + API.fileList, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Client-Platform': 'web', 'X-Network-Env': 'internal' },
      body: JSON.stringify({ parentId: folder.id, category: 1, pageSize: 100 }),
    });
    const names = ((await listed.json()) as { data: { items: FileEntry[] } }).data.items.map((i) => i.name).sort();
    expect(names).toEqual([clashName, `${clashName} 离线版`, newFolder, renamedFile].sort());
    await fileRow(page, `${clashName} 离线版`).waitFor();
  });

  it('offline: a text file, a favorite and a delete are kept in 待同步 and shown at once; online again the server has them', async () => {
    await context.setOffline(true);
    await page.reload();
    await fileRow(page, renamedFile).waitFor();
    await page.getByTestId('offline-banner').waitFor();

    await page.getByTestId('toolbar-create-txt').click();
    await page.getByTestId('txt-name-input').fill(offlineNote);
    await page.getByTestId('txt-content-input').fill('written offline');
    await page.getByRole('button', { name: /确\s*定/ }).click();
    await fileRow(page, offlineNote).waitFor();

    await fileRow(page, renamedFile).getByTestId('file-name').click({ button: 'right' });
    await page.locator('.ant-dropdown:visible [data-testid="menu-favorite"]').click();
    await fileRow(page, renamedFile).getByTestId('state-favorite').waitFor();

    await fileRow(page, newFolder).getByTestId('file-name').click({ button: 'right' });
    await page.locator('.ant-dropdown:visible [data-testid="menu-delete"]').click();
    await page.getByTestId('confirm-delete').click();
    await fileRow(page, newFolder).waitFor({ state: 'detached' });

    await page.getByTestId('outbox-button').click();
    await expect.poll(() => page.getByTestId('outbox-row').count()).toBe(3);
    await page.keyboard.press('Escape');
    await page.getByTestId('outbox-drawer').waitFor({ state: 'hidden' });

    await context.setOffline(false);
    await page.getByTestId('outbox-button').waitFor({ state: 'detached', timeout: 30_000 });
    const jar = await loggedInJar(baseUrl(), inject('dataDir'));
    const listed = await jar.fetch(baseUrl() + API.fileList, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Client-Platform': 'web', 'X-Network-Env': 'internal' },
      body: JSON.stringify({ parentId: folder.id, category: 1, pageSize: 100 }),
    });
    const items = ((await listed.json()) as { data: { items: FileEntry[] } }).data.items;
    expect(items.map((i) => i.name).sort()).toEqual([clashName, `${clashName} 离线版`, offlineNote, renamedFile].sort());
    expect(items.find((i) => i.name === renamedFile)?.favorite).toBe(true);
  });

  it("logging out wipes the account's cache; another account sees none of it, online or offline", async () => {
    await page.reload();
    await fileRow(page, renamedFile).waitFor();
    await page.getByTestId('user-menu').click();
    await page.getByText('退出登录', { exact: true }).click();
    await page.waitForURL('**/login**');
    expect((await savedPartitions(page, renamedFile)).filter((p) => p.mentions)).toEqual([]);

    // Another account of the same tenant logs in on this browser: nothing of the admin's shows,
    // online or offline.
    const other = `offline_${stamp}`;
    const tenantId = await withDb({ dataDir: inject('dataDir') }, (db) => (db.prepare("select tenant_id from users where username = 'admin'").get() as { tenant_id: string }).tenant_id);
    await addUser({ dataDir: inject('dataDir') } as TestServer, tenantId, other, 'Offline@2024');
    await submitLogin(page, other, 'Offline@2024');
    await page.waitForURL('**/main/file/personal**');
    await page.getByTestId('file-table').waitFor();
    await waitUntil(async () => (await savedPartitions(page, other)).some((p) => p.key.startsWith('account:')), "the other account's partition to be saved");
    await context.setOffline(true);
    await page.reload();
    await page.getByTestId('offline-banner').waitFor();
    await page.goto(`${baseUrl()}/main/file/personal?dir=${encodeURIComponent(folder.id)}`);
    await page.getByTestId('offline-banner').waitFor();
    expect(await page.getByText(renamedFile).count()).toBe(0);
    expect(await page.getByText(folderName).count()).toBe(0);
    expect((await savedPartitions(page, renamedFile)).filter((p) => p.mentions)).toEqual([]);
    await context.setOffline(false);
  });
});
