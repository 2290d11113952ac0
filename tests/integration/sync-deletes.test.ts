/**
 * Issue 42 with `npm run sync` on a real disk against the real server (child processes): mass deletes
 * wait for --confirm-deletes (195 of 200, a small folder emptied on either side), a confirmation lets
 * exactly the shown deletes go, a deletion event comes back in one action (cloud copies from the
 * recycle bin, local ones from the sync's own trash) with every byte as before, one engine per folder
 * (a second one refused, a SIGKILLed holder leaves no stale lock), and an unreachable server is named
 * with what failed. Contents are compared by fingerprint path by path (the server's, computed from
 * the local bytes).
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import { clientHeaders } from '../../common/api/client-env';
import type { createNodeHashPool } from '../../workers/node/hash-pool';
import type { CookieFetch } from '../../workers/node/cookie-fetch';
import { EXIT } from '../../workers/sync/exit-codes';
import type { HttpRemote } from '../../workers/sync/http-remote';
import { digestsOf } from '../sync/sim/content';
import { freePort, type ServerProcess } from '../support/drive-server';
import { adminLogin, cloudListing, spawnSyncCli, startSyncServer, stopSyncServer, withSummary, type SyncRun } from '../support/sync-cloud';

const CHUNK = 1024 * 1024;

let server: ServerProcess;
let work: string;
let jar: CookieFetch;
let pool: ReturnType<typeof createNodeHashPool>;
let remote: HttpRemote;

function startSync(args: string[], login: string[] = adminLogin(server)) {
  return spawnSyncCli([...login, ...args]);
}

async function syncOnce(dir: string, remotePath: string, extra: string[] = []): Promise<SyncRun & { summary: Record<string, number> }> {
  return withSummary(await startSync(['--dir', dir, '--remote', remotePath, '--state', `${dir}.state`, '--once', ...extra]).done);
}

/** The cloud folder's files: path → fingerprint. */
async function cloudFiles(remotePath: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [p, fingerprint] of await cloudListing({ server, jar, remote }, remotePath)) if (fingerprint !== null) out.set(p, fingerprint);
  return out;
}

/** The cloud entries' ids by path (to delete some in the cloud). */
async function cloudIds(remotePath: string): Promise<Map<string, string>> {
  const rootId = await remote.ensureRoot(remotePath, AbortSignal.timeout(30_000));
  const listed = await remote.listTree(rootId, null, AbortSignal.timeout(30_000));
  return new Map(listed.entries!.map((e) => [e.path, e.id]));
}

/** The local folder's files (the sync's own folder left out): path → fingerprint of the bytes. */
async function localFiles(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const rel of await fsp.readdir(dir, { recursive: true })) {
    const p = rel.split(path.sep).join('/');
    if (p.startsWith('.cloud-drive-sync')) continue;
    const abs = path.join(dir, rel);
    if ((await fsp.stat(abs)).isFile()) out.set(p, digestsOf(await fsp.readFile(abs), CHUNK).fingerprint);
  }
  return out;
}

/** `n` small files of distinct content under `docs/`. */
async function makeFiles(dir: string, n: number): Promise<string[]> {
  await fsp.mkdir(path.join(dir, 'docs'), { recursive: true });
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const rel = `docs/报告 ${String(i).padStart(3, '0')}.txt`;
    await fsp.writeFile(path.join(dir, rel), `第 ${i} 份 ${'内容'.repeat(i % 50)}\n`);
    names.push(rel);
  }
  return names;
}

const sorted = (m: Map<string, string>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
const waitingLines = (err: string) => err.split('\n').filter((l) => l.startsWith('waiting: delete'));
const eventIdOf = (err: string) => /--restore-deletion (\S+) 一次恢复/.exec(err)?.[1];

beforeAll(async () => {
  ({ server, work, jar, pool, remote } = await startSyncServer('drive-sync-deletes-', CHUNK));
});

afterAll(async () => {
  await stopSyncServer({ server, work, pool });
});

describe('npm run sync: deletes wait, and come back', () => {
  it('195 of 200 deleted locally: nothing is deleted until --confirm-deletes; the event is restored in one action', async () => {
    const dir = path.join(work, 'mass');
    const names = await makeFiles(dir, 200);
    expect((await syncOnce(dir, '/大量删除')).summary.uploaded).toBe(200);
    const before = await localFiles(dir);

    // Written first: a file written after the deletes may get a deleted file's inode, and be taken as it, moved.
    await fsp.writeFile(path.join(dir, 'docs/新文件.txt'), 'new while deletes wait');
    for (const rel of names.slice(5)) await fsp.rm(path.join(dir, rel));
    const heldRun = await syncOnce(dir, '/大量删除');
    expect(heldRun.code).toBe(EXIT.deletesHeld);
    expect(heldRun.summary).toMatchObject({ deleted: 0, uploaded: 1 }); // the rest of the pass went on
    expect(heldRun.err).toContain('本次同步将删除 云端 195 个文件');
    expect(heldRun.err).toContain('--confirm-deletes');
    expect(waitingLines(heldRun.err)).toHaveLength(20);
    expect((await cloudFiles('/大量删除')).size).toBe(201);

    // Asked again without confirming: still waiting, still nothing deleted.
    expect((await syncOnce(dir, '/大量删除')).code).toBe(EXIT.deletesHeld);
    expect((await cloudFiles('/大量删除')).size).toBe(201);

    const confirmed = await syncOnce(dir, '/大量删除', ['--confirm-deletes']);
    expect(confirmed.code).toBe(EXIT.ok);
    expect(confirmed.summary.deleted).toBe(195);
    expect([...(await cloudFiles('/大量删除')).keys()].sort()).toEqual([...names.slice(0, 5), 'docs/新文件.txt'].sort());
    const eventId = eventIdOf(confirmed.err);
    expect(eventId).toBeTruthy();

    // One action brings the 195 back from the recycle bin; the same run downloads them again.
    const restored = await syncOnce(dir, '/大量删除', ['--restore-deletion', eventId!]);
    expect(restored.code).toBe(EXIT.ok);
    expect(restored.err).toContain('已恢复 195 项');
    expect(restored.summary.downloaded).toBe(195);
    const local = await localFiles(dir);
    expect(sorted(local)).toEqual(sorted(new Map([...before, ['docs/新文件.txt', local.get('docs/新文件.txt')!]])));
    expect(sorted(await cloudFiles('/大量删除'))).toEqual(sorted(local));
  });

  it('8 of 8 deleted locally: the whole pass waits (an empty side), then goes on --confirm-deletes', async () => {
    const dir = path.join(work, 'small-local');
    const names = await makeFiles(dir, 8);
    await syncOnce(dir, '/清空本地');
    for (const rel of names) await fsp.rm(path.join(dir, rel));
    const held = await syncOnce(dir, '/清空本地');
    expect(held.code).toBe(EXIT.deletesHeld);
    expect(held.err).toContain('本地文件夹是空的');
    expect(held.summary.deleted).toBe(0);
    expect((await cloudFiles('/清空本地')).size).toBe(8);
    const confirmed = await syncOnce(dir, '/清空本地', ['--confirm-deletes']);
    expect(confirmed.code).toBe(EXIT.ok);
    expect(confirmed.summary.deleted).toBe(8);
    expect((await cloudFiles('/清空本地')).size).toBe(0);
  });

  it('8 of 8 deleted in the cloud: the local files stay until confirmed, are kept, and come back with both sides whole', async () => {
    const dir = path.join(work, 'small-cloud');
    const names = await makeFiles(dir, 8);
    await syncOnce(dir, '/清空云端');
    const before = await localFiles(dir);
    const ids = await cloudIds('/清空云端');
    const res = await jar.fetch(server.url + API.removeFiles, {
      method: 'POST',
      headers: { ...clientHeaders('web', 'internal'), 'content-type': 'application/json' },
      body: JSON.stringify({ ids: names.map((n) => ids.get(n)!) }),
      signal: AbortSignal.timeout(30_000),
    });
    expect(res.ok).toBe(true);

    const held = await syncOnce(dir, '/清空云端');
    expect(held.code).toBe(EXIT.deletesHeld);
    expect(held.err).toContain('云端文件夹是空的');
    expect(sorted(await localFiles(dir))).toEqual(sorted(before));

    const confirmed = await syncOnce(dir, '/清空云端', ['--confirm-deletes']);
    expect(confirmed.code).toBe(EXIT.ok);
    expect(confirmed.summary.deleted).toBe(8);
    expect((await localFiles(dir)).size).toBe(0);

    const restored = await syncOnce(dir, '/清空云端', ['--restore-deletion', 'last']);
    expect(restored.code).toBe(EXIT.ok);
    expect(restored.err).toContain('已恢复 8 项');
    expect(restored.summary.uploaded).toBe(8);
    expect(sorted(await localFiles(dir))).toEqual(sorted(before));
    expect(sorted(await cloudFiles('/清空云端'))).toEqual(sorted(before));
    // The event is used up: nothing is kept for it any more.
    expect(await fsp.readdir(path.join(dir, '.cloud-drive-sync', 'deleted')).catch(() => [])).toEqual([]);
  });

  it('--confirm-deletes confirms the deletes that were shown, not those a later pass adds', async () => {
    const dir = path.join(work, 'exact');
    const names = await makeFiles(dir, 20);
    await syncOnce(dir, '/确认范围');
    for (const rel of names.slice(0, 15)) await fsp.rm(path.join(dir, rel));
    const shown = await syncOnce(dir, '/确认范围');
    expect(shown.code).toBe(EXIT.deletesHeld);
    expect(waitingLines(shown.err)).toHaveLength(15);

    // The person deletes the rest before confirming: the 5 were never shown, and the folder is empty now.
    for (const rel of names.slice(15)) await fsp.rm(path.join(dir, rel));
    const again = await syncOnce(dir, '/确认范围', ['--confirm-deletes']);
    expect(again.code).toBe(EXIT.deletesHeld);
    expect(again.summary.deleted).toBe(0);
    expect(waitingLines(again.err).map((l) => l.replace(/^waiting: delete in the cloud: /, '')).sort()).toEqual(names.slice(15));
    expect((await cloudFiles('/确认范围')).size).toBe(20);

    const all = await syncOnce(dir, '/确认范围', ['--confirm-deletes']);
    expect(all.code).toBe(EXIT.ok);
    expect(all.summary.deleted).toBe(20);
  });
});

describe('npm run sync: one engine per folder', () => {
  it('refuses a second engine with its own exit code, and a SIGKILLed holder leaves no stale lock', async () => {
    const dir = path.join(work, 'locked');
    await makeFiles(dir, 3);
    const holder = startSync(['--dir', dir, '--remote', '/锁', '--state', path.join(work, 'lock-state-1'), '--interval', '600']);
    for (let i = 0; i < 600 && !holder.err().includes('watching'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(holder.err()).toContain('watching');

    // Another state folder (a second install, say): the folder itself is locked.
    const second = await startSync(['--dir', dir, '--remote', '/锁', '--state', path.join(work, 'lock-state-2'), '--once']).done;
    expect(second.code).toBe(EXIT.locked);
    expect(second.err).toContain('另一个同步程序正在同步这个文件夹');
    expect(second.err).toContain(`进程 ${holder.child.pid}`);
    expect(second.out).toBe(''); // nothing done, no summary

    holder.child.kill('SIGKILL');
    expect((await holder.done).signal).toBe('SIGKILL');
    const after = await syncOnce(dir, '/锁');
    expect(after.code).toBe(EXIT.ok);
    expect((await cloudFiles('/锁')).size).toBe(3);
  });
});

describe('npm run sync: an unreachable server', () => {
  it('says which address and what failed, exits 5, and --once promises no retry', async () => {
    const dir = path.join(work, 'down');
    await fsp.mkdir(dir);
    const port = await freePort(); // nothing listens there
    const url = `http://127.0.0.1:${port}`;
    const login = await startSync(['--dir', dir, '--remote', '/x', '--state', `${dir}.state`, '--once'], ['--server', url, '--user', 'admin', '--password', 'x', '--data-dir', server.dataDir]).done;
    expect(login.code).toBe(EXIT.unreachable);
    expect(login.err).toContain(`无法连接服务器 ${url}`);
    expect(login.err).toContain('ECONNREFUSED');

    const pass = await startSync(['--dir', dir, '--remote', '/x', '--state', `${dir}.state`, '--once'], ['--server', url, '--cookie', 'sid=whatever']).done;
    expect(pass.code).toBe(EXIT.unreachable);
    expect(pass.err).toContain(`无法连接服务器 ${url}`);
    expect(pass.err).toContain('ECONNREFUSED');
    expect(pass.err).not.toContain('稍后将自动重试');
  });
});
