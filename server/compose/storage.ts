import path from 'node:path';
import { promises as fsp } from 'node:fs';
import type { ServerConfig } from '../config';
import { LocalDiskBlobStore } from '../storage/blob-store';
import { LocalChunkStore } from '../storage/chunk-store';
import { ThumbnailStore } from '../storage/thumbnail-store';

/** The data directory's stores: blobs, upload chunks, thumbnails and the temp folder they share. */
export interface Storage {
  tmpDir: string;
  blobs: LocalDiskBlobStore;
  chunks: LocalChunkStore;
  thumbnails: ThumbnailStore;
}

export async function buildStorage({ config }: { config: ServerConfig }): Promise<Storage> {
  await fsp.mkdir(config.dataDir, { recursive: true });
  const tmpDir = path.join(config.dataDir, 'tmp');
  const uploadDir = path.join(config.dataDir, 'uploads');
  const storage: Storage = {
    tmpDir,
    blobs: new LocalDiskBlobStore(path.join(config.dataDir, 'blobs'), tmpDir, uploadDir),
    chunks: new LocalChunkStore(uploadDir, tmpDir),
    thumbnails: new ThumbnailStore(path.join(config.dataDir, 'thumbs'), tmpDir),
  };
  await storage.blobs.init();
  await storage.chunks.init();
  await storage.thumbnails.init();
  return storage;
}
