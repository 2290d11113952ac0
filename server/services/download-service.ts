import type { Readable } from 'node:stream';
import { ERRORS } from '../../common/api/errors';
import { AppError } from '../http/app-error';
import type { FileRepository } from '../repositories/file-repository';
import type { BlobStore } from '../storage/blob-store';
import type { Caller } from './caller';
import { actionLog, fileTarget } from './action-log/recorder';
import type { AccessService } from './space-access';
import { layoutOf } from './upload-commit';

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
    private readonly access: AccessService,
  ) {}

  /** A live file the caller may read (any space), to download or preview: recorded as that action. */
  async resolve(caller: Caller, fileId: string, action: 'file.download' | 'file.preview' = 'file.download'): Promise<Downloadable> {
    const { row } = await this.access.entry(caller, fileId);
    actionLog.record({ action, targets: [fileTarget(row)], detail: { size: Number(row.size) } });
    if (row.is_dir === 1) throw new AppError(ERRORS.IS_FOLDER);
    if (!row.blob_id) throw new AppError(ERRORS.NOT_FOUND);
    return this.ofBlob(caller.tenantId, row.name, row.blob_id);
  }

  /** The content of a stored blob of the caller's tenant, under a name. */
  async ofBlob(tenantId: string, name: string, blobId: string): Promise<Downloadable> {
    const blob = await this.files.findBlob(tenantId, blobId);
    if (!blob) throw new AppError(ERRORS.NOT_FOUND);
    return {
      name,
      size: Number(blob.size),
      fingerprint: blob.fingerprint,
      open: (range) => this.blobs.openRead(blob.storage_key, range, layoutOf(blob)),
    };
  }
}
