/**
 * The server (a child process) is SIGKILLed while the engine uploads a 40 MiB file, then restarted
 * on the same DATA_DIR and port. The engine must carry on by itself (its own retries), finish
 * byte-exact, and re-send at most `chunkConcurrency` chunks; the server must be left without
 * orphan upload rows, blobs or chunk files.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_SIZE } from '../../common/transfer/chunk-policy';
import { createNodeEngine, waitUntilSettled } from '../replay/engine-harness';
import { openFileSource } from '../replay/node-runtime';
import {
  downloadSha256,
  freePort,
  listFilesUnder,
  loggedInJar,
  startServerProcess,
  withServerDb,
  writeRandomFile,
  type ServerProcess,
} from '../support/drive-server';
import { FAST_STALL_TIMEOUT_MS } from '../support/engine-deps';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';

const MiB = 1024 * 1024;
const SIZE = 40 * MiB + 333;
const CHUNK_CONCURRENCY = 3;

let dir: string;
let dataDir: string;
let port: number;
let server: ServerProcess | undefined;
let proxy: FaultProxy;
let sourceSha: string;

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-crash-'));
  dataDir = path.join(dir, 'data');
  port = await freePort();
  server = await startServerProcess({ dataDir, port });
  proxy = await startFaultProxy({ target: server.url, faultRate: 0 });
  sourceSha = await writeRandomFile(path.join(dir, 'big.bin'), SIZE);
});

afterAll(async () => {
  await proxy?.close();
  await server?.stop();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

describe('engine across a server crash', () => {
  it('resumes after SIGKILL + restart, re-sends at most the chunks in flight, leaves no orphans', async () => {
    const jar = await loggedInJar(server!.url, dataDir);
    // Real backoff schedule with fixed jitter (0.5): 250, 500, 1000, 2000 ms... outlasts a restart.
    const { engine, db, close } = createNodeEngine(proxy.url, jar, {
      chunkConcurrency: CHUNK_CONCURRENCY,
      random: () => 0.5,
      stallTimeoutMs: FAST_STALL_TIMEOUT_MS,
    });
    try {
      const [id] = await engine.enqueueUploads([await openFileSource(path.join(dir, 'big.bin'))], { parentId: null, category: 1 });
      let killedAt = -1;
      let storedAtKill = -1;
      let uploadId = '';
      let restarted: Promise<void> | null = null;
      const snapshot = await waitUntilSettled(engine, {
        ids: [id!],
        timeoutMs: 120_000,
        pollMs: 20,
        onSnapshot: async (s) => {
          const item = s.items[0]!;
          if (killedAt < 0 && item.bytesDone >= SIZE / 2) {
            killedAt = item.bytesDone;
            await server!.kill();
            uploadId = (await db.uploads.get(id!))!.uploadId!;
            storedAtKill = await withServerDb(dataDir, (sql) => {
              const row = sql.prepare('select coalesce(sum(size), 0) as bytes from upload_chunks where upload_id = ?').get(uploadId) as { bytes: number };
              return Number(row.bytes);
            });
            // Restart in the background: the engine meets 502s meanwhile and must retry by itself.
            restarted = (async () => {
              await new Promise((r) => setTimeout(r, 300));
              server = await startServerProcess({ dataDir, port });
              proxy.resetCounters();
            })();
          }
        },
      });
      await restarted;
      const item = snapshot.items[0]!;
      expect(killedAt, 'the server was killed mid-upload').toBeGreaterThan(0);
      expect(item.state, item.lastError ?? '').toBe('done');

      const got = await downloadSha256(server!.url, jar, item.fileId!);
      expect(got).toEqual({ sha256: sourceSha, size: SIZE });

      const neededAfterRestart = SIZE - storedAtKill;
      const resent = proxy.counters.chunkBytesForwarded - neededAfterRestart;
      console.info(
        `crash: killed at ${killedAt} B confirmed, server held ${storedAtKill} B; after restart forwarded ` +
          `${proxy.counters.chunkBytesForwarded} B, needed ${neededAfterRestart} B → re-sent ${resent} B`,
      );
      expect(resent).toBeLessThanOrEqual(CHUNK_CONCURRENCY * DEFAULT_CHUNK_SIZE);

      // No orphans: the finished upload's rows are gone, every blob belongs to a file and exists on disk.
      await server!.stop();
      const db2 = await withServerDb(dataDir, (sql) => ({
        uploads: (sql.prepare('select count(*) as n from uploads').get() as { n: number }).n,
        chunks: (sql.prepare('select count(*) as n from upload_chunks').get() as { n: number }).n,
        unreferencedBlobs: (
          sql.prepare('select count(*) as n from blobs where id not in (select blob_id from files where blob_id is not null)').get() as { n: number }
        ).n,
        blobs: sql.prepare('select storage_key as key, chunk_count as chunks from blobs').all() as Array<{ key: string; chunks: number | null }>,
        logoKeys: (sql.prepare('select logo_key as key from tenants where logo_key is not null').all() as Array<{ key: string }>).map((r) => r.key),
      }));
      expect(db2.uploads).toBe(0);
      expect(db2.chunks).toBe(0);
      expect(db2.unreferencedBlobs).toBe(0);
      // On disk a chunked blob is the directory blobs/<xx>/<key>/ holding its chunk files 0..n-1; a
      // single-file blob (the tenant logo) is one file named by its key. Every row has all its bytes,
      // and nothing on disk lacks a row.
      const blobFiles = await listFilesUnder(path.join(dataDir, 'blobs'));
      const byBlob = new Map<string, string[]>();
      for (const f of blobFiles) {
        const owner = path.basename(path.dirname(f));
        byBlob.set(owner, [...(byBlob.get(owner) ?? []), path.basename(f)]);
      }
      for (const blob of db2.blobs) {
        const expected = Array.from({ length: blob.chunks ?? 0 }, (_, i) => String(i)).sort();
        expect((byBlob.get(blob.key) ?? []).sort(), `chunk files of blob ${blob.key}`).toEqual(expected);
      }
      const owned = new Set(db2.blobs.map((b) => b.key));
      const strays = blobFiles.filter((f) => !owned.has(path.basename(path.dirname(f))) && !db2.logoKeys.includes(path.basename(f)));
      expect(strays, 'files under blobs/ without a row').toEqual([]);
      expect(await listFilesUnder(path.join(dataDir, 'uploads'))).toEqual([]);
    } finally {
      await close();
    }
  });
});
