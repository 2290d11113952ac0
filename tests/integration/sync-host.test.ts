/**
 * The desktop's sync process (workers/sync/host.ts, Electron's utility process) driven by the
 * messages the main process sends (common/desktop/sync-host.ts), against the real server: it starts
 * with the window's session cookie, syncs, reports status and passes, pauses, and stops cleanly.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostCommand, HostEvent } from '../../common/desktop/sync-host';
import { runHost } from '../../workers/sync/host';
import { loggedInJar } from '../support/drive-server';
import { startServer, type TestServer } from '../server/helpers';

let server: TestServer;
let work: string;

beforeAll(async () => {
  server = await startServer();
  work = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-sync-host-'));
});

afterAll(async () => {
  server?.app.server.closeAllConnections();
  await server?.close();
  await fsp.rm(work, { recursive: true, force: true });
});

function fakePort() {
  const events: HostEvent[] = [];
  let listener: ((event: { data: HostCommand }) => void) | null = null;
  const waiters: Array<() => void> = [];
  return {
    events,
    port: {
      on: (_: 'message', l: (event: { data: HostCommand }) => void) => (listener = l),
      postMessage: (message: HostEvent) => {
        events.push(message);
        for (const w of waiters.splice(0)) w();
      },
    },
    send: (command: HostCommand) => listener!({ data: command }),
    async waitFor(pred: (e: HostEvent) => boolean, timeoutMs = 30_000): Promise<HostEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(pred);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no such event; got ${events.map((e) => e.type).join(', ')}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
  };
}

describe('the desktop sync process', () => {
  it('syncs with the window’s session, reports its status and passes, and stops on request', async () => {
    const dir = path.join(work, 'docs');
    await fsp.mkdir(path.join(dir, '子文件夹'), { recursive: true });
    await fsp.writeFile(path.join(dir, 'a.txt'), 'a');
    await fsp.writeFile(path.join(dir, '子文件夹', 'b.txt'), 'b');
    const jar = await loggedInJar(server.baseUrl, server.dataDir);
    const host = fakePort();
    runHost(host.port);
    const pair = { id: 'p1', localDir: dir, remotePath: '/桌面测试', mode: 'two-way' as const, deleteRemote: false, ignore: [], paused: false };
    host.send({
      type: 'start',
      serverUrl: server.baseUrl,
      networkEnv: 'internal',
      cookie: jar.cookie(),
      stateDir: path.join(work, 'state'),
      pairs: [pair],
      settings: { uploadLimit: 0, downloadLimit: 0, intervalMs: 3_600_000, startAtLogin: false },
    });
    const pass = (await host.waitFor((e) => e.type === 'pass' && e.summary.uploaded > 0)) as Extract<HostEvent, { type: 'pass' }>;
    expect(pass).toMatchObject({ pairId: 'p1', summary: { uploaded: 2, failed: 0 } });
    const status = (await host.waitFor((e) => e.type === 'status' && e.status.pairs[0]?.lastSummary?.uploaded === 2)) as Extract<HostEvent, { type: 'status' }>;
    expect(status.status.pairs[0]!.lists.successList.map((i) => i.path).sort()).toEqual(['a.txt', '子文件夹', '子文件夹/b.txt']);

    // A change is noticed by the watcher and synced without being asked.
    await fsp.writeFile(path.join(dir, 'c.txt'), 'c');
    await host.waitFor((e) => e.type === 'pass' && e.summary.uploaded === 1);

    host.send({ type: 'setPaused', paused: true });
    await host.waitFor((e) => e.type === 'status' && e.status.paused);
    host.send({ type: 'stop' });
    await host.waitFor((e) => e.type === 'stopped');
    expect(host.events.some((e) => e.type === 'error')).toBe(false);
  });

  it('holds mass deletes for 确认删除 of the list shown, restores the deletion event, and refuses a second engine on the folder', async () => {
    const dir = path.join(work, 'held');
    await fsp.mkdir(dir);
    for (let i = 0; i < 6; i++) await fsp.writeFile(path.join(dir, `f${i}.txt`), `内容 ${i}`);
    const jar = await loggedInJar(server.baseUrl, server.dataDir);
    const start = (host: ReturnType<typeof fakePort>, state: string) =>
      host.send({
        type: 'start',
        serverUrl: server.baseUrl,
        networkEnv: 'internal',
        cookie: jar.cookie(),
        stateDir: path.join(work, state),
        pairs: [{ id: 'p2', localDir: dir, remotePath: '/桌面删除', mode: 'two-way', deleteRemote: false, ignore: [], paused: false }],
        settings: { uploadLimit: 0, downloadLimit: 0, intervalMs: 3_600_000, startAtLogin: false },
      });
    const host = fakePort();
    runHost(host.port);
    start(host, 'state-held');
    await host.waitFor((e) => e.type === 'pass' && e.summary.uploaded === 6);
    const pairOf = (e: HostEvent) => (e.type === 'status' ? e.status.pairs[0] : undefined);

    // A second desktop process (another state folder) on the same folder: refused, nothing done.
    const second = fakePort();
    runHost(second.port);
    start(second, 'state-second');
    const refused = pairOf(await second.waitFor((e) => pairOf(e)?.code === 'locked'))!;
    expect(refused.message).toContain('另一个同步程序正在同步这个文件夹');
    expect(second.events.some((e) => e.type === 'pass')).toBe(false);
    second.send({ type: 'stop' });
    await second.waitFor((e) => e.type === 'stopped');

    // 4 of 6 deleted here while paused (so no pass sees only some of them): the next pass holds them.
    host.send({ type: 'setPaused', paused: true });
    await host.waitFor((e) => e.type === 'status' && e.status.paused);
    for (let i = 0; i < 4; i++) await fsp.rm(path.join(dir, `f${i}.txt`));
    host.send({ type: 'setPaused', paused: false });
    const held = pairOf(await host.waitFor((e) => pairOf(e)?.code === 'deletesHeld' && pairOf(e)?.phase === 'idle'))!;
    expect(held.heldDeletes).toMatchObject({ remoteFiles: 4, localFiles: 0, syncedFiles: 6, wholePass: false });
    expect(held.heldDeletes!.items.map((i) => i.path).sort()).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt']);

    host.send({ type: 'confirmDeletes', requestId: 1, pairId: 'p2', token: 'ffffffff' });
    expect(await host.waitFor((e) => e.type === 'done' && e.requestId === 1)).toMatchObject({ error: expect.stringContaining('已经变化') });
    host.send({ type: 'confirmDeletes', requestId: 2, pairId: 'p2', token: held.heldDeletes!.token });
    expect(await host.waitFor((e) => e.type === 'done' && e.requestId === 2)).not.toHaveProperty('error');
    await host.waitFor((e) => e.type === 'pass' && e.summary.deleted === 4);
    const after = pairOf(await host.waitFor((e) => (pairOf(e)?.deletions?.length ?? 0) > 0 && pairOf(e)?.phase === 'idle'))!;
    expect(after.heldDeletes).toBeNull();
    expect(after.deletions![0]).toMatchObject({ remote: 4, local: 0 });

    host.send({ type: 'restoreDeletion', requestId: 3, pairId: 'p2', eventId: after.deletions![0]!.id });
    expect(await host.waitFor((e) => e.type === 'done' && e.requestId === 3)).toMatchObject({ result: { restored: 4, failed: [] } });
    await host.waitFor((e) => e.type === 'pass' && e.summary.downloaded === 4);
    for (let i = 0; i < 6; i++) expect(await fsp.readFile(path.join(dir, `f${i}.txt`), 'utf8')).toBe(`内容 ${i}`);

    host.send({ type: 'stop' });
    await host.waitFor((e) => e.type === 'stopped');
    expect(host.events.some((e) => e.type === 'error')).toBe(false);
  });
});
