import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { LocalDiskBlobStore } from './blob-store';
import type { ByteStore, StoreCleanup } from './byte-store';
import { LocalChunkStore } from './chunk-store';
import { DiskThumbnailStore } from './thumbnail-store';

/**
 * The local-disk backend (the default): everything under DATA_DIR — blobs/, uploads/ (chunks and
 * partials), thumbs/, and tmp/ where every file is written before its rename into place. One file
 * system, so the merge is a directory rename.
 */
export class DiskByteStore implements ByteStore {
  readonly kind = 'disk' as const;
  readonly tmpDir: string;
  readonly blobs: LocalDiskBlobStore;
  readonly chunks: LocalChunkStore;
  readonly thumbnails: DiskThumbnailStore;

  private constructor(dataDir: string) {
    this.tmpDir = path.join(dataDir, 'tmp');
    const uploadDir = path.join(dataDir, 'uploads');
    this.blobs = new LocalDiskBlobStore(path.join(dataDir, 'blobs'), this.tmpDir, uploadDir);
    this.chunks = new LocalChunkStore(uploadDir, this.tmpDir);
    this.thumbnails = new DiskThumbnailStore(path.join(dataDir, 'thumbs'), this.tmpDir);
  }

  static async open(dataDir: string): Promise<DiskByteStore> {
    const store = new DiskByteStore(dataDir);
    await store.blobs.init();
    await store.chunks.init();
    await store.thumbnails.init();
    return store;
  }

  /** Temp files (a chunk or blob being written when its process died) last changed before `olderThan`. */
  async cleanUp(olderThan: number): Promise<StoreCleanup> {
    let tempFiles = 0;
    for (const name of await fsp.readdir(this.tmpDir)) {
      const file = path.join(this.tmpDir, name);
      const stat = await fsp.stat(file).catch(() => null);
      if (!stat || stat.mtimeMs > olderThan) continue;
      await fsp.rm(file, { recursive: true, force: true });
      tempFiles++;
    }
    return { tempFiles, multipartUploads: 0 };
  }

  close(): Promise<void> {
    return this.chunks.close();
  }
}
