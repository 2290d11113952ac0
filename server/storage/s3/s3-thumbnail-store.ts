import type { ThumbnailStore } from '../byte-store';
import { isMissing, type S3Objects } from './s3-objects';

/** Which rules made the kept thumbnails (as thumbnail-store.ts's THUMBNAIL_RULES_VERSION): older ones are never read. */
const RULES_FOLDER = 'thumbs/v2/';

/** Thumbnails as objects `thumbs/v<rules>/<blobId>.webp`. */
export class S3ThumbnailStore implements ThumbnailStore {
  constructor(private readonly objects: S3Objects) {}

  private keyOf(blobId: string): string {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(blobId)) throw new Error('invalid blob id');
    return `${RULES_FOLDER}${blobId}.webp`;
  }

  async get(blobId: string): Promise<Buffer | null> {
    try {
      const parts: Buffer[] = [];
      for await (const piece of await this.objects.get(this.keyOf(blobId))) parts.push(piece as Buffer);
      return Buffer.concat(parts);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async put(blobId: string, data: Buffer): Promise<void> {
    await this.objects.put(this.keyOf(blobId), data, data.length);
  }

  async remove(blobId: string): Promise<void> {
    await this.objects.delete([this.keyOf(blobId)]);
  }
}
