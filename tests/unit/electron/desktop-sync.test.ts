/**
 * The desktop's sync control (electron/desktop-sync.ts, sync-config.ts) with a fake engine process:
 * what the page may set up is checked, kept across restarts, and sent to the engine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostCommand, HostEvent } from '../../../common/desktop/sync-host';
import { DesktopSync, type HostHandle } from '../../../electron/desktop-sync';

let dir: string;
let sent: HostCommand[];
let emit: (e: HostEvent) => void;
let startAtLogin: boolean | null;

function make(): DesktopSync {
  return new DesktopSync({
    configFile: path.join(dir, 'config.json'),
    stateDir: path.join(dir, 'state'),
    serverUrl: 'https://pan.example.cn/',
    networkEnv: 'internal',
    startHost: (): HostHandle => ({
      send: (c) => sent.push(c),
      onEvent: (l) => (emit = l),
      exited: new Promise(() => undefined),
      kill: () => undefined,
    }),
    cookie: async () => 'sid=abc',
    isFolder: (p) => fs.existsSync(p) && fs.statSync(p).isDirectory(),
    setStartAtLogin: (on) => (startAtLogin = on),
    onStatus: () => undefined,
  });
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desktop-sync-'));
  fs.mkdirSync(path.join(dir, 'docs', 'inner'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'photos'));
  sent = [];
  startAtLogin = null;
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('desktop sync control', () => {
  it('adds a checked pair, starts the engine with the session cookie, and keeps the pair across a restart', async () => {
    const sync = make();
    await sync.start();
    expect(sent).toEqual([]); // nothing to sync yet: no engine
    const pair = await sync.addPair({ localDir: path.join(dir, 'docs'), remotePath: '笔记本//文档/', mode: 'two-way', deleteRemote: false, ignore: ['*.tmp', ' ', 'build/'] });
    expect(pair).toMatchObject({ remotePath: '/笔记本/文档', ignore: ['*.tmp', 'build/'], paused: false });
    expect(sent[0]).toMatchObject({ type: 'start', cookie: 'sid=abc', serverUrl: 'https://pan.example.cn/', pairs: [pair] });
    emit({ type: 'status', status: { ...sync.getStatus(), paused: true } });
    expect(sync.getStatus().paused).toBe(true);
    expect(make().getStatus().pairs.map((p) => p.pair.id)).toEqual([pair.id]);
  });

  it('refuses what must not be synced', async () => {
    const sync = make();
    await sync.addPair({ localDir: path.join(dir, 'docs'), remotePath: '/a', mode: 'backup', deleteRemote: true, ignore: [] });
    const add = (over: Record<string, unknown>) => sync.addPair({ localDir: path.join(dir, 'photos'), remotePath: '/b', mode: 'two-way', deleteRemote: false, ignore: [], ...over });
    await expect(add({ localDir: 'relative/path' })).rejects.toThrow('请选择本机上的一个文件夹');
    await expect(add({ localDir: path.join(dir, 'missing') })).rejects.toThrow('本机文件夹不存在');
    await expect(add({ localDir: path.join(dir, 'docs', 'inner') })).rejects.toThrow('重叠');
    await expect(add({ localDir: dir })).rejects.toThrow('重叠');
    await expect(add({ localDir: path.parse(dir).root })).rejects.toThrow();
    await expect(add({ remotePath: '/a,b' })).rejects.toThrow('不可用');
    await expect(add({ remotePath: '///' })).rejects.toThrow('请填写');
    await expect(add({ mode: 'mirror' })).rejects.toThrow('同步方式');
    await expect(add({ ignore: 'x' })).rejects.toThrow('忽略规则');
    expect((await add({})).localDir).toBe(path.join(dir, 'photos'));
  });

  it('pauses, changes settings (start at login, bandwidth) and removes a pair, telling the engine', async () => {
    const sync = make();
    const pair = await sync.addPair({ localDir: path.join(dir, 'docs'), remotePath: '/a', mode: 'two-way', deleteRemote: false, ignore: [] });
    sync.setPaused(true);
    sync.setSettings({ uploadLimit: 1_000_000, startAtLogin: true, intervalMs: 1 });
    expect(startAtLogin).toBe(true);
    expect(() => sync.setSettings({ downloadLimit: -1 })).toThrow('限速');
    await sync.updatePair(pair.id, { mode: 'backup', ignore: ['*.log'] });
    await sync.removePair(pair.id);
    await expect(sync.removePair('nope')).rejects.toThrow('不存在');
    expect(sent.map((c) => c.type)).toEqual(['start', 'setPaused', 'settings', 'removePair', 'addPair', 'removePair']);
    const settings = sent.find((c) => c.type === 'settings') as Extract<HostCommand, { type: 'settings' }>;
    expect(settings.settings).toMatchObject({ uploadLimit: 1_000_000, startAtLogin: true });
    expect(settings.settings.intervalMs).not.toBe(1); // the interval is the admin's, not the page's
    expect(make().getStatus()).toMatchObject({ paused: true, pairs: [] });
  });

  it('sends 确认删除 with the token of the list shown and restores a deletion event, each answered by the engine', async () => {
    const sync = make();
    const pair = await sync.addPair({ localDir: path.join(dir, 'docs'), remotePath: '/a', mode: 'two-way', deleteRemote: false, ignore: [] });
    const answer = (result?: { restored: number; failed: Array<{ path: string; reason: string }> }, error?: string) => {
      const last = sent.at(-1) as Extract<HostCommand, { requestId: number }>;
      emit({ type: 'done', requestId: last.requestId, ...(result && { result }), ...(error !== undefined && { error }) });
    };

    const confirming = sync.confirmDeletes(pair.id, '0a1b2c3d4e');
    expect(sent.at(-1)).toMatchObject({ type: 'confirmDeletes', pairId: pair.id, token: '0a1b2c3d4e' });
    answer();
    await expect(confirming).resolves.toBeUndefined();

    // A list that changed since it was shown: the engine refuses, the page hears why.
    const stale = sync.confirmDeletes(pair.id, 'ffff');
    answer(undefined, '待确认的删除已经变化，请查看新的列表后再确认');
    await expect(stale).rejects.toThrow('待确认的删除已经变化');

    const restoring = sync.restoreDeletion(pair.id, 'lx2k3abcd');
    expect(sent.at(-1)).toMatchObject({ type: 'restoreDeletion', pairId: pair.id, eventId: 'lx2k3abcd' });
    answer({ restored: 195, failed: [] });
    await expect(restoring).resolves.toEqual({ restored: 195, failed: [] });

    // What the page sends is checked before it reaches the engine.
    await expect(sync.confirmDeletes(pair.id, { token: 1 })).rejects.toThrow('不正确');
    await expect(sync.restoreDeletion(pair.id, '../../etc')).rejects.toThrow('不正确');
    await expect(sync.restoreDeletion('nope', 'abc')).rejects.toThrow('不存在');
    expect(sent.filter((c) => c.type === 'confirmDeletes' || c.type === 'restoreDeletion')).toHaveLength(3);
  });
});
