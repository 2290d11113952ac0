/**
 * The object store (BLOB_STORE=s3://…, docs/object-store.md) against a real Ceph radosgw of its own
 * (tests/support/radosgw.ts), so its gateway can be stopped without touching the run's shared one:
 * - a gateway that is down or stuck makes byte requests fail coded (STO-5031), loses nothing that was
 *   acknowledged, and the upload goes on once it is back;
 * - startup recovery and the sweeper learn the store: incomplete multipart uploads are aborted,
 *   orphaned objects removed, and blobs the database references but the bucket lacks reported.
 * Runs in the S3 stage only (DRIVE_TEST_STORE=s3): it needs Ceph's packages.
 */
import { randomBytes } from 'node:crypto';
import { CreateMultipartUploadCommand, DeleteObjectsCommand, ListMultipartUploadsCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API, downloadUrl } from '../../common/api/paths';
import { parseS3Location, type S3Location } from '../../server/storage/s3/s3-location';
import { blobStoreUrl, startRadosgw, type Radosgw } from '../support/radosgw';
import { onS3 } from '../support/test-store';
import { Client, login, postChunkExist, putChunk, randomContent, startServer, TEST_CHUNK_SIZE, uploadFile, withDb, type TestServer } from './helpers';

const ADMIN = { username: 'admin', password: 'Admin@2024' };

describe.skipIf(!onS3())('object store: faults, recovery and the sweeper on a real radosgw', () => {
  let gateway: Radosgw;

  beforeAll(async () => {
    gateway = await startRadosgw();
  }, 120_000);
  afterAll(async () => {
    await gateway?.stop();
  });

  /** A bucket of its own on the test's gateway, with a short store timeout (a stuck gateway fails in seconds). */
  async function bucket(name: string): Promise<S3Location> {
    await gateway.createBucket(name);
    return { ...parseS3Location(`${blobStoreUrl(name, gateway.endpoint, gateway.region)}&timeoutMs=1500`), credentials: { accessKeyId: gateway.accessKeyId, secretAccessKey: gateway.secretAccessKey } };
  }

  async function adminOf(server: TestServer): Promise<Client> {
    const admin = new Client(server.baseUrl);
    expect((await login(server, admin, ADMIN)).status).toBe(200);
    return admin;
  }

  async function bytesOf(admin: Client, id: string): Promise<{ status: number; body: Buffer }> {
    const res = await admin.raw(downloadUrl(id));
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
  }

  it('a gateway killed, then stuck: coded errors, every acknowledged byte kept, the upload finishes once it is back', async () => {
    const server = await startServer({ blobStore: await bucket('faults') });
    try {
      const admin = await adminOf(server);
      const first = randomContent(2 * TEST_CHUNK_SIZE + 99);
      const stored = await uploadFile(admin, first, 'acknowledged.bin');
      expect(stored.status).toBe(200);

      const second = randomContent(TEST_CHUNK_SIZE + 5);
      const open = await postChunkExist(admin, second, 'during-outage.bin');
      const { uploadId } = open.body.data;
      expect((await putChunk(admin, uploadId, 0, second.subarray(0, TEST_CHUNK_SIZE))).status).toBe(200);

      await gateway.killGateway();
      const down = await bytesOf(admin, stored.body.data.id);
      expect(down.status).toBe(500);
      expect(JSON.parse(down.body.toString())).toMatchObject({ errorCode: ERRORS.STORE_UNAVAILABLE.code });
      const refused = await putChunk(admin, uploadId, 1, second.subarray(TEST_CHUNK_SIZE));
      expect(refused.body).toMatchObject({ errorCode: ERRORS.STORE_UNAVAILABLE.code });
      const merge = await admin.post(API.chunkMerge, { uploadId, name: 'during-outage.bin', parentId: null, category: 1 });
      expect(merge.body).toMatchObject({ errorCode: ERRORS.CHUNKS_MISSING.code });

      await gateway.startGateway();
      expect((await putChunk(admin, uploadId, 1, second.subarray(TEST_CHUNK_SIZE))).status).toBe(200);

      // Stuck (accepts connections, answers nothing): the store's timeout, then a coded error.
      gateway.pause();
      const started = Date.now();
      let stuck: { status: number; body: Buffer };
      try {
        stuck = await bytesOf(admin, stored.body.data.id);
      } finally {
        gateway.resume();
      }
      expect(stuck.status).toBe(500);
      expect(JSON.parse(stuck.body.toString())).toMatchObject({ errorCode: ERRORS.STORE_UNAVAILABLE.code });
      expect(Date.now() - started).toBeLessThan(15_000);

      const merged = await admin.post<{ data: { id: string } }>(API.chunkMerge, { uploadId, name: 'during-outage.bin', parentId: null, category: 1 });
      expect(merged.status).toBe(200);
      expect((await bytesOf(admin, stored.body.data.id)).body.equals(first)).toBe(true);
      expect((await bytesOf(admin, merged.body.data.id)).body.equals(second)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('recovery aborts open multipart uploads, removes orphaned objects and reports blobs the bucket lacks; the sweeper does the first two, and removes the copies of a failed merge, not those of a live one', async () => {
    const location = await bucket('recovery');
    const client = gateway.client();
    const put = (key: string) => client.send(new PutObjectCommand({ Bucket: location.bucket, Key: key, Body: 'x' }));
    const id = () => randomBytes(16).toString('base64url');
    const openMultipart = (key: string) => client.send(new CreateMultipartUploadCommand({ Bucket: location.bucket, Key: key }));
    const openUploads = async () => (await client.send(new ListMultipartUploadsCommand({ Bucket: location.bucket }))).Uploads ?? [];

    let server = await startServer({ blobStore: location });
    const dataDir = server.dataDir;
    try {
      const admin = await adminOf(server);
      const kept = randomContent(TEST_CHUNK_SIZE + 3);
      const lost = randomContent(2 * TEST_CHUNK_SIZE + 7);
      const keptFile = await uploadFile(admin, kept, 'kept.bin');
      const lostFile = await uploadFile(admin, lost, 'lost.bin');
      const lostBlob = await withDb(server, (db) =>
        db.prepare('select b.id, b.storage_key from blobs b join files f on f.blob_id = b.id where f.id = ?').get(lostFile.body.data.id) as { id: string; storage_key: string },
      );
      await server.app.close();

      // What a crash leaves: chunks of an upload without a row, a merged blob without a row, an open
      // multipart upload; and damage: a referenced blob's objects gone.
      await put(`uploads/${id()}/0`);
      const orphanBlob = id();
      await put(`blobs/${orphanBlob}/0`);
      await openMultipart(`blobs/${id()}`);
      const lostKeys = (await client.send(new ListObjectsV2Command({ Bucket: location.bucket, Prefix: `blobs/${lostBlob.storage_key}/` }))).Contents ?? [];
      expect(lostKeys).toHaveLength(3);
      await client.send(new DeleteObjectsCommand({ Bucket: location.bucket, Delete: { Objects: lostKeys.map((o) => ({ Key: o.Key! })) } }));

      server = await startServer({ dataDir, blobStore: location });
      expect(server.app.storeRecovery).toMatchObject({
        store: 's3',
        multipartUploads: 1,
        orphanUploadDirs: 1,
        orphanBlobDirs: 1,
        brokenReferencedBlobs: [lostBlob.id],
      });
      expect(await openUploads()).toEqual([]);
      expect(await server.app.byteStore.blobs.hasChunked(orphanBlob)).toBe(false);
      const again = await adminOf(server);
      expect((await bytesOf(again, keptFile.body.data.id)).body.equals(kept)).toBe(true);

      // The sweeper (no restart): left-overs older than an upload session, chunks without an upload row,
      // and a failed merge's copies (a chunked blob no row holds) — but not the blob a live upload's
      // merge is copying into (its intent names it).
      const failedMerge = id();
      await put(`blobs/${failedMerge}/0`);
      await put(`blobs/${failedMerge}/1`);
      const merging = await postChunkExist(again, randomContent(100), 'merging.bin');
      const mergingKey = id();
      const later = Date.now() + 24 * 3600 * 1000 + 60_000;
      await withDb(server, (db) => db.prepare('update uploads set merge_blob_id = ?, expires_at = ? where id = ?').run(mergingKey, later + 3600_000, merging.body.data.uploadId));
      await put(`blobs/${mergingKey}/0`);
      // Younger than an upload session: a pass now leaves the copies.
      expect((await server.app.sweeper.sweepOnce()).store).toMatchObject({ orphanBlobDirs: 0 });
      expect(await server.app.byteStore.blobs.hasChunked(failedMerge)).toBe(true);
      await put(`uploads/${id()}/3`);
      await openMultipart(`blobs/${id()}`);
      const swept = await server.app.sweeper.sweepOnce(later);
      expect(swept.store).toEqual({ tempFiles: 0, multipartUploads: 1, orphanUploads: 1, orphanBlobDirs: 1 });
      expect(await openUploads()).toEqual([]);
      expect(await server.app.byteStore.chunks.listUploadIds()).toEqual([]);
      expect(await server.app.byteStore.blobs.hasChunked(failedMerge)).toBe(false);
      expect(await server.app.byteStore.blobs.hasChunked(mergingKey)).toBe(true);
      expect((await bytesOf(again, keptFile.body.data.id)).body.equals(kept)).toBe(true);
    } finally {
      client.destroy();
      await server.close();
    }
  });
});
