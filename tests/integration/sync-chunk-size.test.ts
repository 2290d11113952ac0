/**
 * The server's CHUNK_SIZE changes under a synced folder. The server fingerprints its stored files
 * again at the new size (services/fingerprint-upgrade.ts), so each synced file's cloud fingerprint
 * changes while its content does not. The next pass must see agreement, not a cloud edit: no file is
 * downloaded (or, in backup mode, uploaded) again. Read locally, a file's fingerprint at the new size
 * equals the cloud's (workers/sync/observe.ts, cloudFingerprintMoved).
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeChunkTransport } from '../../workers/node/chunk-transport';
import { engineConfigFor } from '../../workers/node/engine-config';
import { HttpRemote } from '../../workers/sync/http-remote';
import { digestsOf } from '../sync/sim/content';
import { loggedInJar, startServerProcess, writeGeneratedFile } from '../support/drive-server';
import { adminLogin, cloudListing, spawnSyncCli, startSyncServer, stopSyncServer, withSummary, type SyncServer } from '../support/sync-cloud';

const OLD = 1024 * 1024;
const NEW = 512 * 1024;

let s: SyncServer;

beforeAll(async () => {
  s = await startSyncServer('drive-sync-chunk-size-', OLD);
});

afterAll(async () => {
  await stopSyncServer(s);
});

const syncOnce = async (dir: string, remotePath: string, state: string, extra: string[] = []) =>
  withSummary(await spawnSyncCli([...adminLogin(s.server), '--dir', dir, '--remote', remotePath, '--state', state, '--once', ...extra]).done);

async function restartWith(chunkSize: number): Promise<void> {
  await s.server.stop();
  s.server = await startServerProcess({ dataDir: s.server.dataDir, port: s.server.port, env: { CHUNK_SIZE: String(chunkSize) } });
  s.jar = await loggedInJar(s.server.url, s.server.dataDir);
  s.remote = new HttpRemote({ config: engineConfigFor(s.server.url), jar: s.jar, transport: createNodeChunkTransport(s.jar), hashChunk: s.pool.hashChunk, hashConcurrency: 1 });
}

/** Waits until the cloud lists every file of `dir` with its fingerprint at `chunkSize` (the upgrade is done). */
async function cloudAt(dir: string, remotePath: string, chunkSize: number): Promise<void> {
  const want = new Map<string, string>();
  for (const name of await fsp.readdir(dir)) if (!name.startsWith('.')) want.set(name, digestsOf(await fsp.readFile(path.join(dir, name)), chunkSize).fingerprint);
  let cloud = new Map<string, string | null>();
  for (let i = 0; i < 300; i++) {
    cloud = await cloudListing(s, remotePath);
    if ([...want].every(([name, fp]) => cloud.get(name) === fp)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`cloud fingerprints not at ${chunkSize}: ${JSON.stringify([...cloud])}`);
}

describe('sync across a chunk size change', () => {
  it('two-way and backup pairs record agreement: nothing is downloaded or uploaded again', async () => {
    const twoWay = path.join(s.work, 'two-way');
    const backup = path.join(s.work, 'backup');
    for (const dir of [twoWay, backup]) {
      await fsp.mkdir(dir);
      await writeGeneratedFile(path.join(dir, 'large.bin'), 3 * OLD + 17);
      await writeGeneratedFile(path.join(dir, 'medium.bin'), OLD - 5);
      await fsp.writeFile(path.join(dir, 'small.txt'), 'fits in one chunk under either size');
      // Old enough for the journal to trust their stat: an unchanged file is not read again.
      const anHourAgo = new Date(Date.now() - 3600_000);
      for (const name of await fsp.readdir(dir)) await fsp.utimes(path.join(dir, name), anHourAgo, anHourAgo);
    }
    const first = await syncOnce(twoWay, '/双向', path.join(s.work, 'state-two-way'));
    expect(first.summary.uploaded).toBe(3);
    const firstBackup = await syncOnce(backup, '/备份', path.join(s.work, 'state-backup'), ['--mode', 'backup']);
    expect(firstBackup.summary.uploaded).toBe(3);
    const stamps = async (dir: string) => Promise.all(['large.bin', 'medium.bin'].map(async (n) => (await fsp.stat(path.join(dir, n))).mtimeMs));
    const before = await stamps(twoWay);

    await restartWith(NEW);
    await cloudAt(twoWay, '/双向', NEW);
    await cloudAt(backup, '/备份', NEW);

    const again = await syncOnce(twoWay, '/双向', path.join(s.work, 'state-two-way'));
    expect(again.code, again.err).toBe(0);
    expect({ downloaded: again.summary.downloaded, uploaded: again.summary.uploaded, conflicts: again.summary.conflicts ?? 0 }).toEqual({ downloaded: 0, uploaded: 0, conflicts: 0 });
    expect(await stamps(twoWay)).toEqual(before);
    const againBackup = await syncOnce(backup, '/备份', path.join(s.work, 'state-backup'), ['--mode', 'backup']);
    expect(againBackup.code, againBackup.err).toBe(0);
    expect(againBackup.summary.uploaded).toBe(0);
  });
});
