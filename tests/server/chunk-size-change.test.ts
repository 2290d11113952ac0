/**
 * The chunk size defines every fingerprint (SHA-256 over the chunk digests, common/transfer/protocol.ts),
 * yet an operator may change CHUNK_SIZE. Files stored under the old size must stay findable: a second
 * upload of the same bytes, and an upload of content the tenant already stores (dedup), are computed
 * under the new size. Each blob records the chunk size of its fingerprint (migration 0084); after a
 * start with another size, the blobs whose fingerprint depends on it are fingerprinted again in the
 * background (services/fingerprint-upgrade.ts) — and only those: a file that fits in one chunk under
 * both sizes has the same fingerprint under both and is not read.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIN_CHUNK_SIZE } from '../../common/transfer/chunk-policy';
import type { SecondUploadResponse } from '../../common/transfer/second-upload';
import { text } from './file-kit';
import { ADMIN, describeFile, loggedInClient, randomContent, startServer, uploadFile, withDb, type Client, type TestServer } from './helpers';
import { secondUpload } from './second-upload-kit';

const OLD = MIN_CHUNK_SIZE;
const NEW = 4 * MIN_CHUNK_SIZE;

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const blobOf = (server: TestServer, fileId: string) =>
  withDb(server, (db) => db.prepare('select b.id, b.fingerprint from files f join blobs b on b.id = f.blob_id where f.id = ?').get(fileId) as { id: string; fingerprint: string });
const blobCount = (server: TestServer) => withDb(server, (db) => (db.prepare('select count(*) as n from blobs').get() as { n: number }).n);

async function claim(client: Client, content: Buffer, name: string, chunkSize: number): Promise<SecondUploadResponse['status']> {
  const { answer } = await secondUpload(client, content, name, { chunkSize });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body.data as SecondUploadResponse).status;
}

describe('changing the configured chunk size', () => {
  it('keeps second upload and dedup matching the files stored under the old size, in both directions', async () => {
    const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-chunk-size-'));
    const first = await startServer({ dataDir, chunkSize: OLD });
    let admin = await loggedInClient(first, ADMIN);
    // Several chunks under either size.
    const large = randomContent(3 * NEW + 1234);
    // One piece on disk (a created text), several chunks under OLD, one under NEW.
    const note = 'x'.repeat(OLD + OLD / 2);
    // One chunk under either size: its fingerprint does not depend on the size.
    const small = randomContent(OLD / 2);
    const up = await uploadFile(admin, large, 'large.bin', { chunkSize: OLD });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const noteFile = await text(admin, 'note.txt', note);
    const smallUp = await uploadFile(admin, small, 'small.bin', { chunkSize: OLD });
    expect(smallUp.status).toBe(200);
    const largeBlob = await blobOf(first, up.body.data.id);
    const noteBlob = await blobOf(first, noteFile.id);
    expect(largeBlob.fingerprint).toBe(describeFile(large, OLD).fingerprint);
    await first.app.fingerprintUpgrade;
    await first.app.close();

    const second = await startServer({ dataDir, chunkSize: NEW });
    const report = await second.app.fingerprintUpgrade;
    admin = await loggedInClient(second, ADMIN);
    // Second upload (秒传) of each, fingerprinted as a client now does: under the new size.
    expect(await claim(admin, large, 'large again.bin', NEW)).toBe('created');
    expect(await claim(admin, Buffer.from(note), 'note again.txt', NEW)).toBe('created');
    expect(await claim(admin, small, 'small again.bin', NEW)).toBe('created');
    // Dedup: the same bytes uploaded in chunks, or written as a text, land on the stored blobs.
    const blobsBefore = await blobCount(second);
    const dup = await uploadFile(admin, large, 'large dup.bin', { chunkSize: NEW });
    expect(dup.status, JSON.stringify(dup.body)).toBe(200);
    expect((await blobOf(second, dup.body.data.id)).id).toBe(largeBlob.id);
    expect((await blobOf(second, (await text(admin, 'note dup.txt', note)).id)).id).toBe(noteBlob.id);
    expect(await blobCount(second)).toBe(blobsBefore);
    // Only the two blobs whose fingerprint depends on the size were read again.
    expect(report).toEqual({ upgraded: 2, duplicates: 0, failed: 0 });
    await second.app.close();

    // And back: the blobs now carry NEW; a start with OLD makes them findable under OLD again.
    const third = await startServer({ dataDir, chunkSize: OLD });
    servers.push(third);
    expect(await third.app.fingerprintUpgrade).toEqual({ upgraded: 2, duplicates: 0, failed: 0 });
    admin = await loggedInClient(third, ADMIN);
    expect(await claim(admin, large, 'large third.bin', OLD)).toBe('created');
    expect(await claim(admin, Buffer.from(note), 'note third.txt', OLD)).toBe('created');
    // Nothing is left to do: a start with the same size reads nothing.
    await third.app.close();
    servers.pop();
    const fourth = await startServer({ dataDir, chunkSize: OLD });
    servers.push(fourth);
    expect(await fourth.app.fingerprintUpgrade).toEqual({ upgraded: 0, duplicates: 0, failed: 0 });
  });
});
