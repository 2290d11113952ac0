/**
 * The byte store of a test server's data directory, opened in the test process with the server's own
 * implementations (server/storage/byte-store.ts): the disk under DATA_DIR, or, with
 * DRIVE_TEST_STORE=s3, the data directory's bucket on the run's radosgw (support/test-store.ts). Tests
 * that look at stored bytes do it through this (or `app.byteStore` of an in-process server), never
 * through DATA_DIR's layout, so they hold on both stores.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import type { ByteStore, StoredLayout } from '../../server/storage/byte-store';
import { DiskByteStore } from '../../server/storage/disk-store';
import { S3ByteStore } from '../../server/storage/s3/s3-byte-store';
import { parseS3Location } from '../../server/storage/s3/s3-location';
import { s3ClientFor } from './radosgw';
import { bucketNameOf, testS3, testStoreEnv } from './test-store';

/** The store a test server on `dataDir` keeps its bytes in. Close it after use. */
export async function openTestByteStore(dataDir: string): Promise<ByteStore> {
  const env = await testStoreEnv(dataDir);
  return env.BLOB_STORE ? S3ByteStore.open(parseS3Location(env.BLOB_STORE)) : DiskByteStore.open(dataDir);
}

export async function withTestByteStore<T>(dataDir: string, work: (store: ByteStore) => Promise<T>): Promise<T> {
  const store = await openTestByteStore(dataDir);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Whether `key` is stored (either layout). */
export async function isStored(store: ByteStore, key: string): Promise<boolean> {
  return (await store.blobs.listStored()).has(key);
}

export interface StoreContents {
  /** Every upload with anything stored: the names of its chunks (`<index>`) and partials (`<index>.part`), sorted. */
  uploads: Record<string, string[]>;
  /** Every stored blob key with its layout. */
  blobs: Map<string, StoredLayout>;
  /** Writes that never finished: temp files under DATA_DIR/tmp, and on S3 the bucket's open multipart uploads. */
  unfinishedWrites: string[];
}

/** Everything the store of `dataDir` holds, through the byte-store interface (plus the unfinished writes). */
export async function storeContents(store: ByteStore, dataDir: string): Promise<StoreContents> {
  const uploads: Record<string, string[]> = {};
  for (const id of await store.chunks.listUploadIds()) uploads[id] = (await store.chunks.listFiles(id)).sort();
  const unfinishedWrites = (await fsp.readdir(path.join(dataDir, 'tmp')).catch(() => [] as string[])).map((name) => `tmp/${name}`);
  if (store.kind === 's3') {
    const client = s3ClientFor(testS3());
    try {
      const open = await client.send(new ListMultipartUploadsCommand({ Bucket: bucketNameOf(dataDir) }));
      unfinishedWrites.push(...(open.Uploads ?? []).map((u) => `multipart ${u.Key}`));
    } finally {
      client.destroy();
    }
  }
  return { uploads, blobs: await store.blobs.listStored(), unfinishedWrites };
}

/** The whole of a stored blob (test-sized), read through the store with its layout. */
export async function readStored(store: ByteStore, key: string, layout: { chunkSize: number; chunkCount: number; size: number } | null): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of store.blobs.openRead(key, undefined, layout)) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}
