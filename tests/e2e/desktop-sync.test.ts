/**
 * The desktop's sync UI in Chromium, with the desktop bridge faked at its edge (window.desktop, as
 * Electron's preload would expose it; Electron's binary cannot be had here): 本机同步 appears only
 * with the bridge, a folder pair is added through the system's folder picker, the engine's status
 * (phase, lists, failures) shows as it comes, pause and sync now reach the bridge, deletes that wait are
 * shown and 确认删除 confirms that list (its token), a deletion event is restored with 恢复; and a native
 * message's `?preview=<id>` opens that file's preview.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { CreateTxtResponse } from '../../common/api/types';
import { baseUrl, closeBrowserSession, loginAsAdmin, openBrowserSession } from './browser';

/** Runs in the page before the app: a bridge with the engine's side played by the test. */
function installFakeBridge(): void {
  type Listener = (s: unknown) => void;
  const listeners = new Set<Listener>();
  const calls: Array<[string, unknown[]]> = [];
  const settings = { uploadLimit: 0, downloadLimit: 0, intervalMs: 30 * 60_000, startAtLogin: false };
  const lists = { syncList: [], failList: [], successList: [], interceptList: [], sensitiveList: [], secretList: [], skippedList: [], allFilepathsLength: 0 };
  let status = { paused: false, settings, pairs: [] as unknown[] };
  const emit = (next: typeof status) => {
    status = next;
    for (const l of listeners) l(status);
  };
  const record =
    (name: string, answer: (...args: unknown[]) => unknown = () => undefined) =>
    async (...args: unknown[]) => {
      calls.push([name, args]);
      return answer(...args);
    };
  const w = window as unknown as Record<string, unknown>;
  w.__desktopCalls = calls;
  w.__desktopEmit = emit;
  w.__desktopStatus = () => status;
  w.desktop = {
    isDesktop: true,
    getAppInfo: async () => ({ version: '1.0.0', platform: 'linux', networkEnv: 'internal' }),
    checkForUpdates: record('checkForUpdates'),
    sync: {
      getStatus: async () => status,
      onStatus: (l: Listener) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      chooseFolder: record('chooseFolder', () => '/home/张三/工作文档'),
      addPair: record('addPair', (pair) => {
        const config = { id: 'p1', paused: false, ...(pair as object) };
        emit({ ...status, pairs: [{ pair: config, phase: 'syncing', message: null, lastPassAt: null, lastSummary: null, lists, upSpeed: 0, downSpeed: 0 }] });
        return config;
      }),
      updatePair: record('updatePair'),
      removePair: record('removePair'),
      setPaused: record('setPaused', (paused) => emit({ ...status, paused: paused === true })),
      syncNow: record('syncNow'),
      setSettings: record('setSettings', (patch) => emit({ ...status, settings: { ...status.settings, ...(patch as object) } })),
      openFolder: record('openFolder'),
      confirmDeletes: record('confirmDeletes'),
      restoreDeletion: record('restoreDeletion', () => ({ restored: 195, failed: [] })),
    },
  };
}

const calls = (page: Page) => page.evaluate(() => (window as unknown as { __desktopCalls: Array<[string, unknown[]]> }).__desktopCalls);

describe('desktop sync UI', () => {
  let browser: Browser;
  let page: Page;
  let workDir: string;

  beforeAll(async () => {
    ({ browser, page, workDir } = await openBrowserSession('desktop-sync'));
  });
  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('shows no 本机同步 in a browser', async () => {
    await loginAsAdmin(page);
    expect(await page.getByTestId('desktop-sync-button').count()).toBe(0);
  });

  it('adds a folder pair through the bridge and shows what the engine reports', async () => {
    await page.addInitScript(installFakeBridge);
    await page.reload();
    await page.getByTestId('file-table').waitFor();
    await page.getByTestId('desktop-sync-button').click();
    await page.getByTestId('sync-panel').getByText('还没有同步文件夹').waitFor();

    await page.getByTestId('sync-add').click();
    await page.getByTestId('sync-choose-folder').click();
    await expect.poll(() => page.getByTestId('sync-local-dir').inputValue()).toBe('/home/张三/工作文档');
    expect(await page.getByTestId('sync-remote-path').inputValue()).toBe('工作文档');
    await page.getByTestId('sync-remote-path').fill('笔记本/工作文档');
    await page.getByText('备份（本机 → 云端）').click();
    await page.getByTestId('sync-delete-remote').click();
    await page.getByTestId('sync-ignore').fill('*.tmp\nnode_modules/');
    await page.getByTestId('sync-add-submit').click();
    await page.getByTestId('sync-pair').waitFor();
    const added = (await calls(page)).find(([name]) => name === 'addPair')![1][0];
    expect(added).toEqual({ localDir: '/home/张三/工作文档', remotePath: '/笔记本/工作文档', mode: 'backup', deleteRemote: true, ignore: ['*.tmp', 'node_modules/'] });
    expect(await page.getByTestId('sync-pair-phase').textContent()).toBe('同步中');

    // The engine reports a pass: failures, an intercepted file, a summary.
    await page.evaluate(() => {
      const w = window as unknown as { __desktopEmit(s: unknown): void; __desktopStatus(): { pairs: Array<Record<string, unknown>> } };
      const s = w.__desktopStatus();
      const item = (path: string, reason: string | null, state: string) => ({ path, action: '上传', state, size: 2048, bytesDone: 0, reason, at: Date.now() });
      w.__desktopEmit({
        ...s,
        pairs: [
          {
            ...s.pairs[0],
            phase: 'idle',
            lastPassAt: Date.now(),
            lastSummary: { uploaded: 12, downloaded: 0, moved: 1, deleted: 0, conflicts: 0, failed: 2, intercepted: 1 },
            lists: {
              syncList: [],
              failList: [item('报告,终稿.docx', '名称不能包含以下字符：| , / < > * ? \\ [ ]', 'failed'), item('被占用.xlsx', '文件被其他程序占用，稍后重试', 'failed')],
              successList: [item('会议纪要.txt', null, 'done')],
              interceptList: [item('工具.exe', '管理员不允许上传该类型的文件', 'failed')],
              sensitiveList: [],
              secretList: [],
              skippedList: [],
              allFilepathsLength: 15,
            },
          },
        ],
      });
    });
    await expect.poll(() => page.getByTestId('sync-pair-phase').textContent()).toBe('2 个未同步');
    expect(await page.getByTestId('sync-pair-summary').textContent()).toContain('上传 12，移动 1，失败 2，拦截 1');
    await page.getByTestId('sync-list-failList').getByText('文件被其他程序占用，稍后重试').waitFor();
    await page.getByTestId('sync-list-tabs').getByText(/已拦截/).click();
    await page.getByTestId('sync-list-interceptList').getByText('工具.exe').waitFor();
  });

  it('shows deletes that wait, confirms exactly that list, and restores a deletion event', async () => {
    await page.evaluate(() => {
      const w = window as unknown as { __desktopEmit(s: unknown): void; __desktopStatus(): { pairs: Array<Record<string, unknown>> } };
      const s = w.__desktopStatus();
      const items = Array.from({ length: 195 }, (_, i) => ({ path: `docs/报告 ${i}.txt`, side: 'remote', isDir: false, files: 1 }));
      w.__desktopEmit({
        ...s,
        pairs: [
          {
            ...s.pairs[0],
            phase: 'idle',
            code: 'deletesHeld',
            message: '本次同步将删除 云端 195 个文件（已同步的 200 个文件中的 98%），超过了 100 个：这些删除等待确认，其他变化照常同步',
            heldDeletes: {
              token: '5f0c1d2e3a4b5c6d7e8f',
              reason: '本次同步将删除 云端 195 个文件（已同步的 200 个文件中的 98%），超过了 100 个：这些删除等待确认，其他变化照常同步',
              localFiles: 0,
              remoteFiles: 195,
              syncedFiles: 200,
              wholePass: false,
              at: Date.now(),
              items: items.slice(0, 200),
            },
            deletions: [{ id: 'lx2k3abcd', at: Date.now() - 60_000, local: 0, remote: 3, items: [{ path: '旧/a.txt', side: 'remote', isDir: false }, { path: '旧/b.txt', side: 'remote', isDir: false }, { path: '旧/c.txt', side: 'remote', isDir: false }] }],
          },
        ],
      });
    });
    const held = page.getByTestId('sync-held-deletes');
    await held.getByText('删除等待确认', { exact: true }).waitFor();
    await held.getByText(/云端 195 个文件/).waitFor();
    expect(await held.getByTestId('sync-held-list').locator('li').count()).toBe(195);
    await held.getByText('删除云端：docs/报告 0.txt').waitFor();
    expect(await page.getByTestId('sync-pair-phase').textContent()).toBe('等待确认删除');
    await page.getByTestId('sync-confirm-deletes').click();
    await page.locator('.ant-popconfirm').getByText('确认删除这 195 个文件？').waitFor();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '确认删除' }).click();
    await expect.poll(async () => (await calls(page)).filter(([name]) => name === 'confirmDeletes').map(([, args]) => args)).toEqual([['p1', '5f0c1d2e3a4b5c6d7e8f']]);

    await page.getByTestId('sync-deletions').getByText('最近删除（1）').click();
    await page.getByTestId('sync-deletion').getByText(/删除了云端 3 项（已移入回收站）/).waitFor();
    await page.getByTestId('sync-restore-deletion').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /^恢 ?复$/ }).click();
    await expect.poll(async () => (await calls(page)).filter(([name]) => name === 'restoreDeletion').map(([, args]) => args)).toEqual([['p1', 'lx2k3abcd']]);
    await page.getByText('已恢复 195 项').waitFor();
  });

  it('pauses, syncs now and sets limits through the bridge', async () => {
    await page.getByTestId('sync-now').click();
    await page.getByTestId('sync-pause-all').click();
    await expect.poll(() => page.getByTestId('sync-pair-phase').textContent()).toBe('已暂停');
    expect(await page.getByTestId('sync-now').isDisabled()).toBe(true);
    const upLimit = page.locator('input[data-testid="sync-up-limit"], [data-testid="sync-up-limit"] input').first();
    await upLimit.fill('512');
    await page.getByTestId('sync-start-at-login').click();
    await expect.poll(async () => (await calls(page)).map(([name, args]) => `${name}${JSON.stringify(args)}`)).toEqual(
      expect.arrayContaining(['syncNow[]', 'setPaused[true]', 'setSettings[{"startAtLogin":true}]', 'setSettings[{"uploadLimit":524288}]']),
    );
  });

  it('opens the preview of the file a native message names (?preview=<id>)', async () => {
    const created = await page.evaluate(
      async ({ path, body }) => {
        const res = await fetch(path, {
          method: 'POST',
          credentials: 'include',
          headers: { 'Content-Type': 'application/json', 'X-Client-Platform': 'desktop', 'X-Network-Env': 'internal' },
          body: JSON.stringify(body),
        });
        return ((await res.json()) as { data: CreateTxtResponse }).data;
      },
      { path: API.createTxt, body: { parentId: null, category: 1, name: `深度链接-${Date.now()}.txt`, content: '从本机打开的预览' } },
    );
    if (created.status !== 'created') throw new Error('createTxt held');
    await page.goto(`${baseUrl()}/main/file/personal?preview=${created.file.id}`);
    await page.getByTestId('preview').getByText('从本机打开的预览').waitFor();
    expect(page.url()).not.toContain('preview=');
  });
});
