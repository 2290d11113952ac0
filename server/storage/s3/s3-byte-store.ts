import type { ByteStore, StoreCleanup } from '../byte-store';
import { S3BlobStore } from './s3-blob-store';
import { S3ChunkStore } from './s3-chunk-store';
import type { S3Location } from './s3-location';
import { S3Objects } from './s3-objects';
import { S3ThumbnailStore } from './s3-thumbnail-store';

/**
 * The object-store backend (BLOB_STORE=s3://…): blobs, upload chunks and thumbnails as objects under
 * the bucket's key prefix (docs/object-store.md). Several server processes on several machines reach
 * the same bytes.
 */
export class S3ByteStore implements ByteStore {
  readonly kind = 's3' as const;
  readonly blobs: S3BlobStore;
  readonly chunks: S3ChunkStore;
  readonly thumbnails: S3ThumbnailStore;

  private constructor(private readonly objects: S3Objects) {
    this.blobs = new S3BlobStore(objects);
    this.chunks = new S3ChunkStore(objects);
    this.thumbnails = new S3ThumbnailStore(objects);
  }

  /** Connects and checks the bucket answers (a wrong BLOB_STORE or credentials fail the start, loudly). */
  static async open(location: S3Location): Promise<S3ByteStore> {
    const objects = new S3Objects(location);
    try {
      await objects.check();
    } catch (err) {
      objects.close();
      throw new Error(`BLOB_STORE: bucket '${location.bucket}' at ${location.endpoint ?? 'AWS'} does not answer: ${(err as Error).message}`, { cause: err });
    }
    return new S3ByteStore(objects);
  }

  /** Incomplete multipart uploads (a server-made blob being written when its process stopped) started before `olderThan`. */
  async cleanUp(olderThan: number): Promise<StoreCleanup> {
    return { tempFiles: 0, multipartUploads: await this.objects.abortMultipartUploads(olderThan) };
  }

  async close(): Promise<void> {
    this.objects.close();
  }
}
