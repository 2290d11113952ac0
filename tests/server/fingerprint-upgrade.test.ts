/**
 * Blobs stored before the tree chunk digest get their fingerprint recomputed after start-up (migration
 * 0042 + services/fingerprint-upgrade.ts), so second uploads of content stored before keep working.
 * The "old" state is made by writing old-style fingerprints into the rows and listing them as stale,
 * which is exactly what an upgraded database holds after migration 0042.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { SecondUploadResponse } from '../../common/transfer/second-upload';
import { fingerprintInput } from '../../common/transfer/protocol';
import { text } from './file-kit';
import { ADMIN, describeFile, loggedInClient, randomContent, startServer, TEST_CHUNK_SIZE, uploadFile, withDb, type TestServer } from './helpers';
import { secondUpload } from './second-upload-kit';

const plainSha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
/** The fingerprint before the tree digest: SHA-256 over plain SHA-256 chunk digests. */
function oldFingerprint(content: Buffer, chunkSize = TEST_CHUNK_SIZE): string {
  const digests: string[] = [];
  for (let s = 0; s < content.length || digests.length === 0; s += chunkSize) {
    digests.push(plainSha(content.subarray(s, s + chunkSize)));
    if (content.length === 0) break;
  }
  return plainSha(fingerprintInput(digests));
}

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** Makes `blobId` look like a blob stored before migration 0042. */
const makeStale = (server: TestServer, blobId: string, fingerprint: string) =>
  withDb(server, (db) => {
    db.prepare('update blobs set fingerprint = ? where id = ?').run(fingerprint, blobId);
    db.prepare('insert into stale_fingerprints (blob_id) values (?)').run(blobId);
  });
const blobOf = (server: TestServer, fileId: string) =>
  withDb(server, (db) => db.prepare('select b.id, b.fingerprint from files f join blobs b on b.id = f.blob_id where f.id = ?').get(fileId) as { id: string; fingerprint: string });

describe('fingerprint upgrade to the tree chunk digest', () => {
  it('recomputes chunked and one-piece blobs in the background after a restart; second uploads find them again', async () => {
    const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-fp-upgrade-'));
    const first = await startServer({ dataDir });
    let admin = await loggedInClient(first, ADMIN);
    const chunked = randomContent(3 * TEST_CHUNK_SIZE + 777);
    const up = await uploadFile(admin, chunked, 'chunked.bin');
    expect(up.status).toBe(200);
    const note = await text(admin, 'note.txt', 'one piece of text');
    const chunkedBlob = await blobOf(first, up.body.data.id);
    const noteBlob = await blobOf(first, note.id);
    const empty = await text(admin, 'empty.txt', '');
    const emptyBlob = await blobOf(first, empty.id);
    expect(chunkedBlob.fingerprint).toBe(describeFile(chunked).fingerprint);
    await first.app.fingerprintUpgrade;
    await first.app.close();

    // The database as an upgrade from before the tree digest leaves it.
    const dbOnly = { dataDir } as TestServer;
    await makeStale(dbOnly, chunkedBlob.id, oldFingerprint(chunked));
    await makeStale(dbOnly, noteBlob.id, oldFingerprint(Buffer.from('one piece of text')));
    await makeStale(dbOnly, emptyBlob.id, oldFingerprint(Buffer.alloc(0)));
    await withDb(dbOnly, (db) => db.prepare("insert into stale_fingerprints (blob_id) values ('gone')").run());

    const second = await startServer({ dataDir });
    servers.push(second);
    const report = await second.app.fingerprintUpgrade;
    expect(report).toEqual({ upgraded: 3, duplicates: 0, failed: 0 });
    expect((await blobOf(second, up.body.data.id)).fingerprint).toBe(describeFile(chunked).fingerprint);
    expect((await blobOf(second, note.id)).fingerprint).toBe(describeFile(Buffer.from('one piece of text')).fingerprint);
    expect((await blobOf(second, empty.id)).fingerprint).toBe(describeFile(Buffer.alloc(0)).fingerprint);
    expect(await withDb(second, (db) => db.prepare('select count(*) as n from stale_fingerprints').get())).toEqual({ n: 0 });

    admin = await loggedInClient(second, ADMIN);
    const again = await secondUpload(admin, chunked, 'again.bin');
    expect(again.answer.status).toBe(200);
    expect((again.answer.body.data as SecondUploadResponse).status).toBe('created');
  });

  it('a blob whose content was stored again meanwhile keeps its old fingerprint (the unique index holds) and leaves the list', async () => {
    const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-fp-upgrade-'));
    const first = await startServer({ dataDir });
    const admin = await loggedInClient(first, ADMIN);
    const content = randomContent(TEST_CHUNK_SIZE + 5);
    const a = await uploadFile(admin, content, 'a.bin');
    const blobA = await blobOf(first, a.body.data.id);
    await first.app.fingerprintUpgrade;
    // Blob A carries an old fingerprint, so the same content uploaded now is not found and makes blob B.
    await makeStale(first, blobA.id, oldFingerprint(content));
    const b = await uploadFile(admin, content, 'b.bin');
    const blobB = await blobOf(first, b.body.data.id);
    expect(blobB.id).not.toBe(blobA.id);
    await first.app.close();

    const second = await startServer({ dataDir });
    servers.push(second);
    expect(await second.app.fingerprintUpgrade).toEqual({ upgraded: 0, duplicates: 1, failed: 0 });
    expect((await blobOf(second, a.body.data.id)).fingerprint).toBe(oldFingerprint(content));
    expect((await blobOf(second, b.body.data.id)).fingerprint).toBe(describeFile(content).fingerprint);
    expect(await withDb(second, (db) => db.prepare('select count(*) as n from stale_fingerprints').get())).toEqual({ n: 0 });
  });
});
