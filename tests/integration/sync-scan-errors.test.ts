/**
 * Issue 42 against the real server, `npm run sync -- --once` on a real disk (a child process):
 *  - a synced folder that cannot be read (mode 000, the engine run as an unprivileged user: as root
 *    the mode stops nothing) is listed as failed with its reason, the run exits non-zero, and nothing
 *    under it is deleted — not in the cloud, not on a second laptop; a file that cannot be read is
 *    kept the same way; once readable again, nothing was lost;
 *  - a file overwritten in the middle of its upload is uploaded again within the run once it
 *    settles: the cloud ends with the file's final bytes, and the JSON says uploaded 1;
 *  - a run that ends in an error (the server gone in the middle) reports what it did before.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import { clientHeaders } from '../../common/api/client-env';
import { FILE_CATEGORY, type SynContentResponse } from '../../common/api/types';
import type { CookieFetch } from '../../workers/node/cookie-fetch';
import { EXIT } from '../../workers/sync/exit-codes';
import { digestsOf } from '../sync/sim/content';
import { freePort, loggedInJar, startServerProcess, writeGeneratedFile, type ServerProcess } from '../support/drive-server';
import { chunkBytesReceived as chunkBytesReceivedBy, pathsOfListing } from '../support/sync-cloud';
import { giveTo, unprivilegedUser, type Unprivileged } from '../support/unprivileged';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const CHUNK = 1024 * 1024;

let server: ServerProcess;
let work: string;
let jar: CookieFetch;
let user: Unprivileged;

interface Run {
  code: number | null;
  out: string;
  err: string;
  summary: Record<string, number>;
}

/** `npm run sync -- --once` as a child (as `as` when given), with the test's session cookie. */
function startSync(dir: string, remotePath: string, state: string, options: { as?: Unprivileged; extra?: string[] } = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'workers/sync/cli.ts', '--server', server.url, '--cookie', jar.cookie(), '--dir', dir, '--remote', remotePath, '--state', state, '--once', ...(options.extra ?? [])], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOME: path.dirname(state) },
    ...(options.as ? { uid: options.as.uid, gid: options.as.gid } : {}),
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const done = once(child, 'exit').then(([code]): Run => {
    const line = out.trim().split('\n').pop() ?? '';
    let summary: Record<string, number>;
    try {
      summary = JSON.parse(line) as Record<string, number>;
    } catch {
      throw new Error(`no JSON line (exit ${String(code)}):\n${out}\n${err}`);
    }
    return { code: code as number | null, out, err, summary };
  });
  return { child, done };
}

const syncOnce = (dir: string, remotePath: string, state: string, options: { as?: Unprivileged; extra?: string[] } = {}) => startSync(dir, remotePath, state, options).done;

/** Path → fingerprint of everything under the cloud folder (null for folders). */
async function cloud(remotePath: string): Promise<Map<string, string | null>> {
  const post = async <T>(api: string, body: unknown): Promise<T> => {
    const res = await jar.fetch(server.url + api, {
      method: 'POST',
      headers: { ...clientHeaders('desktop', 'internal'), 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    return ((await res.json()) as { data: T }).data;
  };
  let parentId: string | null = null;
  for (const name of remotePath.split('/').filter(Boolean)) {
    const page: { items: Array<{ id: string; name: string }> } = await post(API.fileList, { parentId, category: FILE_CATEGORY.synced, cursor: null, pageSize: 200 });
    const found = page.items.find((e) => e.name === name);
    if (!found) return new Map();
    parentId = found.id;
  }
  const answer = await post<SynContentResponse>(API.syncContent, { rootId: parentId });
  return pathsOfListing(parentId!, answer.items);
}

const chunkBytesReceived = () => chunkBytesReceivedBy(server.url, jar);

const fingerprintOfFile = async (file: string) => digestsOf(await fsp.readFile(file), CHUNK).fingerprint;

beforeAll(async () => {
  // First: without a user the permissions bind, the test below would prove nothing. This throws.
  user = unprivilegedUser();
  work = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-sync-scan-'));
  await fsp.chmod(work, 0o755);
  server = await startServerProcess({ dataDir: path.join(work, 'server'), port: await freePort(), env: { CHUNK_SIZE: String(CHUNK) } });
  jar = await loggedInJar(server.url, server.dataDir);
});

afterAll(async () => {
  await server?.stop();
  if (work) {
    for (const locked of [path.join(work, 'user', 'laptop-a', 'locked')]) await fsp.chmod(locked, 0o755).catch(() => undefined);
    await fsp.rm(work, { recursive: true, force: true });
  }
});

describe('npm run sync: scan errors are never deletions, nothing is dropped silently', () => {
  it('an unreadable folder (engine as an unprivileged user) fails the run and deletes nothing under it, here or on another laptop', async () => {
    const home = path.join(work, 'user');
    const a = path.join(home, 'laptop-a');
    const b = path.join(home, 'laptop-b');
    await fsp.mkdir(path.join(a, 'locked', 'sub'), { recursive: true });
    await fsp.mkdir(b, { recursive: true });
    await fsp.writeFile(path.join(a, 'locked', 'inner.txt'), 'inner');
    await fsp.writeFile(path.join(a, 'locked', 'sub', 'deep.txt'), 'deep');
    await fsp.writeFile(path.join(a, 'open.txt'), 'open');
    await fsp.writeFile(path.join(a, 'secret.txt'), 'secret v1');
    giveTo(user, home);
    const stateA = path.join(home, 'state-a');
    const stateB = path.join(home, 'state-b');

    const first = await syncOnce(a, '/扫描错误', stateA, { as: user });
    expect(first.code, first.err).toBe(EXIT.ok);
    expect(first.summary.uploaded).toBe(4);
    expect((await syncOnce(b, '/扫描错误', stateB, { as: user })).summary.downloaded).toBe(4);
    const synced = await cloud('/扫描错误');

    // The folder becomes unreadable; a file is changed and made unreadable too.
    await fsp.chmod(path.join(a, 'locked'), 0o000);
    await fsp.writeFile(path.join(a, 'secret.txt'), 'secret v2, unreadable');
    await fsp.chmod(path.join(a, 'secret.txt'), 0o000);
    const locked = await syncOnce(a, '/扫描错误', stateA, { as: user });
    expect(locked.code).toBe(EXIT.failed);
    expect(locked.summary).toMatchObject({ deleted: 0, uploaded: 0, moved: 0 });
    expect(locked.summary.failed).toBeGreaterThanOrEqual(2);
    expect(locked.err).toMatch(/failed: locked: 没有权限读取文件夹“locked”：.*同步/);
    expect(locked.err).toMatch(/failed: secret\.txt: 没有权限读写“secret\.txt”：/);
    expect(await cloud('/扫描错误')).toEqual(synced);

    // The other laptop keeps everything.
    const other = await syncOnce(b, '/扫描错误', stateB, { as: user });
    expect(other.summary).toMatchObject({ deleted: 0, failed: 0 });
    expect(await fsp.readFile(path.join(b, 'locked', 'inner.txt'), 'utf8')).toBe('inner');
    expect(await fsp.readFile(path.join(b, 'locked', 'sub', 'deep.txt'), 'utf8')).toBe('deep');

    // Readable again: nothing lost, nothing to delete; the changed file goes up.
    await fsp.chmod(path.join(a, 'locked'), 0o755);
    await fsp.chmod(path.join(a, 'secret.txt'), 0o644);
    const again = await syncOnce(a, '/扫描错误', stateA, { as: user });
    expect(again.code, again.err).toBe(EXIT.ok);
    expect(again.summary).toMatchObject({ deleted: 0, uploaded: 1, failed: 0 });
    expect((await cloud('/扫描错误')).get('locked/inner.txt')).toBe(synced.get('locked/inner.txt'));
  });

  it('a file overwritten in the middle of its upload is uploaded again once it settles, within the run', async () => {
    const dir = path.join(work, 'changing');
    await fsp.mkdir(dir);
    const file = path.join(dir, 'big.bin');
    const size = 48 * CHUNK;
    await writeGeneratedFile(file, size);
    const before = await chunkBytesReceived();
    // 8 MB/s: the upload takes ~6 s; 1 MB in the middle is overwritten once 8 MB have arrived.
    const run = startSync(dir, '/上传中被修改', path.join(work, 'state-changing'), { extra: ['--up-limit', String(8 * CHUNK)] });
    for (let i = 0; i < 600 && (await chunkBytesReceived()) - before < 8 * CHUNK; i++) await new Promise((r) => setTimeout(r, 25));
    expect((await chunkBytesReceived()) - before).toBeLessThan(size);
    const handle = await fsp.open(file, 'r+');
    await handle.write(randomBytes(CHUNK), 0, CHUNK, 32 * CHUNK + 4096);
    await handle.close();
    const done = await run.done;
    expect(done.code, done.err).toBe(EXIT.ok);
    expect(done.summary).toMatchObject({ uploaded: 1, failed: 0 });
    expect((await cloud('/上传中被修改')).get('big.bin')).toBe(await fingerprintOfFile(file));
  });

  it('a run that ends in an error (server gone) reports the files it did upload', async () => {
    const dir = path.join(work, 'interrupted');
    await fsp.mkdir(dir);
    for (let i = 1; i <= 5; i++) await fsp.writeFile(path.join(dir, `a${i}.txt`), `small ${i}`);
    await writeGeneratedFile(path.join(dir, 'z-big.bin'), 40 * CHUNK);
    // 2 MB/s: the small files are up at once, the big one takes ~20 s.
    const run = startSync(dir, '/中途出错', path.join(work, 'state-interrupted'), { extra: ['--up-limit', String(2 * CHUNK)] });
    let listed = new Map<string, string | null>();
    for (let i = 0; i < 600 && [...listed.keys()].filter((p) => p.startsWith('a')).length < 5; i++) {
      await new Promise((r) => setTimeout(r, 50));
      listed = await cloud('/中途出错');
    }
    expect([...listed.keys()].filter((p) => p.startsWith('a')).sort()).toEqual(['a1.txt', 'a2.txt', 'a3.txt', 'a4.txt', 'a5.txt']);
    expect(listed.has('z-big.bin')).toBe(false);
    await server.kill();
    const done = await run.done;
    expect(done.code).toBe(EXIT.unreachable);
    expect(done.summary.uploaded).toBe(5);
    expect(done.summary.failed).toBeGreaterThanOrEqual(1);
  });
});
