import type { Readable } from 'node:stream';
import { ERRORS } from '../../common/api/errors';
import { AppError } from '../http/app-error';
import type { FileRepository } from '../repositories/file-repository';
import type { BlobStore } from '../storage/blob-store';
import type { Caller } from './caller';
import { scopeOf } from './file-service';
import { layoutOf } from './upload-service';

export interface Downloadable {
  name: string;
  size: number;
  /** Content fingerprint, used as a strong ETag. */
  fingerprint: string;
  open(range?: { start: number; end: number }): Readable;
}

export class DownloadService {
  constructor(
    private readonly files: FileRepository,
    private readonly blobs: BlobStore,
  ) {}

  async resolve(caller: Caller, fileId: string): Promise<Downloadable> {
    const row = await this.files.findOwned(scopeOf(caller), fileId);
    if (!row) throw new AppError(ERRORS.NOT_FOUND);
    if (row.is_dir === 1) throw new AppError(ERRORS.IS_FOLDER);
    const blob = row.blob_id ? await this.files.findBlob(caller.tenantId, row.blob_id) : undefined;
    if (!blob) throw new AppError(ERRORS.NOT_FOUND);
    return {
      name: row.name,
      size: Number(blob.size),
      fingerprint: blob.fingerprint,
      open: (range) => this.blobs.openRead(blob.storage_key, range, layoutOf(blob)),
    };
  }
}
