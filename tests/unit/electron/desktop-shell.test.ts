/**
 * The desktop shell's decisions, under Node: keys, native messages (clouddrive:// links and
 * arguments), the tray, the allow-listed bridge (its IPC handlers, the origin guard, and the preload
 * exposing one object over those channels only).
 */
import { describe, expect, it, vi } from 'vitest';
import { DESKTOP_CHANNELS, DESKTOP_EVENTS, type DesktopBridge } from '../../../common/desktop/bridge';
import type { SyncStatus } from '../../../common/sync/types';
import { fileIdOfArgs, fileIdOfMessage, previewUrlFor } from '../../../electron/deep-link';
import { desktopHandlers, guarded } from '../../../electron/ipc';
import { shouldBlockKey } from '../../../electron/keys';
import { trayMenu, trayTooltip } from '../../../electron/tray-menu';

describe('keys', () => {
  it('blocks Ctrl/Cmd+R only in production, F1/F5 always', () => {
    expect(shouldBlockKey({ type: 'keyDown', key: 'r', control: true }, true)).toBe(true);
    expect(shouldBlockKey({ type: 'keyDown', key: 'R', meta: true, control: false }, true)).toBe(true);
    expect(shouldBlockKey({ type: 'keyDown', key: 'r', control: true }, false)).toBe(false);
    expect(shouldBlockKey({ type: 'keyDown', key: 'r' }, true)).toBe(false);
    expect(shouldBlockKey({ type: 'keyDown', key: 'F5' }, false)).toBe(true);
  });
});

describe('native messages', () => {
  it('reads a file id from clouddrive:// links and --preview arguments, refusing anything else', () => {
    expect(fileIdOfMessage('clouddrive://preview/AbC_12-x')).toBe('AbC_12-x');
    expect(fileIdOfMessage('clouddrive://preview?fileId=AbC_12-x')).toBe('AbC_12-x');
    expect(fileIdOfMessage('--preview=AbC_12-x')).toBe('AbC_12-x');
    expect(fileIdOfMessage('clouddrive://preview/a%2Fb')).toBeNull();
    expect(fileIdOfMessage('clouddrive://preview/')).toBeNull();
    expect(fileIdOfMessage('clouddrive://other/abc')).toBeNull();
    expect(fileIdOfMessage('https://evil.example/preview/abc')).toBeNull();
    expect(fileIdOfMessage('--preview=<script>')).toBeNull();
    expect(fileIdOfArgs(['/opt/app/cloud-drive', '--no-sandbox', 'clouddrive://preview/f1'])).toBe('f1');
    expect(fileIdOfArgs(['/opt/app/cloud-drive'])).toBeNull();
  });

  it('opens the preview in the web app', () => {
    expect(previewUrlFor('https://pan.example.cn/', 'f1')).toBe('https://pan.example.cn/main/file/personal?preview=f1');
  });
});

const status = (over: Partial<SyncStatus> = {}, phase: SyncStatus['pairs'][number]['phase'] = 'idle', failed = 0): SyncStatus => ({
  paused: false,
  settings: { uploadLimit: 0, downloadLimit: 0, intervalMs: 60_000, startAtLogin: false },
  pairs: [
    {
      pair: { id: 'p', localDir: '/home/u/文档', remotePath: '/笔记本', mode: 'two-way', deleteRemote: false, ignore: [], paused: false },
      phase,
      message: phase === 'error' ? '云端文件夹已被删除或移走' : null,
      lastPassAt: null,
      lastSummary: null,
      lists: {
        syncList: phase === 'syncing' ? [{ path: 'a.txt', action: '上传', state: 'uploading', size: 1, bytesDone: 0, reason: null, at: 0 }] : [],
        failList: Array.from({ length: failed }, (_, i) => ({ path: `f${i}`, action: '上传', state: 'failed' as const, size: 0, bytesDone: 0, reason: 'x', at: 0 })),
        successList: [],
        interceptList: [],
        sensitiveList: [],
        secretList: [],
        skippedList: [],
        allFilepathsLength: 1,
      },
      upSpeed: 0,
      downSpeed: 0,
    },
  ],
  ...over,
});

describe('tray', () => {
  it('says where the sync stands', () => {
    expect(trayTooltip(null)).toContain('未设置同步文件夹');
    expect(trayTooltip(status())).toContain('已同步');
    expect(trayTooltip(status({}, 'syncing'))).toContain('同步中（1 项）');
    expect(trayTooltip(status({ paused: true }))).toContain('已暂停');
    expect(trayTooltip(status({}, 'offline'))).toContain('无法连接服务器');
    expect(trayTooltip(status({}, 'error'))).toContain('云端文件夹已被删除');
    expect(trayTooltip(status({}, 'idle', 3))).toContain('3 个文件未能同步');
  });

  it('offers pause or resume, sync now, check updates, quit', () => {
    expect(trayMenu(status()).filter((i) => !i.separator).map((i) => i.label)).toEqual(['打开企业云盘', '暂停同步', '立即同步', '检查更新', '退出']);
    const paused = trayMenu(status({ paused: true }));
    expect(paused.find((i) => i.action === 'resume')?.label).toBe('继续同步');
    expect(paused.find((i) => i.action === 'syncNow')?.enabled).toBe(false);
    expect(trayMenu(null).find((i) => i.action === 'pause')?.enabled).toBe(false);
  });
});

describe('the bridge', () => {
  it('answers exactly the allow-listed channels, and only the app’s own origin', async () => {
    const calls: string[] = [];
    const sync = new Proxy({}, { get: (_t, name) => (...args: unknown[]) => calls.push(`${String(name)}(${JSON.stringify(args)})`) }) as never;
    const handlers = desktopHandlers({
      appUrl: 'https://pan.example.cn/',
      appInfo: () => ({ version: '1.0.0', platform: 'linux', networkEnv: 'internal' }),
      sync,
      chooseFolder: async () => '/home/u/x',
      openPath: async (p) => void calls.push(`open ${p}`),
      checkForUpdates: () => void calls.push('update'),
      notify: (notice) => void calls.push(`notify ${notice.url}`),
    });
    expect(Object.keys(handlers).sort()).toEqual(Object.values(DESKTOP_CHANNELS).sort());
    // A notice goes to the system only well-formed: plain short text and a path of the app itself.
    const notify = handlers[DESKTOP_CHANNELS.notify];
    notify({ title: '文件消息', body: '张三锁定了「a.txt」', url: 'https://evil.example/' });
    notify({ title: '文件消息', body: 'x'.repeat(1000), url: '/main/notice/fileNotice' });
    notify('not a notice');
    expect(calls).toEqual([]);
    notify({ title: '文件消息', body: '张三锁定了「a.txt」', url: '/main/notice/fileNotice' });
    expect(calls).toEqual(['notify /main/notice/fileNotice']);
    calls.length = 0;
    const call = guarded('https://pan.example.cn/', handlers[DESKTOP_CHANNELS.syncSetPaused]);
    call({ senderFrame: { url: 'https://pan.example.cn/main/file/backups' } }, true);
    expect(calls).toEqual(['setPaused([true])']);
    expect(() => call({ senderFrame: { url: 'https://evil.example/' } }, true)).toThrow(/another origin/);
    expect(() => call({ senderFrame: null }, true)).toThrow(/another origin/);
    expect(await guarded('https://pan.example.cn/', handlers[DESKTOP_CHANNELS.syncChooseFolder])({ senderFrame: { url: 'https://pan.example.cn/' } })).toBe('/home/u/x');
  });

  it('the preload exposes one object, window.desktop, whose every call is an allow-listed channel', async () => {
    const exposed: Record<string, unknown> = {};
    const invoked: string[] = [];
    const listeners = new Map<string, (...args: unknown[]) => void>();
    vi.doMock('electron', () => ({
      contextBridge: { exposeInMainWorld: (name: string, value: unknown) => (exposed[name] = value) },
      ipcRenderer: {
        invoke: async (channel: string) => void invoked.push(channel),
        on: (channel: string, listener: (...args: unknown[]) => void) => listeners.set(channel, listener),
        removeListener: (channel: string) => listeners.delete(channel),
      },
    }));
    await import('../../../electron/preload');
    vi.doUnmock('electron');
    expect(Object.keys(exposed)).toEqual(['desktop']);
    const bridge = exposed.desktop as DesktopBridge;
    expect(bridge.isDesktop).toBe(true);
    await bridge.getAppInfo();
    await bridge.checkForUpdates();
    await bridge.notify({ title: 't', body: 'b', url: '/main/notice/fileNotice' });
    for (const [name, fn] of Object.entries(bridge.sync)) if (name !== 'onStatus') await (fn as (...a: unknown[]) => Promise<unknown>)('x', {});
    expect(new Set(invoked)).toEqual(new Set(Object.values(DESKTOP_CHANNELS)));
    const seen: SyncStatus[] = [];
    const off = bridge.sync.onStatus((s) => seen.push(s));
    listeners.get(DESKTOP_EVENTS.syncStatus)!({}, status());
    expect(seen).toHaveLength(1);
    off();
    expect(listeners.has(DESKTOP_EVENTS.syncStatus)).toBe(false);
    const clicked: string[] = [];
    const offClick = bridge.onNotificationClick((url) => clicked.push(url));
    listeners.get(DESKTOP_EVENTS.notificationClick)!({}, '/main/group?space=1&select=2');
    listeners.get(DESKTOP_EVENTS.notificationClick)!({}, { not: 'a url' });
    expect(clicked).toEqual(['/main/group?space=1&select=2']);
    offClick();
    expect(listeners.has(DESKTOP_EVENTS.notificationClick)).toBe(false);
  });
});
