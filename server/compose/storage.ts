import path from 'node:path';
import { promises as fsp } from 'node:fs';
import type { ServerConfig } from '../config';
import type { ByteStore } from '../storage/byte-store';
import { DiskByteStore } from '../storage/disk-store';
import { S3ByteStore } from '../storage/s3/s3-byte-store';

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

export async function buildStorage({ config }: { config: ServerConfig }): Promise<Storage> {
  await fsp.mkdir(config.dataDir, { recursive: true });
  const tmpDir = path.join(config.dataDir, 'tmp');
  await fsp.mkdir(tmpDir, { recursive: true });
  const store = config.blobStore ? await S3ByteStore.open(config.blobStore) : await DiskByteStore.open(config.dataDir);
  return { tmpDir, store, blobs: store.blobs, chunks: store.chunks, thumbnails: store.thumbnails };
}
