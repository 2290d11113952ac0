import path from 'node:path';
import { promises as fsp } from 'node:fs';
import type { ServerConfig } from '../config';
import type { ByteStore } from '../storage/byte-store';
import { DiskByteStore } from '../storage/disk-store';

/**
 * Where the bytes live (storage/byte-store.ts): the local disk under DATA_DIR by default, an S3 bucket
 * with BLOB_STORE. `tmpDir` is DATA_DIR/tmp whichever store keeps the bytes (test hooks write there).
 */
export interface Storage {
  tmpDir: string;
  store: ByteStore;
  blobs: ByteStore['blobs'];
  chunks: ByteStore['chunks'];
  thumbnails: ByteStore['thumbnails'];
}

/**
 * The S3 store and the AWS SDK under it are loaded only when BLOB_STORE names a bucket: ~20 MB of an idle
 * server that stores on disk (docs/object-store.md, "The server's memory").
 */
async function openS3(location: NonNullable<ServerConfig['blobStore']>): Promise<ByteStore> {
  const { S3ByteStore } = await import('../storage/s3/s3-byte-store');
  return S3ByteStore.open(location);
}

export async function buildStorage({ config }: { config: ServerConfig }): Promise<Storage> {
  await fsp.mkdir(config.dataDir, { recursive: true });
  const tmpDir = path.join(config.dataDir, 'tmp');
  await fsp.mkdir(tmpDir, { recursive: true });
  const store = config.blobStore ? await openS3(config.blobStore) : await DiskByteStore.open(config.dataDir);
  return { tmpDir, store, blobs: store.blobs, chunks: store.chunks, thumbnails: store.thumbnails };
}
