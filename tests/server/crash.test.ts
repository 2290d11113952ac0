/**
 * Crash safety: the real server runs as a child process (`node --import tsx server/main.ts`) on a temp
 * DATA_DIR, is killed with SIGKILL mid-upload or at a named point inside a chunk write or a merge
 * (DRIVE_TEST_CRASH_POINT, honoured only with DRIVE_TEST_HOOKS=1), restarted on the same DATA_DIR,
 * and must then resume, merge and serve the file byte-exact, leaving no orphan rows, chunks or blobs
 * behind, on either store (with DRIVE_TEST_STORE=s3 the crash points fall between the store's own steps:
 * a chunk object written but not recorded, copies of a merge not committed).
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API, downloadUrl } from '../../common/api/paths';
import type { FileEntry, FileListResponse } from '../../common/api/types';
import type { ChunkExistResponse } from '../../common/transfer/protocol';
import { freePort } from '../support/free-port';
import { adminClient, CHILD_CHUNK_SIZE, kill, spawnServer, startChild, stop, type Running } from './child-server';
import { type Client, putChunk, randomContent, withDb } from './helpers';
import { openUploadSession } from './upload-session';
import { readStored, storeContents, withTestByteStore } from '../support/test-byte-store';

const CHUNK = CHILD_CHUNK_SIZE;

/** A tiny protocol client: open (or resume) the upload of `content`. */
const open = (client: Client, content: Buffer, name: string) => openUploadSession(client, content, name, CHUNK);

const chunkOf = (content: Buffer, i: number) => content.subarray(i * CHUNK, (i + 1) * CHUNK);

/** Sends the chunks not yet stored; returns how many were sent. */
async function sendMissing(client: Client, content: Buffer, session: ChunkExistResponse): Promise<number> {
  let sent = 0;
  for (let i = 0; i < session.chunkCount; i++) {
    if (session.existingChunks.includes(i)) continue;
    expect((await putChunk(client, session.uploadId, i, chunkOf(content, i))).status).toBe(200);
    sent++;
  }
  return sent;
}

async function merge(client: Client, uploadId: string, name: string) {
  return client.post<{ data: FileEntry }>(API.chunkMerge, { uploadId, name, parentId: null, category: 1 });
}

/** A request the server dies in the middle of: it must fail at the transport level. */
async function expectDeath(run: Running, request: Promise<unknown>): Promise<void> {
  await expect(request).rejects.toThrow();
  await run.exited;
  expect(run.child.signalCode).toBe('SIGKILL');
}

async function expectDownload(client: Client, name: string, content: Buffer): Promise<void> {
  const list = await client.post<{ data: FileListResponse }>(API.fileList, { parentId: null, category: 1 });
  const matches = list.body.data.items.filter((f) => f.name === name);
  expect(matches).toHaveLength(1);
  const res = await client.raw(downloadUrl(matches[0]!.id));
  expect(res.status).toBe(200);
  expect(Buffer.from(await res.arrayBuffer()).equals(content)).toBe(true);
}

/**
 * No orphan rows, chunks or blobs: everything in the store and in the DB belongs to something. The
 * store is looked at through its interface (support/test-byte-store.ts), so this holds on disk and on S3.
 */
async function expectNoOrphans(dataDir: string): Promise<void> {
  const db = await withDb({ dataDir }, (d) => ({
    uploads: (d.prepare('select count(*) n from uploads').get() as { n: number }).n,
    chunks: (d.prepare('select count(*) n from upload_chunks').get() as { n: number }).n,
    unreferenced: (
      d
        .prepare(
          `select count(*) n from blobs b where chunk_size is not null
             and not exists (select 1 from files f where f.blob_id = b.id)
             and not exists (select 1 from file_versions v where v.blob_id = b.id)`,
        )
        .get() as { n: number }
    ).n,
    keys: d.prepare('select storage_key, chunk_size, chunk_count, size from blobs where chunk_size is not null').all() as Array<{
      storage_key: string;
      chunk_size: number;
      chunk_count: number;
      size: number;
    }>,
    dangling: (d.prepare('select count(*) n from files where is_dir = 0 and blob_id not in (select id from blobs)').get() as { n: number }).n,
  }));
  expect(db).toMatchObject({ uploads: 0, chunks: 0, unreferenced: 0, dangling: 0 });
  await withTestByteStore(dataDir, async (store) => {
    const stored = await storeContents(store, dataDir);
    expect(stored.uploads).toEqual({});
    expect(stored.unfinishedWrites).toEqual([]);
    const chunked = [...stored.blobs].filter(([, layout]) => layout === 'chunked').map(([key]) => key);
    expect(chunked.sort()).toEqual(db.keys.map((k) => k.storage_key).sort());
    // Every chunk of every blob there, each of its length.
    for (const k of db.keys) {
      const bytes = await readStored(store, k.storage_key, { chunkSize: k.chunk_size, chunkCount: k.chunk_count, size: Number(k.size) });
      expect(bytes.length).toBe(Number(k.size));
    }
  });
}

async function tempDataDir(): Promise<string> {
  return fsp.mkdtemp(path.join(os.tmpdir(), 'drive-crash-test-'));
}

describe('server killed with SIGKILL, restarted on the same data', () => {
  it('mid-upload: resumes with only the missing chunks', async () => {
    const dataDir = await tempDataDir();
    const content = randomContent(5 * CHUNK + 1234);
    let run = await startChild(dataDir);
    let client = await adminClient(run, dataDir);
    const session = await open(client, content, 'mid.bin');
    for (const i of [0, 1, 3]) expect((await putChunk(client, session.uploadId, i, chunkOf(content, i))).status).toBe(200);
    await kill(run);

    run = await startChild(dataDir);
    client = await adminClient(run, dataDir);
    const resumed = await open(client, content, 'mid.bin');
    expect(resumed.uploadId).toBe(session.uploadId);
    expect(resumed.existingChunks).toEqual([0, 1, 3]);
    expect(await sendMissing(client, content, resumed)).toBe(3);
    expect((await merge(client, resumed.uploadId, 'mid.bin')).status).toBe(200);
    await expectDownload(client, 'mid.bin', content);
    await expectNoOrphans(dataDir);
    await stop(run);
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  for (const point of ['chunk-after-write-before-rename', 'chunk-after-rename-before-record']) {
    it(`inside a chunk write (${point}): the chunk is missing, nothing half-written remains`, async () => {
      const dataDir = await tempDataDir();
      const content = randomContent(3 * CHUNK + 5);
      let run = await startChild(dataDir);
      let client = await adminClient(run, dataDir);
      const session = await open(client, content, 'chunk.bin');
      expect((await putChunk(client, session.uploadId, 0, chunkOf(content, 0))).status).toBe(200);
      await stop(run);

      run = await startChild(dataDir, point);
      client = await adminClient(run, dataDir);
      await expectDeath(run, putChunk(client, session.uploadId, 1, chunkOf(content, 1)));

      run = await startChild(dataDir);
      client = await adminClient(run, dataDir);
      await withTestByteStore(dataDir, async (store) => {
        const stored = await storeContents(store, dataDir);
        expect(stored.unfinishedWrites).toEqual([]);
        expect(stored.uploads).toEqual({ [session.uploadId]: ['0'] });
      });
      const resumed = await open(client, content, 'chunk.bin');
      expect(resumed.existingChunks).toEqual([0]);
      expect(await sendMissing(client, content, resumed)).toBe(3);
      expect((await merge(client, resumed.uploadId, 'chunk.bin')).status).toBe(200);
      await expectDownload(client, 'chunk.bin', content);
      await expectNoOrphans(dataDir);
      await stop(run);
      await fsp.rm(dataDir, { recursive: true, force: true });
    });
  }

  for (const point of ['merge-before-rename', 'merge-after-rename']) {
    it(`mid-merge (${point}): the file is absent and the upload resumes with every chunk`, async () => {
      const dataDir = await tempDataDir();
      const content = randomContent(4 * CHUNK + 99);
      let run = await startChild(dataDir, point);
      let client = await adminClient(run, dataDir);
      const session = await open(client, content, 'merge.bin');
      await sendMissing(client, content, session);
      await expectDeath(run, merge(client, session.uploadId, 'merge.bin'));

      run = await startChild(dataDir);
      client = await adminClient(run, dataDir);
      const list = await client.post<{ data: FileListResponse }>(API.fileList, { parentId: null, category: 1 });
      expect(list.body.data.items.some((f) => f.name === 'merge.bin')).toBe(false);
      const resumed = await open(client, content, 'merge.bin');
      expect(resumed.uploadId).toBe(session.uploadId);
      expect(resumed.existingChunks).toEqual([0, 1, 2, 3, 4]);
      expect(await sendMissing(client, content, resumed)).toBe(0);
      expect((await merge(client, resumed.uploadId, 'merge.bin')).status).toBe(200);
      await expectDownload(client, 'merge.bin', content);
      await expectNoOrphans(dataDir);
      await stop(run);
      await fsp.rm(dataDir, { recursive: true, force: true });
    });
  }

  it('mid-merge (merge-after-commit): the file is whole, nothing is left over', async () => {
    const dataDir = await tempDataDir();
    const content = randomContent(2 * CHUNK + 7);
    const dup = randomContent(CHUNK + 3);
    let run = await startChild(dataDir);
    let client = await adminClient(run, dataDir);
    // A first copy, so the crashed merge below takes the dedup path (chunks deleted after commit).
    let s = await open(client, dup, 'first.bin');
    await sendMissing(client, dup, s);
    expect((await merge(client, s.uploadId, 'first.bin')).status).toBe(200);
    await stop(run);

    for (const [name, data] of [['commit.bin', content], ['second.bin', dup]] as const) {
      run = await startChild(dataDir, 'merge-after-commit');
      client = await adminClient(run, dataDir);
      s = await open(client, data, name);
      await sendMissing(client, data, s);
      await expectDeath(run, merge(client, s.uploadId, name));
    }

    run = await startChild(dataDir);
    client = await adminClient(run, dataDir);
    await expectDownload(client, 'commit.bin', content);
    await expectDownload(client, 'second.bin', dup);
    await expectDownload(client, 'first.bin', dup);
    await expectNoOrphans(dataDir);
    await stop(run);
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a crash point without test hooks', async () => {
    const dataDir = await tempDataDir();
    const child = await spawnServer(
      { ...process.env, PORT: String(await freePort()), DATA_DIR: dataDir, DRIVE_TEST_HOOKS: '0', DRIVE_TEST_CRASH_POINT: 'merge-after-rename' },
      'ignore',
    );
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    await fsp.rm(dataDir, { recursive: true, force: true });
  });
});
