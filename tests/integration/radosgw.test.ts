/**
 * The real S3 server the object-store tests run against (tests/support/radosgw.ts): a one-node Ceph
 * radosgw answers what our store uses, through @aws-sdk/client-s3 with Ceph 16's settings, and the
 * fault harness's pause/kill/restart of the gateway does what the fault tests rely on.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processAlive, startRadosgw, type Radosgw } from '../support/radosgw';

const MiB = 1024 * 1024;
const BUCKET = 'smoke';
const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

let gateway: Radosgw;
let s3: S3Client;
/** Written by the first test, read back by the others. */
const whole = randomBytes(12 * MiB);

async function bytesOf(key: string, range?: string): Promise<Buffer> {
  const r = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, Range: range }));
  return Buffer.from(await r.Body!.transformToByteArray());
}

beforeAll(async () => {
  gateway = await startRadosgw();
  s3 = gateway.client();
  await gateway.createBucket(BUCKET);
}, 90_000);

afterAll(async () => {
  s3?.destroy();
  const pids = gateway ? Object.values(gateway.pids) : [];
  await gateway?.stop();
  // Stopped by PID, nothing left running.
  expect(pids.filter((pid) => processAlive(pid))).toEqual([]);
});

describe('radosgw through @aws-sdk/client-s3', () => {
  it('takes a streamed PutObject and serves byte ranges and suffixes', async () => {
    // A stream of unknown checksum: with the SDK's default trailing checksums Ceph 16 answers 411.
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'whole', Body: Readable.from([whole.subarray(0, 5 * MiB), whole.subarray(5 * MiB)]), ContentLength: whole.length }));
    expect(sha256(await bytesOf('whole'))).toBe(sha256(whole));
    expect((await bytesOf('whole', 'bytes=1000-1999')).equals(whole.subarray(1000, 2000))).toBe(true);
    expect((await bytesOf('whole', 'bytes=-10')).equals(whole.subarray(whole.length - 10))).toBe(true);
    expect((await bytesOf('whole', `bytes=${whole.length - 3}-`)).equals(whole.subarray(whole.length - 3))).toBe(true);
  });

  it('assembles a multipart upload from an uploaded part and a server-side copy of a range', async () => {
    const first = randomBytes(5 * MiB);
    const last = randomBytes(1234);
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: 'assembled' }));
    const p1 = await s3.send(new UploadPartCommand({ Bucket: BUCKET, Key: 'assembled', UploadId, PartNumber: 1, Body: first }));
    const p2 = await s3.send(
      new UploadPartCopyCommand({ Bucket: BUCKET, Key: 'assembled', UploadId, PartNumber: 2, CopySource: `${BUCKET}/whole`, CopySourceRange: `bytes=${MiB}-${6 * MiB - 1}` }),
    );
    const p3 = await s3.send(new UploadPartCommand({ Bucket: BUCKET, Key: 'assembled', UploadId, PartNumber: 3, Body: last }));
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: BUCKET,
        Key: 'assembled',
        UploadId,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: p1.ETag }, { PartNumber: 2, ETag: p2.CopyPartResult?.ETag }, { PartNumber: 3, ETag: p3.ETag }] },
      }),
    );
    // Ceph 16's CompleteMultipartUpload may answer with an empty ETag: HeadObject has the real one.
    const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'assembled' }));
    expect(head.ETag).toMatch(/^"[0-9a-f]{32}-3"$/);
    expect(head.ContentLength).toBe(10 * MiB + 1234);
    const expected = Buffer.concat([first, whole.subarray(MiB, 6 * MiB), last]);
    expect(sha256(await bytesOf('assembled'))).toBe(sha256(expected));
  });

  it('lists and aborts an open multipart upload, leaving none', async () => {
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: 'abandoned' }));
    await s3.send(new UploadPartCommand({ Bucket: BUCKET, Key: 'abandoned', UploadId, PartNumber: 1, Body: randomBytes(MiB) }));
    const open = await s3.send(new ListMultipartUploadsCommand({ Bucket: BUCKET }));
    expect(open.Uploads?.map((u) => [u.Key, u.UploadId])).toEqual([['abandoned', UploadId]]);
    expect(open.Uploads?.[0]?.Initiated).toBeInstanceOf(Date);
    await s3.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: 'abandoned', UploadId }));
    expect((await s3.send(new ListMultipartUploadsCommand({ Bucket: BUCKET }))).Uploads ?? []).toEqual([]);
    await expect(s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'abandoned' }))).rejects.toMatchObject({ name: 'NotFound' });
  });

  it('lists keys page by page under a prefix and deletes them in one request', async () => {
    const keys = Array.from({ length: 5 }, (_, i) => `page/${i}`);
    await Promise.all(keys.map((Key) => s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: Key }))));
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'page/', MaxKeys: 2, ContinuationToken: token }));
      expect(page.Contents?.length ?? 0).toBeLessThanOrEqual(2);
      seen.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.NextContinuationToken;
    } while (token);
    expect(seen).toEqual(keys);
    const deleted = await s3.send(new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: keys.map((Key) => ({ Key })) } }));
    expect(deleted.Errors ?? []).toEqual([]);
    expect((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'page/' }))).KeyCount).toBe(0);
  });
});

describe('the fault harness', () => {
  it('pauses the gateway (requests hang) and resumes it (they complete)', async () => {
    gateway.pause();
    const pending = bytesOf('whole', 'bytes=0-9');
    const early = await Promise.race([pending.then(() => 'answered'), new Promise((r) => setTimeout(() => r('hanging'), 1_500))]);
    gateway.resume();
    expect(early).toBe('hanging');
    expect((await pending).equals(whole.subarray(0, 10))).toBe(true);
  });

  it('kills the gateway (connections refused) and starts it again on the same port with the same objects', async () => {
    const { port } = gateway;
    const before = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'whole' }));
    await gateway.killGateway();
    await expect(fetch(gateway.endpoint)).rejects.toThrow();
    await gateway.startGateway();
    expect(gateway.port).toBe(port);
    const after = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'whole' }));
    expect(after.ETag).toBe(before.ETag);
  });
});
