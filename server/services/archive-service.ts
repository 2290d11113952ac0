import { createHash } from 'node:crypto';
import { viewsOnly } from '../../common/api/byte-access';
import { ERRORS } from '../../common/api/errors';
import { THUMBNAIL_SIZE, ZIP_MAX_BYTES, ZIP_MAX_ENTRIES } from '../../common/api/types';
import { fileKindOf } from '../../common/files/kind';
import { COMPONENT_MAX_BYTES, portableName } from '../../common/files/portable-name';
import { archiveBaseName } from '../../common/files/zip-name';
import { PICTURE_HEAD_BYTES, pictureFormatOf } from '../../common/files/content-signatures';
import type { BlobsTable, FilesTable } from '../db/schema';
import { AppError } from '../http/app-error';
import type { ZipMember } from '../http/zip-writer';
import type { FileRepository } from '../repositories/file-repository';
import type { BlobStore } from '../storage/byte-store';
import type { ThumbnailStore } from '../storage/byte-store';
import type { Caller } from './caller';
import { actionLog, fileTarget } from './action-log/recorder';
import { freeName } from './naming';
import { loadSharp } from './sharp-on-demand';
import type { AccessService } from './space-access';
import { watermarkText } from './sharing/watermark-text';
import { grantOf, type ByteGate } from './sharing/byte-gate';
import { layoutOf } from './upload-commit';
import { documentKindOf } from '../../common/files/documents';

const DEFLATE_KINDS = new Set(['txt', 'unknown']);

/** Pictures above this size get no thumbnail (the preview serves the picture itself). */
const THUMBNAIL_MAX_INPUT = 64 * 1024 * 1024;

/** Room left for ' (n)' when two names of one folder map to the same portable name. */
const NUMBERING_ROOM = 12;

/**
 * Member names unique within their folder (case-insensitively, as Windows and macOS compare them)
 * after making each portable (common/files/portable-name.ts).
 */
class FolderNames {
  private readonly taken = new Map<string, Set<string>>();
  name(folder: string, raw: string): string {
    const set = this.taken.get(folder) ?? this.taken.set(folder, new Set()).get(folder)!;
    const portable = portableName(raw);
    const unique = set.has(portable.toLowerCase()) ? freeName(portableName(raw, COMPONENT_MAX_BYTES - NUMBERING_ROOM), set) : portable;
    set.add(unique.toLowerCase());
    return unique;
  }
}

export interface ZipPlan {
  /** Archive file name (with .zip). */
  fileName: string;
  members: ZipMember[];
  totalBytes: number;
}

export interface ArchiveServiceDeps {
  files: FileRepository;
  blobs: BlobStore;
  access: AccessService;
  thumbnails: ThumbnailStore;
  gate: ByteGate;
  /** Burns a preview-only share's watermark into a thumbnail (services/sharing/watermark.ts). */
  watermark: (bytes: Buffer, text: string) => Promise<Buffer | null>;
}

/**
 * Archives (streamed ZIP of files and folder trees) and previews (thumbnails) of entries the caller
 * may read. The ZIP's member list is built up front (bounded by ZIP_MAX_ENTRIES / ZIP_MAX_BYTES,
 * so the cap is refused before a byte is sent); the bytes then stream blob by blob.
 */
export class ArchiveService {
  constructor(private readonly deps: ArchiveServiceDeps) {}

  async planZip(caller: Caller, ids: readonly string[], archiveName?: string): Promise<ZipPlan> {
    const entries = await this.deps.access.entries(caller, ids);
    const detail: Record<string, unknown> = { archiveName: archiveName ?? null };
    actionLog.record({ action: 'file.zip', targets: entries.map((e) => fileTarget(e.row)), detail });
    this.deps.gate.assertGrants(entries, 'download');
    const { plan, rows } = await this.planRows(caller.tenantId, entries.map((e) => e.row), archiveName);
    detail.entries = rows.length;
    detail.bytes = plan.totalBytes;
    await this.deps.gate.assertExchange(caller, rows, 'download');
    return plan;
  }

  /**
   * The ZIP of entries whose access was checked (a share link's entries), with every row it holds:
   * folder trees walked, capped by ZIP_MAX_ENTRIES / ZIP_MAX_BYTES before a byte is sent.
   */
  async planRows(tenantId: string, tops: readonly FilesTable[], archiveName?: string): Promise<{ plan: ZipPlan; rows: FilesTable[] }> {
    const rows: Array<{ row: FilesTable; path: string }> = [];
    const names = new FolderNames();
    for (const row of tops) {
      const top = names.name('', row.name);
      if (row.is_dir === 0) {
        rows.push({ row, path: top });
        continue;
      }
      const tree = await this.deps.files.liveTree(tenantId, row.id);
      const paths = new Map<string, string>([[row.id, top]]);
      for (const t of tree) {
        const parentPath = paths.get(t.parent_id!)!;
        const path = t.depth === 0 ? top : `${parentPath}/${names.name(parentPath, t.name)}`;
        paths.set(t.id, path);
        rows.push({ row: t, path });
        if (rows.length > ZIP_MAX_ENTRIES) throw new AppError(ERRORS.ZIP_TOO_LARGE);
      }
    }
    if (rows.length > ZIP_MAX_ENTRIES) throw new AppError(ERRORS.ZIP_TOO_LARGE);
    const totalBytes = rows.reduce((n, r) => n + (r.row.is_dir ? 0 : Number(r.row.size)), 0);
    if (totalBytes > ZIP_MAX_BYTES) throw new AppError(ERRORS.ZIP_TOO_LARGE);

    const blobIds = [...new Set(rows.map((r) => r.row.blob_id).filter((b): b is string => Boolean(b)))];
    const blobs = new Map<string, BlobsTable>();
    for (let i = 0; i < blobIds.length; i += 500) {
      for (const b of await this.deps.files.findBlobs(tenantId, blobIds.slice(i, i + 500))) blobs.set(b.id, b);
    }
    const members: ZipMember[] = rows.map(({ row, path }) => {
      const blob = row.blob_id ? blobs.get(row.blob_id) : undefined;
      if (row.is_dir === 0 && !blob) throw new AppError(ERRORS.NOT_FOUND);
      return {
        name: path,
        isDir: row.is_dir === 1,
        size: row.is_dir ? 0 : Number(blob!.size),
        modifiedAt: row.updated_at,
        // The whole blob as a range: a small file's read then allocates its size, not the store's read size
        // (1 MiB on disk), which 16 small members read ahead would hold at once.
        open:
          blob && Number(blob.size) > 0
            ? (signal?: AbortSignal) => this.deps.blobs.openRead(blob.storage_key, { start: 0, end: Number(blob.size) - 1 }, layoutOf(blob), signal) as AsyncIterable<Uint8Array>
            : undefined,
        // Text compresses well; pictures, video, music, packages and Office files are compressed already.
        deflate: row.is_dir === 0 && DEFLATE_KINDS.has(fileKindOf(row.name, false)),
      };
    });
    const fallback = archiveBaseName(tops.map((t) => ({ name: t.name, isDir: t.is_dir === 1 })));
    const base = portableName(archiveName?.trim() || fallback, COMPONENT_MAX_BYTES - 4).replace(/\.zip$/i, '');
    return { plan: { fileName: `${base}.zip`, members, totalBytes }, rows: rows.map((r) => r.row) };
  }

  /**
   * A WebP of at most THUMBNAIL_SIZE px for a picture, made once per content and kept; through a
   * preview-only share with the viewer's watermark burnt in (made per call, never kept).
   */
  async thumbnail(caller: Caller, id: string, now = Date.now()): Promise<{ data: Buffer; etag: string }> {
    const entry = await this.deps.access.entry(caller, id);
    const { row } = entry;
    if (row.is_dir === 1 || !hasThumbnail(row.name) || !row.blob_id) throw new AppError(ERRORS.NO_THUMBNAIL);
    await this.deps.gate.assert(caller, [entry], 'view');
    const text = viewsOnly(grantOf(entry)) ? watermarkText(caller.username, now) : null;
    const plain = await this.plainThumbnail(caller.tenantId, row.blob_id, row.name);
    if (!text) return plain;
    const marked = await this.deps.watermark(plain.data, text);
    if (!marked) throw new AppError(ERRORS.NO_THUMBNAIL);
    return { data: marked, etag: `"thumb-wm-${createHash('sha256').update(text).update(plain.etag).digest('hex').slice(0, 24)}"` };
  }

  /**
   * The kept thumbnail of a blob: a picture's is made on first use; a document's first page is made by
   * the documents pipeline in the background (none until then, nor when it could not be made).
   */
  async plainThumbnail(tenantId: string, blobId: string, name: string): Promise<{ data: Buffer; etag: string }> {
    const blob = await this.deps.files.findBlob(tenantId, blobId);
    if (!blob) throw new AppError(ERRORS.NOT_FOUND);
    const etag = `"thumb-${blob.fingerprint}"`;
    const cached = await this.deps.thumbnails.get(blob.id);
    if (cached) return { data: cached, etag };
    if (fileKindOf(name, false) !== 'picture') throw new AppError(ERRORS.NO_THUMBNAIL);
    if (Number(blob.size) > THUMBNAIL_MAX_INPUT) throw new AppError(ERRORS.NO_THUMBNAIL);
    let data: Buffer;
    try {
      // Read whole (bounded by THUMBNAIL_MAX_INPUT): a read error then rejects instead of stalling a pipe.
      const parts: Buffer[] = [];
      for await (const piece of this.deps.blobs.openRead(blob.storage_key, undefined, layoutOf(blob)) as AsyncIterable<Buffer>) parts.push(piece);
      const bytes = Buffer.concat(parts);
      // The content decides, not the name: an SVG (or anything else) called .png is never decoded.
      // SVG is never rendered by the server at all: it may carry scripts, entities and external links.
      if (!pictureFormatOf(bytes.subarray(0, PICTURE_HEAD_BYTES))) throw new AppError(ERRORS.NO_THUMBNAIL);
      const sharp = await loadSharp();
      // The first frame only: an animated picture is no way to make the server decode thousands of frames.
      data = await sharp(bytes, { limitInputPixels: 100_000_000, pages: 1, failOn: 'error' })
        .rotate()
        .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 75 })
        .toBuffer();
    } catch {
      // Not decodable as an image (wrong extension, damaged): no thumbnail, the UI shows the icon.
      throw new AppError(ERRORS.NO_THUMBNAIL);
    }
    await this.deps.thumbnails.put(blob.id, data);
    return { data, etag };
  }
}

/** Pictures, and documents whose first page the documents pipeline makes (Office, PDF). */
export function hasThumbnail(name: string): boolean {
  const document = documentKindOf(name);
  return fileKindOf(name, false) === 'picture' || document === 'office' || document === 'pdf';
}
