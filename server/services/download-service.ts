import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { ERRORS } from '../../common/api/errors';
import { AppError } from '../http/app-error';
import type { FileRepository } from '../repositories/file-repository';
import type { BlobStore } from '../storage/byte-store';
import type { Caller } from './caller';
import { actionLog, fileTarget } from './action-log/recorder';
import { grantOf, type ByteGate, type PreviewPlan } from './sharing/byte-gate';
import type { AccessService, EntryAccess } from './space-access';
import { layoutOf } from './upload-commit';
import { watermarkText } from './sharing/watermark-text';

export interface Downloadable {
  name: string;
  size: number;
  /** Content fingerprint, used as a strong ETag. */
  fingerprint: string;
  open(range?: { start: number; end: number }): Readable;
}

/**
 * Where an Office document's PDF rendition is (services/documents/, docs/documents.md): its stored
 * bytes, 'pending' while it is being made (asking may queue it), or 'unavailable' (the conversion
 * failed, or LibreOffice is not installed).
 */
export interface RenditionSource {
  pdfOf(tenantId: string, blobId: string, name: string): Promise<{ key: string; size: number } | 'pending' | 'unavailable'>;
}

/** A preview's answer: the content, what of it is shown, and the watermark a picture gets (or null). */
export interface Preview {
  file: Downloadable;
  plan: PreviewPlan;
  watermark: string | null;
}

export class DownloadService {
  constructor(
    private readonly files: FileRepository,
    private readonly blobs: BlobStore,
    private readonly access: AccessService,
    /** The one decision of what the caller may do with bytes, and where Office files' PDFs come from. */
    private readonly bytes: { gate: ByteGate; renditions?: RenditionSource | null },
  ) {}

  private get gate(): ByteGate {
    return this.bytes.gate;
  }

  private get renditions(): RenditionSource | null {
    return this.bytes.renditions ?? null;
  }

  /**
   * A live file the caller may download (any space, or through a share), recorded as file.download;
   * refused through a preview-only share; an exchange-area file must be usable from the caller's
   * build (`confirm`: the keepOnDownload token of a flagged one).
   */
  async resolve(caller: Caller, fileId: string, confirm?: string, now = Date.now()): Promise<Downloadable> {
    const entry = await this.fileEntry(caller, fileId, 'file.download');
    await this.gate.assert(caller, [entry], 'download', this.gate.confirmed(caller, confirm, now));
    return this.ofBlob(caller.tenantId, entry.row.name, entry.row.blob_id!);
  }

  /**
   * What a preview of a live file the caller may see shows (ByteGate.view: a rendition, never the
   * original as an attachment), recorded as file.preview; a picture through a preview-only share
   * carries the viewer's watermark.
   */
  async preview(caller: Caller, fileId: string, now = Date.now()): Promise<Preview> {
    const entry = await this.fileEntry(caller, fileId, 'file.preview');
    await this.gate.assert(caller, [entry], 'view');
    const plan = this.gate.view(entry.row.name, grantOf(entry));
    const watermark = plan.rendition.as === 'watermarked-picture' ? watermarkText(caller.username, now) : null;
    return { file: await this.shown(caller.tenantId, entry.row.name, entry.row.blob_id!, plan), plan, watermark };
  }

  /**
   * The bytes a preview plan shows of a blob: the original, or an Office document's PDF rendition
   * (never the original: PREVIEW_PENDING while it is made, PREVIEW_UNSUPPORTED when it cannot be).
   */
  async shown(tenantId: string, name: string, blobId: string, plan: PreviewPlan): Promise<Downloadable> {
    if (plan.rendition.as !== 'document-pdf') return this.ofBlob(tenantId, name, blobId);
    const blob = await this.files.findBlob(tenantId, blobId);
    if (!blob) throw new AppError(ERRORS.NOT_FOUND);
    const pdf = this.renditions ? await this.renditions.pdfOf(tenantId, blobId, name) : 'unavailable';
    if (pdf === 'pending') throw new AppError(ERRORS.PREVIEW_PENDING);
    if (pdf === 'unavailable') throw new AppError(ERRORS.PREVIEW_UNSUPPORTED, '该文件类型暂不支持预览');
    return {
      name,
      size: pdf.size,
      // The rendition's own validator: derived from the content it was made from.
      fingerprint: createHash('sha256').update(`pdf\0${blob.fingerprint}`).digest('hex'),
      open: (range) => this.blobs.openRead(pdf.key, range, null),
    };
  }

  private async fileEntry(caller: Caller, fileId: string, action: 'file.download' | 'file.preview'): Promise<EntryAccess> {
    const entry = await this.access.entry(caller, fileId);
    const { row } = entry;
    actionLog.record({ action, targets: [fileTarget(row)], detail: { size: Number(row.size), ...(entry.share ? { viaShare: entry.share.permission } : {}) } });
    if (row.is_dir === 1) throw new AppError(ERRORS.IS_FOLDER);
    if (!row.blob_id) throw new AppError(ERRORS.NOT_FOUND);
    return entry;
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
