import path from 'node:path';
import { promises as fsp } from 'node:fs';
import type { ThumbnailStore } from './byte-store';
import { TempFile } from './durable-fs';

/**
 * Which rules made the kept thumbnails. Bumped when they change: the thumbnails of older rules are
 * dropped at start and made again under the new ones (2: the content decides the format, so an SVG
 * named '.png', which version 1 rasterised, gets none).
 */
const THUMBNAIL_RULES_VERSION = 2;

/**
 * Server-made thumbnails, one file per blob (content-addressed, so a thumbnail never goes stale:
 * new content is a new blob), under `dir/v<rules>/`. A lost thumbnail is simply made again, so no
 * fsync of the directory.
 */
export class DiskThumbnailStore implements ThumbnailStore {
  private readonly current: string;

  constructor(
    private readonly dir: string,
    private readonly tmpDir: string,
  ) {
    this.current = path.join(dir, `v${THUMBNAIL_RULES_VERSION}`);
  }

  async init(): Promise<void> {
    await fsp.mkdir(this.current, { recursive: true });
    // Version 1 kept its files straight in `dir`; later versions each have their own folder.
    for (const entry of await fsp.readdir(this.dir, { withFileTypes: true })) {
      const legacy = entry.isFile() ? entry.name.endsWith('.webp') : entry.isDirectory() && /^v\d+$/.test(entry.name);
      if (legacy && path.join(this.dir, entry.name) !== this.current) await fsp.rm(path.join(this.dir, entry.name), { recursive: true, force: true });
    }
  }

  private pathOf(blobId: string): string {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(blobId)) throw new Error('invalid blob id');
    return path.join(this.current, `${blobId}.webp`);
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
