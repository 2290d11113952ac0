/**
 * `npm run sync` on a real disk against the real server (a child process, so it can be killed and
 * restarted): a tree of nested folders with odd names, both directions and a conflict, edits while a
 * pass runs, a SIGKILL in the middle of an upload and the restart (nothing the server holds is sent
 * again), the server restarted in the middle of a pass, and a graceful stop on SIGINT.
 */
import fs, { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeChunkTransport } from '../../workers/node/chunk-transport';
import { engineConfigFor } from '../../workers/node/engine-config';
import type { createNodeHashPool } from '../../workers/node/hash-pool';
import type { CookieFetch } from '../../workers/node/cookie-fetch';
import { HttpRemote } from '../../workers/sync/http-remote';
import { digestsOf } from '../sync/sim/content';
import { loggedInJar, sha256OfFile, startServerProcess, writeGeneratedFile, type ServerProcess } from '../support/drive-server';
import { adminLogin, chunkBytesReceived as chunkBytesReceivedBy, cloudListing, spawnSyncCli, startSyncServer, stopSyncServer, withSummary, type SyncRun } from '../support/sync-cloud';

const CHUNK = 1024 * 1024;

let server: ServerProcess;
let work: string;
let jar: CookieFetch;
let pool: ReturnType<typeof createNodeHashPool>;
let remote: HttpRemote;

const startSync = (args: string[]) => spawnSyncCli([...adminLogin(server), ...args]);

async function syncOnce(dir: string, remotePath: string, state: string, extra: string[] = []): Promise<SyncRun & { summary: Record<string, number> }> {
  return withSummary(await startSync(['--dir', dir, '--remote', remotePath, '--state', state, '--once', ...extra]).done);
}

const listing = (remotePath: string) => cloudListing({ server, jar, remote }, remotePath);

async function localTree(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { recursive: true });
  return entries.map((e) => e.split(path.sep).join('/')).filter((e) => !e.startsWith('.cloud-drive-sync')).sort();
}

const chunkBytesReceived = () => chunkBytesReceivedBy(server.url, jar);

beforeAll(async () => {
  ({ server, work, jar, pool, remote } = await startSyncServer('drive-sync-cmd-', CHUNK));
});

afterAll(async () => {
  await stopSyncServer({ server, work, pool });
});

describe('npm run sync', () => {
  it('uploads a nested tree with odd names, downloads, keeps both sides of a conflict, and idles at zero', async () => {
    const a = path.join(work, 'laptop-a');
    const b = path.join(work, 'laptop-b');
    const nfd = 'Cafe\u0301 résumé.txt'.normalize('NFD');
    const files: Record<string, string> = {
      '报告/2024 年/第一季度.docx': 'q1',
      '报告/2024 年/two  spaces inside.txt': 'spaces',
      [`报告/${nfd}`]: 'nfd',
      'deep/a/b/c/d/e/f.txt': 'deep',
      'emoji 😀/x.md': 'emoji',
      '.hidden/conf': 'hidden',
      'empty.txt': '',
      [`${'长'.repeat(80)}.txt`]: 'long',
    };
    for (const [rel, text] of Object.entries(files)) {
      await fsp.mkdir(path.dirname(path.join(a, rel)), { recursive: true });
      await fsp.writeFile(path.join(a, rel), text);
    }
    await fsp.mkdir(path.join(a, '空文件夹'), { recursive: true });
    await fsp.writeFile(path.join(a, '~$临时.docx'), 'office lock'); // ignored
    await fsp.writeFile(path.join(a, 'x,y.txt'), 'refused name'); // the server refuses ',': failed, exit 1
    fs.symlinkSync('/etc/hostname', path.join(a, 'link')); // skipped, not failed

    const first = await syncOnce(a, '/命令测试', path.join(work, 'state-a'));
    expect(first.summary).toMatchObject({ uploaded: Object.keys(files).length, failed: 1, conflicts: 0 });
    expect(first.code).toBe(1);
    expect(first.err).toContain('x,y.txt');
    const cloud = await listing('/命令测试');
    for (const rel of Object.keys(files)) expect(cloud.has(rel.normalize('NFC')), rel).toBe(true);
    expect(cloud.has('空文件夹')).toBe(true);
    expect(cloud.has('~$临时.docx')).toBe(false);
    expect(cloud.has('link')).toBe(false);

    // Nothing changed: nothing sent, nothing done.
    await fsp.rm(path.join(a, 'x,y.txt'));
    const sentBefore = await chunkBytesReceived();
    const idle = await syncOnce(a, '/命令测试', path.join(work, 'state-a'));
    expect(idle.code).toBe(0);
    expect(idle.summary).toEqual({ uploaded: 0, downloaded: 0, moved: 0, deleted: 0, conflicts: 0, failed: 0, intercepted: 0 });
    expect(await chunkBytesReceived()).toBe(sentBefore);

    // A second laptop gets everything; an edit there comes back to the first; both editing → both kept.
    await fsp.mkdir(b);
    const down = await syncOnce(b, '/命令测试', path.join(work, 'state-b'));
    expect(down.code).toBe(0);
    expect(down.summary.downloaded).toBe(Object.keys(files).length);
    expect(await localTree(b)).toEqual((await localTree(a)).filter((p) => !p.startsWith('~$') && p !== 'link').map((p) => p.normalize('NFC')).sort());
    await fsp.writeFile(path.join(b, 'deep/a/b/c/d/e/f.txt'), 'edited on b');
    await syncOnce(b, '/命令测试', path.join(work, 'state-b'));
    expect((await syncOnce(a, '/命令测试', path.join(work, 'state-a'))).summary.downloaded).toBe(1);
    expect(await fsp.readFile(path.join(a, 'deep/a/b/c/d/e/f.txt'), 'utf8')).toBe('edited on b');

    await fsp.writeFile(path.join(a, 'empty.txt'), 'a wins?');
    await fsp.writeFile(path.join(b, 'empty.txt'), 'b wins?');
    await syncOnce(b, '/命令测试', path.join(work, 'state-b'));
    const clash = await syncOnce(a, '/命令测试', path.join(work, 'state-a'));
    expect(clash.summary.conflicts).toBe(1);
    await syncOnce(b, '/命令测试', path.join(work, 'state-b'));
    for (const dir of [a, b]) {
      const copies = (await fsp.readdir(dir)).filter((n) => n.startsWith('empty (冲突副本 admin '));
      expect(copies, dir).toHaveLength(1);
      expect(await fsp.readFile(path.join(dir, copies[0]!), 'utf8')).toBe('a wins?');
      expect(await fsp.readFile(path.join(dir, 'empty.txt'), 'utf8')).toBe('b wins?');
    }
  });

  it('takes a file edited while the pass runs only as a whole, and the next pass sends the rest', async () => {
    const dir = path.join(work, 'edits');
    await fsp.mkdir(dir);
    const file = path.join(dir, 'growing.log');
    await fsp.writeFile(file, 'start\n');
    const run = startSync(['--dir', dir, '--remote', '/写入中', '--state', path.join(work, 'state-edits'), '--once']);
    // Another program keeps appending while the command runs.
    const writer = setInterval(() => fs.appendFileSync(file, `${'x'.repeat(2000)}\n`), 5);
    const first = await run.done;
    clearInterval(writer);
    expect([0, 1]).toContain(first.code);
    const settled = await syncOnce(dir, '/写入中', path.join(work, 'state-edits'));
    expect(settled.code).toBe(0);
    const cloud = await listing('/写入中');
    const { fingerprint } = digestsOf(await fsp.readFile(file), CHUNK);
    expect(cloud.get('growing.log')).toBe(fingerprint);
  });

  it('after a SIGKILL in the middle of an upload, the restart sends only what the server does not hold', async () => {
    const dir = path.join(work, 'killed');
    await fsp.mkdir(dir);
    const size = 24 * CHUNK + 123;
    await writeGeneratedFile(path.join(dir, 'big.bin'), size);
    const before = await chunkBytesReceived();
    // 4 MB/s: the upload takes ~6 s; killed after about a third.
    const run = startSync(['--dir', dir, '--remote', '/中断', '--state', path.join(work, 'state-killed'), '--up-limit', String(4 * 1024 * 1024), '--once']);
    for (let i = 0; i < 300 && (await chunkBytesReceived()) - before < 8 * CHUNK; i++) await new Promise((r) => setTimeout(r, 50));
    run.child.kill('SIGKILL');
    const killed = await run.done;
    expect(killed.signal).toBe('SIGKILL');
    const sentBeforeRestart = (await chunkBytesReceived()) - before;
    expect(sentBeforeRestart).toBeGreaterThanOrEqual(8 * CHUNK);
    expect(sentBeforeRestart).toBeLessThan(size);

    const again = await syncOnce(dir, '/中断', path.join(work, 'state-killed'));
    expect(again.code).toBe(0);
    expect(again.summary.uploaded).toBe(1);
    const total = (await chunkBytesReceived()) - before;
    // Resumed: at most a few chunks (those in flight when killed) go twice.
    expect(total).toBeLessThan(size + 4 * CHUNK);
    const cloud = await listing('/中断');
    expect(cloud.get('big.bin')).toBe(digestsOf(await fsp.readFile(path.join(dir, 'big.bin')), CHUNK).fingerprint);
    expect(await sha256OfFile(path.join(dir, 'big.bin'))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('rides out a server restart in the middle of a pass, and stops cleanly on SIGINT', async () => {
    const dir = path.join(work, 'restart');
    await fsp.mkdir(dir);
    for (let i = 0; i < 5; i++) await writeGeneratedFile(path.join(dir, `f${i}.bin`), 3 * CHUNK + i);
    const run = startSync(['--dir', dir, '--remote', '/重启', '--state', path.join(work, 'state-restart'), '--up-limit', String(3 * 1024 * 1024), '--interval', '2']);
    const before = await chunkBytesReceived();
    for (let i = 0; i < 300 && (await chunkBytesReceived()) - before < 2 * CHUNK; i++) await new Promise((r) => setTimeout(r, 50));
    await server.kill();
    server = await startServerProcess({ dataDir: server.dataDir, port: server.port, env: { CHUNK_SIZE: String(CHUNK) } });
    jar = await loggedInJar(server.url, server.dataDir);
    remote = new HttpRemote({ config: engineConfigFor(server.url), jar, transport: createNodeChunkTransport(jar), hashChunk: pool.hashChunk, hashConcurrency: 1 });
    // The running command finds its session still valid (sessions are in the database) and goes on.
    let cloud = new Map<string, string | null>();
    for (let i = 0; i < 600 && cloud.size < 5; i++) {
      await new Promise((r) => setTimeout(r, 100));
      cloud = await listing('/重启').catch(() => cloud);
    }
    expect([...cloud.keys()].sort()).toEqual(['f0.bin', 'f1.bin', 'f2.bin', 'f3.bin', 'f4.bin']);
    run.child.kill('SIGINT');
    const stopped = await run.done;
    expect(stopped.code).toBe(0);
    expect(stopped.err).toContain('finishing the transfer in flight');
  });
});
