import type { Readable } from 'node:stream';
import { ERRORS } from '../../common/api/errors';
import { AppError } from '../http/app-error';
import type { FileRepository } from '../repositories/file-repository';
import type { BlobStore } from '../storage/blob-store';
import type { Caller } from './caller';
import { actionLog, fileTarget } from './action-log/recorder';
import type { ContentGate } from './sharing/content-gate';
import type { AccessService } from './space-access';
import { layoutOf } from './upload-commit';
import { watermarkText } from './sharing/watermark-text';

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
    private readonly gate: ContentGate,
  ) {}

  /**
   * A live file the caller may read (any space, or through a share), to download or preview:
   * recorded as that action. A download needs more than a preview-only share; an exchange-area
   * file must be usable from the caller's build (`confirm`: the keepOnDownload token of a flagged one).
   */
  async resolve(caller: Caller, fileId: string, action: 'file.download' | 'file.preview' = 'file.download', confirm?: string): Promise<Downloadable> {
    return (await this.resolveWithWatermark(caller, fileId, action, confirm)).file;
  }

  /** The same, with the watermark a preview through a preview-only share carries (null otherwise). */
  async resolveWithWatermark(
    caller: Caller,
    fileId: string,
    action: 'file.download' | 'file.preview',
    confirm?: string,
    now = Date.now(),
  ): Promise<{ file: Downloadable; watermark: string | null }> {
    const entry = await this.access.entry(caller, fileId);
    const { row } = entry;
    actionLog.record({ action, targets: [fileTarget(row)], detail: { size: Number(row.size), ...(entry.share ? { viaShare: entry.share.permission } : {}) } });
    if (row.is_dir === 1) throw new AppError(ERRORS.IS_FOLDER);
    if (!row.blob_id) throw new AppError(ERRORS.NOT_FOUND);
    const use = action === 'file.preview' ? 'preview' : 'download';
    await this.gate.assert(caller, [entry], use, this.gate.confirmed(caller, confirm, now));
    const watermark = entry.share?.permission === 'preview' ? watermarkText(caller.username, now) : null;
    return { file: await this.ofBlob(caller.tenantId, row.name, row.blob_id), watermark };
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
