import path from 'node:path';
import { promises as fsp } from 'node:fs';
import { TempFile } from './durable-fs';

/**
 * Server-made thumbnails, one file per blob (content-addressed, so a thumbnail never goes stale:
 * new content is a new blob). A lost thumbnail is simply made again, so no fsync of the directory.
 */
export class ThumbnailStore {
  constructor(
    private readonly dir: string,
    private readonly tmpDir: string,
  ) {}

  async init(): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true });
  }

  private pathOf(blobId: string): string {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(blobId)) throw new Error('invalid blob id');
    return path.join(this.dir, `${blobId}.webp`);
  }

  async get(blobId: string): Promise<Buffer | null> {
    try {
      return await fsp.readFile(this.pathOf(blobId));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async put(blobId: string, data: Buffer): Promise<void> {
    const temp = await TempFile.create(this.tmpDir);
    try {
      await temp.write(data);
      await temp.commit(this.pathOf(blobId));
    } catch (err) {
      await temp.discard();
      throw err;
    }
  }

  async remove(blobId: string): Promise<void> {
    await fsp.rm(this.pathOf(blobId), { force: true });
  }
}
