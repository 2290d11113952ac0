/**
 * Startup recovery on a clean restart logs no error (issue 19: every start used to log a level-50
 * "STORAGE DAMAGE" naming every createTxt file, which trains operators to ignore the real one), and
 * still reports real damage: a referenced blob whose bytes are gone.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { CreateTxtResponse } from '../../common/api/types';
import { migrationProvider } from '../../server/db/migrations/index';
import { adminClient, CHILD_CHUNK_SIZE, startChild, stop, type Running } from './child-server';
import { download, text } from './file-kit';
import { randomContent, uploadFile, withDb } from './helpers';
import { openTestKysely } from '../support/test-database';
import { isStored, withTestByteStore } from '../support/test-byte-store';

/** Runs one migration's `up` on the data directory's database (an upgrade of data written before it). */
async function runMigrationStep(dataDir: string, name: string): Promise<void> {
  const db = await openTestKysely(dataDir);
  try {
    const migrations = await migrationProvider.getMigrations();
    await migrations[name]!.up(db);
  } finally {
    await db.destroy();
  }
}

interface LogLine {
  level: number;
  msg: string;
  blobIds?: string[];
  report?: { brokenReferencedBlobs: string[]; unreferencedBlobs: number; missingBlobRows: number };
}

/** The pino lines the child printed (non-JSON output, if any, is kept as a level-60 line so it fails loudly). */
function logLines(run: Running): LogLine[] {
  return run.log
    .join('')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as LogLine;
      } catch {
        return { level: 60, msg: l };
      }
    });
}

const errorsOf = (run: Running) => logLines(run).filter((l) => l.level >= 50);
const recoveryReport = (run: Running) => logLines(run).find((l) => l.msg === 'startup recovery done')?.report;

describe('restart on the same data', () => {
  it('a clean restart after createTxt files, held-and-kept texts and chunked uploads logs no error and keeps every file', async () => {
    const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-restart-test-'));
    let run = await startChild(dataDir);
    let admin = await adminClient(run, dataDir);
    const a = await text(admin, 'a.txt', 'alpha');
    await text(admin, 'b.txt', 'beta');
    const held = await admin.post<{ data: CreateTxtResponse }>(API.createTxt, { parentId: null, category: 1, name: 'a.txt', content: 'alpha 2' });
    const holdId = (held.body.data as { holdId: string }).holdId;
    expect((await admin.post(API.keepOnCreateTxt, { holdId, decision: 'newVersion' })).status).toBe(200);
    const big = randomContent(3 * CHILD_CHUNK_SIZE + 17);
    const uploaded = await uploadFile(admin, big, 'big.bin', { chunkSize: CHILD_CHUNK_SIZE });
    expect(uploaded.status).toBe(200);
    // Data from before migration 0008: the earlier code recorded one-piece blobs with chunk_size 0.
    // Migrations run once, so the upgrade is replayed here with 0008's own step on that data.
    await stop(run);
    await withDb({ dataDir }, (db) => db.prepare("update blobs set chunk_size = 0, chunk_count = 0 where id = (select blob_id from files where name = 'b.txt')").run());
    await runMigrationStep(dataDir, '0008_single_piece_blobs');
    expect(await withDb({ dataDir }, (db) => (db.prepare('select count(*) n from blobs where chunk_size = 0').get() as { n: number }).n)).toBe(0);

    run = await startChild(dataDir);
    expect(errorsOf(run)).toEqual([]);
    expect(recoveryReport(run)).toMatchObject({ brokenReferencedBlobs: [], unreferencedBlobs: 0, missingBlobRows: 0 });
    admin = await adminClient(run, dataDir);
    expect(await download(admin, a.id)).toBe('alpha 2');
    const res = await admin.raw(API.downloadPrefix + uploaded.body.data.id);
    expect(Buffer.from(await res.arrayBuffer()).equals(big)).toBe(true);
    await stop(run);

    // And the next start again: nothing to repair, nothing to report.
    run = await startChild(dataDir);
    expect(errorsOf(run)).toEqual([]);
    await stop(run);
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  it('reports real damage: a createTxt file whose bytes were deleted from the store', async () => {
    const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-restart-test-'));
    let run = await startChild(dataDir);
    const admin = await adminClient(run, dataDir);
    await text(admin, 'lost.txt', 'gone soon');
    await stop(run);
    const blob = await withDb({ dataDir }, (db) =>
      db.prepare("select b.id, b.storage_key from blobs b join files f on f.blob_id = b.id where f.name = 'lost.txt'").get() as { id: string; storage_key: string },
    );
    // Deleted from the store itself (disk or bucket), behind the server's back.
    await withTestByteStore(dataDir, async (store) => {
      expect(await isStored(store, blob.storage_key)).toBe(true);
      await store.blobs.remove(blob.storage_key);
    });

    run = await startChild(dataDir);
    const errors = errorsOf(run);
    expect(errors.map((e) => e.msg), JSON.stringify(errors)).toHaveLength(1);
    expect(errors[0]).toMatchObject({ blobIds: [blob.id] });
    expect(errors[0]!.msg).toContain('STORAGE DAMAGE');
    await stop(run);
    await fsp.rm(dataDir, { recursive: true, force: true });
  });
});
