/**
 * Names and small files, on a real disk (ext4: case-sensitive) against the real server, two laptops
 * of one account (issue 42):
 *  - a case-only pair and an NFC/NFD pair of names, files and folders: both kept, in the cloud and on
 *    both laptops after a round trip, one renamed aside with a visible suffix, and nothing renamed
 *    again on later passes;
 *  - names another computer cannot hold (`:`, `"`) and names the server refuses: listed as failed
 *    with the file and the rule named, never uploaded, never deleted;
 *  - small new files go up in batches through the web app's batch endpoint (requests counted);
 *  - a sparse file's all-zero chunks are not sent, its zero runs are holes on the server, and it comes
 *    down to the other laptop sparse (allocated blocks counted with stat), byte for byte the same.
 */
import { createHash } from 'node:crypto';
import fs, { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { SyncPairConfig, SyncPassSummary } from '../../common/sync/types';
import type { CookieFetch } from '../../workers/node/cookie-fetch';
import { startNodeSync, type NodeSync } from '../../workers/sync/node-runtime';
import { listFilesUnder, loggedInJar } from '../support/drive-server';
import { startServer, type TestServer } from '../server/helpers';

let server: TestServer;
let work: string;

beforeAll(async () => {
  server = await startServer();
  work = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-sync-names-'));
});

afterAll(async () => {
  server?.app.server.closeAllConnections();
  await server?.close();
  await fsp.rm(work, { recursive: true, force: true });
});

interface Laptop {
  dir: string;
  jar: CookieFetch;
  sync: NodeSync;
  /** Paths of the requests sent, in order. */
  requests: string[];
  pass(): Promise<SyncPassSummary>;
}

/** One laptop syncing `remotePath` two-way into its own folder, with every request's path noted. */
async function laptop(name: string, remotePath: string): Promise<Laptop> {
  const dir = path.join(work, name);
  await fsp.mkdir(dir, { recursive: true });
  const jar = await loggedInJar(server.baseUrl, server.dataDir);
  const requests: string[] = [];
  const counted: CookieFetch = {
    ...jar,
    fetch: (input, init) => {
      requests.push(new URL(String(input)).pathname);
      return jar.fetch(input, init);
    },
    countRequest: (url, bytes) => {
      requests.push(new URL(url).pathname);
      jar.countRequest(url, bytes);
    },
  };
  const pair: SyncPairConfig = { id: name, localDir: dir, remotePath, mode: 'two-way', deleteRemote: false, ignore: [], paused: false };
  const sync = startNodeSync({
    serverUrl: server.baseUrl,
    jar: counted,
    stateDir: path.join(work, `${name}-state`),
    pairs: [pair],
    settings: { uploadLimit: 0, downloadLimit: 0, intervalMs: 3_600_000, startAtLogin: false },
    watch: false,
  });
  return { dir, jar, sync, requests, pass: () => sync.engine.runOnce() };
}

/** Every file under `dir` (the sync's own folder left out) with its text, by path as spelled. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const rel of await listFilesUnder(dir)) {
    if (rel.startsWith('.cloud-drive-sync')) continue;
    out[rel] = await fsp.readFile(path.join(dir, rel), 'utf8');
  }
  return out;
}

async function write(dir: string, rel: string, text: string): Promise<void> {
  await fsp.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
  await fsp.writeFile(path.join(dir, rel), text);
}

const NFC = 'Café'.normalize('NFC');
const NFD = 'Café'.normalize('NFD');

describe('sync names on a real disk, two laptops', () => {
  it('keeps both of a case-only pair and of an NFC/NFD pair, in the cloud and on both laptops, and renames nothing twice', async () => {
    const a = await laptop('a-twins', '/名称/双胞胎');
    const b = await laptop('b-twins', '/名称/双胞胎');
    try {
      await write(a.dir, 'A.txt', 'upper');
      await write(a.dir, 'a.txt', 'lower');
      await write(a.dir, `${NFC}.txt`, 'nfc');
      await write(a.dir, `${NFD}.txt`, 'nfd');
      await write(a.dir, 'Docs/x.txt', 'x');
      await write(a.dir, 'docs/y.txt', 'y');

      const first = await a.pass();
      expect(first.failed).toBe(0);
      const expected = {
        'A.txt': 'upper',
        'a（大小写冲突）.txt': 'lower',
        [`${NFC}.txt`]: 'nfc',
        [`${NFD}（编码冲突）.txt`]: 'nfd',
        'Docs/x.txt': 'x',
        'docs（大小写冲突）/y.txt': 'y',
      };
      expect(await tree(a.dir)).toEqual(expected);

      // Laptop B gets all six (the server spells names in NFC).
      await b.pass();
      const onB = Object.fromEntries(Object.entries(expected).map(([p, t]) => [p.normalize('NFC'), t]));
      expect(await tree(b.dir)).toEqual(onB);

      // Later passes on both: nothing moves, nothing is renamed again.
      const again = await a.pass();
      expect(again).toMatchObject({ uploaded: 0, downloaded: 0, moved: 0, deleted: 0, conflicts: 0, failed: 0 });
      expect((await b.pass())).toMatchObject({ uploaded: 0, downloaded: 0, moved: 0, deleted: 0, conflicts: 0, failed: 0 });
      expect(await tree(a.dir)).toEqual(expected);
    } finally {
      await a.sync.close();
      await b.sync.close();
    }
  }, 120_000);

  it('never brings into the cloud a name another computer cannot hold or the server refuses, says which rule, and deletes nothing', async () => {
    const a = await laptop('a-odd', '/名称/特殊');
    const b = await laptop('b-odd', '/名称/特殊');
    try {
      const odd = ['10:30 会议.txt', 'say "hi".txt', 'CON.txt', 'trail.', 'x,y.txt'];
      for (const name of odd) await write(a.dir, name, name);
      await write(a.dir, 'ok.txt', 'ok');
      const summary = await a.pass();
      expect(summary).toMatchObject({ uploaded: 1, failed: odd.length });
      const fails = a.sync.engine.status().pairs[0]!.lists.failList;
      expect(fails.find((f) => f.path === '10:30 会议.txt')?.reason).toBe('无法上传“10:30 会议.txt”：名称含有 Windows 电脑无法保存的字符（: 或 "）。请重命名该文件');
      expect(fails.find((f) => f.path === 'CON.txt')?.reason).toContain('系统保留名');
      expect(fails.find((f) => f.path === 'trail.')?.reason).toContain('点号结尾');
      await b.pass();
      expect(await tree(b.dir)).toEqual({ 'ok.txt': 'ok' });
      await a.pass();
      expect(Object.keys(await tree(a.dir)).sort()).toEqual([...odd, 'ok.txt'].sort());
    } finally {
      await a.sync.close();
      await b.sync.close();
    }
  }, 120_000);

  it('sends small new files in batches, a larger one the chunked way', async () => {
    const a = await laptop('a-batch', '/名称/批量');
    try {
      for (let i = 0; i < 30; i++) await write(a.dir, `笔记/${i}.txt`, `note ${i} `.repeat(50));
      await fsp.writeFile(path.join(a.dir, 'big.bin'), Buffer.alloc(2 * 1024 * 1024 + 5, 7));
      a.requests.length = 0;
      const summary = await a.pass();
      expect(summary).toMatchObject({ uploaded: 31, failed: 0 });
      expect(a.requests.filter((p) => p === API.batchUpload)).toHaveLength(1);
      expect(a.requests.filter((p) => p === API.chunkExist)).toHaveLength(1);
      // Before batches: five requests per small file (upload config, second upload, chunk/exist, chunk, merge).
      expect(a.requests.length).toBeLessThan(20);
      const b = await laptop('b-batch', '/名称/批量');
      try {
        await b.pass();
        expect(await tree(b.dir)).toEqual(await tree(a.dir));
      } finally {
        await b.sync.close();
      }
    } finally {
      await a.sync.close();
    }
  }, 120_000);

  it('keeps a sparse file sparse: its zero chunks are not sent, its zero runs are holes on the server and on the other laptop', async () => {
    // 72 MiB (a new file this large is otherwise hashed while it uploads); data in 3 of its 18 chunks of 4 MiB.
    const size = 72 * 1024 * 1024;
    const a = await laptop('a-sparse', '/名称/稀疏');
    const b = await laptop('b-sparse', '/名称/稀疏');
    try {
      const file = path.join(a.dir, 'disk.img');
      const handle = await fsp.open(file, 'w');
      await handle.truncate(size);
      await handle.write(Buffer.from('head of the image'), 0, 17, 0);
      await handle.write(Buffer.alloc(100_000, 9), 0, 100_000, 20 * 1024 * 1024 + 123);
      await handle.write(Buffer.from('tail'), 0, 4, size - 4);
      await handle.close();
      expect(allocated(file)).toBeLessThan(1024 * 1024);
      const stored = storedBytes();
      a.jar.resetCounters();
      expect(await a.pass()).toMatchObject({ uploaded: 1, failed: 0 });
      // Only the three chunks holding data went on the wire.
      expect(a.jar.counters.chunkBytes).toBe(3 * 4 * 1024 * 1024);
      // The server's disk grew by the data, not by 48 MiB of zeros.
      expect(storedBytes() - stored).toBeLessThan(4 * 1024 * 1024);
      expect(await b.pass()).toMatchObject({ downloaded: 1, failed: 0 });
      const copy = path.join(b.dir, 'disk.img');
      expect(fs.statSync(copy).size).toBe(size);
      expect(allocated(copy)).toBeLessThan(1024 * 1024);
      expect(sha256(copy)).toBe(sha256(file));
    } finally {
      await a.sync.close();
      await b.sync.close();
    }
  }, 180_000);
});

/** Bytes the file system allocated for a file (holes take none). */
function allocated(file: string): number {
  return fs.statSync(file).blocks * 512;
}

/** Bytes the server's data folder takes on disk (its blobs, upload chunks and database). */
function storedBytes(): number {
  let total = 0;
  for (const e of fs.readdirSync(server.dataDir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) total += allocated(path.join(e.parentPath, e.name));
  }
  return total;
}

function sha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}
