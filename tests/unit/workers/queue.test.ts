import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openTransferDb, TRANSFER_DB_VERSION, type TransferDb } from '../../../workers/queue/db';
import { addUploads, getUpload, listUploads, markChunksDone, removeFinishedUploads, updateUpload } from '../../../workers/queue/repository';
import { newUploadRecord } from '../../../workers/queue/records';
import type { UploadRecord } from '../../../workers/queue/types';

let dbCounter = 0;
const opened: TransferDb[] = [];
function freshDb(name = `queue-test-${++dbCounter}`): TransferDb {
  const db = openTransferDb(name);
  opened.push(db);
  return db;
}
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function record(id: string, createdAt: number, patch: Partial<UploadRecord> = {}): UploadRecord {
  const file = new Blob(['0123456789'], { type: 'application/octet-stream' });
  return {
    ...newUploadRecord({ id, file, target: { parentId: null, category: 1 }, createdAt, relativePath: null, chunkConcurrency: 3 }),
    name: `${id}.bin`,
    lastModified: 1,
    chunkSize: 4,
    ...patch,
  };
}

describe('upload queue (Dexie)', () => {
  it('adds, gets and lists items oldest first', async () => {
    const db = freshDb();
    await addUploads(db, [record('b', 2), record('a', 1), record('c', 3)]);
    expect((await listUploads(db)).map((r) => r.id)).toEqual(['a', 'b', 'c']);
    const a = await getUpload(db, 'a');
    expect(a?.name).toBe('a.bin');
    expect(a?.target).toEqual({ parentId: null, category: 1 });
  });

  it('keeps the file bytes', async () => {
    const db = freshDb();
    await addUploads(db, [record('a', 1)]);
    const file = (await getUpload(db, 'a'))?.file;
    expect(file).toBeInstanceOf(Blob);
    expect(await file!.text()).toBe('0123456789');
  });

  it('updates with legal transitions and refuses illegal ones without writing', async () => {
    const db = freshDb();
    await addUploads(db, [record('a', 1)]);
    expect((await updateUpload(db, 'a', { state: 'hashing' }, 5))?.state).toBe('hashing');
    expect((await updateUpload(db, 'a', { state: 'checking' }, 6))?.state).toBe('checking');
    expect((await updateUpload(db, 'a', { state: 'uploading', fingerprint: 'f' }, 6))?.updatedAt).toBe(6);
    await expect(updateUpload(db, 'a', { state: 'hashing', fingerprint: 'other' }, 7)).rejects.toThrow(/illegal transfer transition uploading → hashing/);
    expect(await getUpload(db, 'a')).toMatchObject({ state: 'uploading', fingerprint: 'f', updatedAt: 6 });
    // Keeping the state is not a transition.
    expect((await updateUpload(db, 'a', { state: 'uploading', attempts: 2 }, 8))?.attempts).toBe(2);
    expect(await updateUpload(db, 'missing', { state: 'paused' }, 9)).toBeUndefined();
  });

  it('refuses any move out of done', async () => {
    const db = freshDb();
    await addUploads(db, [record('a', 1, { state: 'uploading' })]);
    await updateUpload(db, 'a', { state: 'done' }, 2);
    for (const to of ['waiting', 'paused', 'failed', 'cancelled'] as const) {
      await expect(updateUpload(db, 'a', { state: to }, 3)).rejects.toThrow(/illegal/);
    }
  });

  it('records parallel chunk completions without losing any', async () => {
    const db = freshDb();
    await addUploads(db, [record('a', 1, { state: 'uploading' })]);
    await Promise.all([2, 0, 1, 0].map((i) => markChunksDone(db, 'a', new Map([[i, i === 2 ? 2 : 4]]), 5)));
    expect(await getUpload(db, 'a')).toMatchObject({ chunksDone: [0, 1, 2], bytesDone: 10 });
  });

  it('records a batch of chunk completions in one write, counting each index once', async () => {
    const db = freshDb();
    await addUploads(db, [record('a', 1, { state: 'uploading', chunksDone: [1], bytesDone: 4, attempts: 2 })]);
    const updated = await markChunksDone(db, 'a', new Map([[3, 4], [1, 4], [0, 4]]), 6);
    expect(updated).toMatchObject({ chunksDone: [0, 1, 3], bytesDone: 12, attempts: 0, updatedAt: 6 });
    expect(await getUpload(db, 'a')).toMatchObject({ chunksDone: [0, 1, 3], bytesDone: 12 });
    // Nothing new: nothing written.
    expect(await markChunksDone(db, 'a', new Map([[0, 4]]), 7)).toMatchObject({ updatedAt: 6 });
    expect(await markChunksDone(db, 'missing', new Map([[0, 4]]), 7)).toBeUndefined();
  });

  it('removes only finished items', async () => {
    const db = freshDb();
    await addUploads(db, [record('a', 1, { state: 'done' }), record('b', 2, { state: 'cancelled' }), record('c', 3, { state: 'failed' })]);
    expect((await removeFinishedUploads(db)).sort()).toEqual(['a', 'b']);
    expect((await listUploads(db)).map((r) => r.id)).toEqual(['c']);
  });

  it('persisted state survives closing and reopening the database', async () => {
    const name = `queue-reopen-${Date.now()}`;
    const first = freshDb(name);
    await addUploads(first, [record('a', 1)]);
    await updateUpload(first, 'a', { state: 'hashing' }, 2);
    await updateUpload(first, 'a', { state: 'checking', chunkDigests: ['d0', 'd1', 'd2'], fingerprint: 'fp' }, 3);
    await updateUpload(first, 'a', { state: 'uploading', uploadId: 'up-1' }, 4);
    await markChunksDone(first, 'a', new Map([[1, 4]]), 5);
    first.close();

    const second = freshDb(name);
    expect(await getUpload(second, 'a')).toMatchObject({
      state: 'uploading',
      chunkDigests: ['d0', 'd1', 'd2'],
      fingerprint: 'fp',
      uploadId: 'up-1',
      chunksDone: [1],
      bytesDone: 4,
    });
    expect(second.verno).toBe(TRANSFER_DB_VERSION);
  });
});
