/**
 * The desktop sync at scale (issue 17): a folder of 100,000 small files (1,000 folders of 100, 40
 * bytes to 4 KiB each) whose content the cloud folder already holds at the same paths — what a
 * reinstall, a second laptop or a restored backup meets — synced by the engine in a fresh process
 * (tests/bench/lib/sync-child.ts) against the real server (a child process).
 *  - `syncInitialScan100kMs`: the first pass on an empty journal: walk and stat every file, read and
 *    fingerprint every one, list the cloud tree, plan, and record 100,000 agreements (0 bytes sent:
 *    everything is recognised, nothing re-uploaded). Goal ≤ 30 s.
 *  - `syncIdlePass100kMs`: the next pass with nothing changed: stat every file (none read), one
 *    listing call answered "unchanged". Goal ≤ 2 s with `syncIdleBytesSent` 0.
 *  - `syncPeakMemMB`: the engine process's peak resident memory over both passes (goal ≤ 200).
 *  - `syncIdlePassFreshMs`: the idle pass in a new process (the journal loaded, the listing fetched
 *    in full once), and `syncWatchPeakMemMB` with the folder watcher on (one inotify watch per
 *    folder here: workers/sync/folder-watcher.ts).
 * The cloud side is written straight into the server's database (100,000 uploads through the API
 * would take an hour here); the fingerprints are computed from the local files, as the server would.
 * `BENCH_SYNC_FILES` changes the count (0 skips this part).
 *
 * Before that, `syncNewSmallFilesPerSecond` (issue 42): a folder of 2,000 new 4 KiB files (20 folders
 * of 100, `BENCH_SYNC_SMALL_FILES` changes the count) that the cloud does not hold yet, uploaded by
 * the engine's first pass through the real server; files per second of that pass (goal ≥ 150), with
 * the requests it took (`syncNewSmallFilesRequests`).
 */
import { spawn } from 'node:child_process';
import { chunkDigestHex } from '../../support/chunk-digest';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs, { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { API } from '../../../common/api/paths';
import { clientHeaders } from '../../../common/api/client-env';
import { FILE_CATEGORY, type FileEntry } from '../../../common/api/types';
import { fingerprintInput } from '../../../common/transfer/protocol';
import { syncEngineFlags } from '../../../common/sync/engine-flags';
import { freePort, loggedInJar, startServerProcess } from '../../support/drive-server';
import type { BenchModule, BenchRow } from '../lib/report';
import { bundleSyncChild } from '../lib/sync-child-bundle';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..');
const FILES = Number(process.env.BENCH_SYNC_FILES ?? 100_000);
const SMALL_FILES = Number(process.env.BENCH_SYNC_SMALL_FILES ?? 2_000);
const SMALL_FILE_BYTES = 4 * 1024;
const PER_FOLDER = 100;

interface ChildReport {
  first: { ms: number; summary: Record<string, number>; chunkBytes: number; requests: number };
  idle: { ms: number; summary: Record<string, number>; chunkBytes: number; requests: number };
  files: number;
  failList: unknown[];
  peakRssMB: number;
}

async function runChild(script: string, args: string[]): Promise<ChildReport> {
  // Started as the engine process is everywhere (common/sync/engine-flags.ts).
  const child = spawn(process.execPath, [...syncEngineFlags(process.env), script, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`sync child exited ${code}: ${err}`);
  return JSON.parse(out.trim().split('\n').pop()!) as ChildReport;
}

const fingerprintOf = (bytes: Buffer): string => {
  const digest = chunkDigestHex(bytes);
  return createHash('sha256').update(fingerprintInput([digest])).digest('hex');
};

export const syncBenchmark: BenchModule = {
  name: 'sync',
  columns: ['pass', 'files', 'ms', 'bytes sent', 'requests', 'peak MB'],
  async run() {
    const work = await fsp.mkdtemp(path.join(process.env.BENCH_TMPDIR ?? os.tmpdir(), 'drive-bench-sync-'));
    const server = await startServerProcess({ dataDir: path.join(work, 'server'), port: await freePort() });
    try {
      const jar = await loggedInJar(server.url, server.dataDir);
      const post = async <T>(p: string, body: unknown): Promise<T> => {
        const res = await jar.fetch(server.url + p, { method: 'POST', headers: { ...clientHeaders('desktop', 'internal'), 'content-type': 'application/json' }, body: JSON.stringify(body) });
        if (!res.ok) throw new Error(`${p}: HTTP ${res.status} ${await res.text()}`);
        return ((await res.json()) as { data: T }).data;
      };
      const cookie = jar.cookie();
      const script = await bundleSyncChild();
      const small = await newSmallFiles(work, server.url, cookie, script);
      if (FILES === 0) return { rows: [small.row], metrics: small.metrics };

      const top = await post<FileEntry>(API.mkdir, { parentId: null, category: FILE_CATEGORY.synced, name: 'bench' });

      // The local folder, and the same tree in the server's database.
      const dir = path.join(work, 'local');
      const db = new Database(path.join(server.dataDir, 'drive.sqlite'));
      const owner = db.prepare('select tenant_id, owner_id from files where id = ?').get(top.id) as { tenant_id: string; owner_id: string };
      const insertFile = db.prepare(
        `insert into files (id, tenant_id, owner_id, parent_id, category, name, name_key, is_dir, size, blob_id, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const insertBlob = db.prepare('insert into blobs (id, tenant_id, fingerprint, size, storage_key, created_at) values (?, ?, ?, ?, ?, ?)');
      const now = Date.now() - 3600_000;
      const id = () => randomBytes(16).toString('base64url');
      const generated = performance.now();
      db.transaction(() => {
        const folders = Math.ceil(FILES / PER_FOLDER);
        for (let f = 0; f < folders; f++) {
          const outer = `区域-${Math.floor(f / 50)}`;
          const inner = `文件夹 ${f}`;
          const outerPath = path.join(dir, outer);
          let outerId = (db.prepare('select id from files where parent_id = ? and name = ?').get(top.id, outer) as { id: string } | undefined)?.id;
          if (!outerId) {
            outerId = id();
            fs.mkdirSync(outerPath, { recursive: true });
            insertFile.run(outerId, owner.tenant_id, owner.owner_id, top.id, FILE_CATEGORY.synced, outer, outer.toLowerCase(), 1, 0, null, now, now);
          }
          const innerId = id();
          fs.mkdirSync(path.join(outerPath, inner));
          insertFile.run(innerId, owner.tenant_id, owner.owner_id, outerId, FILE_CATEGORY.synced, inner, inner.toLowerCase(), 1, 0, null, now, now);
          for (let i = 0; i < PER_FOLDER && f * PER_FOLDER + i < FILES; i++) {
            const name = `笔记-${f}-${i}.txt`;
            const bytes = randomBytes(40 + ((f * 131 + i * 977) % 4056));
            fs.writeFileSync(path.join(outerPath, inner, name), bytes);
            const blobId = id();
            insertBlob.run(blobId, owner.tenant_id, fingerprintOf(bytes), bytes.length, blobId, now);
            insertFile.run(id(), owner.tenant_id, owner.owner_id, innerId, FILE_CATEGORY.synced, name, name.toLowerCase(), 0, bytes.length, blobId, now, now);
          }
        }
      })();
      db.exec('analyze');
      db.close();
      const generateMs = performance.now() - generated;
      // Files older than the journal's trust window, as a folder that existed before the sync would be.
      const old = new Date(Date.now() - 3600_000);
      fs.utimesSync(dir, old, old);

      const state = path.join(work, 'state');
      const run = await runChild(script, [server.url, cookie, dir, '/bench', state]);
      if ((run.first.summary.failed ?? 0) > 0) throw new Error(`first pass failed: ${JSON.stringify(run.failList)}`);
      const fresh = await runChild(script, [server.url, cookie, dir, '/bench', state]);
      const watched = await runChild(script, [server.url, cookie, dir, '/bench', state, 'watch']);

      const row = (label: string, r: ChildReport['first'], files: number, peak: number): BenchRow => ({
        label,
        cells: { files: String(files), ms: r.ms.toFixed(0), 'bytes sent': String(r.chunkBytes), requests: String(r.requests), 'peak MB': peak.toFixed(0) },
      });
      const rows: BenchRow[] = [
        small.row,
        { label: `generate ${FILES} files + cloud rows`, cells: { files: String(FILES), ms: generateMs.toFixed(0) } },
        row('first pass (empty journal)', run.first, run.files, run.peakRssMB),
        row('idle pass (same process)', run.idle, run.files, run.peakRssMB),
        row('idle pass (new process)', fresh.first, fresh.files, fresh.peakRssMB),
        row('idle pass with the watcher on', watched.idle, watched.files, watched.peakRssMB),
      ];
      return {
        rows,
        metrics: {
          ...small.metrics,
          syncFiles: run.files,
          syncInitialScan100kMs: Math.round(run.first.ms),
          syncInitialScanBytesSent: run.first.chunkBytes,
          syncIdlePass100kMs: Math.round(run.idle.ms),
          syncIdleBytesSent: run.idle.chunkBytes,
          syncIdleRequests: run.idle.requests,
          syncIdlePassFreshMs: Math.round(fresh.first.ms),
          syncPeakMemMB: Math.round(run.peakRssMB),
          syncWatchPeakMemMB: Math.round(watched.peakRssMB),
        },
      };
    } finally {
      await server.stop();
      // BENCH_SYNC_KEEP=1 keeps the folder, the state and the server's data for profiling by hand.
      if (process.env.BENCH_SYNC_KEEP) console.log(`kept ${work}`);
      else await fsp.rm(work, { recursive: true, force: true });
    }
  },
};

/** 2,000 new small files, uploaded by one first pass (the cloud folder is new): files per second. */
async function newSmallFiles(work: string, serverUrl: string, cookie: string, script: string): Promise<{ row: BenchRow; metrics: Record<string, number> }> {
  const dir = path.join(work, 'small');
  for (let i = 0; i < SMALL_FILES; i++) {
    const folder = path.join(dir, `资料 ${Math.floor(i / PER_FOLDER)}`);
    if (i % PER_FOLDER === 0) fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `小文件-${i}.txt`), randomBytes(SMALL_FILE_BYTES));
  }
  const old = new Date(Date.now() - 3600_000);
  fs.utimesSync(dir, old, old);
  const run = await runChild(script, [serverUrl, cookie, dir, '/bench-small', path.join(work, 'small-state')]);
  const uploaded = run.first.summary.uploaded ?? 0;
  if (uploaded !== SMALL_FILES || (run.first.summary.failed ?? 0) > 0) {
    throw new Error(`small files: uploaded ${uploaded} of ${SMALL_FILES}: ${JSON.stringify(run.failList)}`);
  }
  const perSecond = SMALL_FILES / (run.first.ms / 1000);
  return {
    row: {
      label: `${SMALL_FILES} new 4 KiB files (${perSecond.toFixed(0)}/s)`,
      cells: { pass: 'first (upload)', files: String(SMALL_FILES), ms: run.first.ms.toFixed(0), 'bytes sent': String(run.first.chunkBytes), requests: String(run.first.requests), 'peak MB': run.peakRssMB.toFixed(0) },
    },
    metrics: { syncNewSmallFilesPerSecond: Math.round(perSecond), syncNewSmallFilesRequests: run.first.requests },
  };
}
