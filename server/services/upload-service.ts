import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { ERRORS } from '../../common/api/errors';
import type { FileEntry } from '../../common/api/types';
import type {
  ChunkExistRequest,
  ChunkExistResponse,
  ChunkMergeRequest,
  ChunkUploadResponse,
  UploadConfig,
} from '../../common/transfer/protocol';
import { chunkCount, chunkRange, fingerprintInput, SHA256_HEX } from '../../common/transfer/protocol';
import type { FilesTable, UploadsTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import type { UploadRepository } from '../repositories/upload-repository';
import type { UserRepository } from '../repositories/user-repository';
import type { BlobStore } from '../storage/blob-store';
import type { LocalChunkStore } from '../storage/chunk-store';
import type { Caller } from './caller';
import { nameKeyOf, toFileEntry, validName, type FileService } from './file-service';

export interface UploadServiceOptions {
  chunkSize: number;
  maxFileSize: number;
  uploadExpiryMs: number;
}

function digestsOf(upload: UploadsTable): string[] {
  return JSON.parse(upload.chunk_digests) as string[];
}

export class UploadService {
  constructor(
    private readonly uploads: UploadRepository,
    private readonly users: UserRepository,
    private readonly fileService: FileService,
    private readonly chunks: LocalChunkStore,
    private readonly blobs: BlobStore,
    private readonly options: UploadServiceOptions,
  ) {}

  config(): UploadConfig {
    return { chunkSize: this.options.chunkSize, maxFileSize: this.options.maxFileSize };
  }

  /** Opens (or finds) the upload session for this content and lists the chunks already stored. */
  async chunkExist(caller: Caller, req: ChunkExistRequest, now = Date.now()): Promise<ChunkExistResponse> {
    const { chunkSize } = this.options;
    if (req.chunkSize !== chunkSize) throw new AppError(ERRORS.VALIDATION, `分片大小必须为 ${chunkSize} 字节`);
    if (req.size > this.options.maxFileSize) throw new AppError(ERRORS.VALIDATION, '文件超过允许的最大大小');
    const count = chunkCount(req.size, chunkSize);
    if (req.chunkDigests.length !== count) throw new AppError(ERRORS.VALIDATION, `分片摘要数量应为 ${count}`);
    if (!req.chunkDigests.every((d) => SHA256_HEX.test(d))) throw new AppError(ERRORS.VALIDATION, '分片摘要格式不正确');
    const fingerprint = createHash('sha256').update(fingerprintInput(req.chunkDigests)).digest('hex');
    if (fingerprint !== req.fingerprint) throw new AppError(ERRORS.FINGERPRINT_MISMATCH);
    const name = validName(req.name);
    await this.fileService.requireParent(caller, req.parentId, req.category);

    const user = await this.users.findById(caller.userId);
    if (!user || user.used_size + req.size > user.quota) throw new AppError(ERRORS.QUOTA_EXCEEDED);

    const expiresAt = now + this.options.uploadExpiryMs;
    const existing = await this.uploads.findActiveByFingerprint(caller.userId, fingerprint, req.size, chunkSize, now);
    if (existing) {
      await this.uploads.updateTarget(existing.id, name, req.parentId, req.category, now, expiresAt);
      const stored = await this.uploads.storedChunks(existing.id);
      return { uploadId: existing.id, chunkSize, chunkCount: count, existingChunks: stored.map((c) => c.idx) };
    }
    const uploadId = newId();
    await this.uploads.insert({
      id: uploadId,
      tenant_id: caller.tenantId,
      user_id: caller.userId,
      fingerprint,
      size: req.size,
      chunk_size: chunkSize,
      chunk_count: count,
      chunk_digests: JSON.stringify(req.chunkDigests),
      name,
      parent_id: req.parentId,
      category: req.category,
      created_at: now,
      updated_at: now,
      expires_at: expiresAt,
    });
    return { uploadId, chunkSize, chunkCount: count, existingChunks: [] };
  }

  private async requireUpload(caller: Caller, uploadId: string, now: number): Promise<UploadsTable> {
    const upload = await this.uploads.findOwned(uploadId, caller.userId, caller.tenantId, now);
    if (!upload) throw new AppError(ERRORS.UPLOAD_NOT_FOUND);
    return upload;
  }

  /**
   * Streams one chunk to disk and keeps it only if its length and SHA-256 match both the header and
   * the digest announced in chunk/exist.
   */
  async chunkUpload(
    caller: Caller,
    uploadId: string,
    index: number,
    headerDigest: string | undefined,
    declaredLength: number | undefined,
    body: Readable,
    now = Date.now(),
  ): Promise<ChunkUploadResponse> {
    const upload = await this.requireUpload(caller, uploadId, now);
    if (index < 0 || index >= upload.chunk_count) throw new AppError(ERRORS.CHUNK_INDEX_INVALID);
    const expectedDigest = digestsOf(upload)[index];
    const digest = headerDigest?.toLowerCase();
    if (!digest || digest !== expectedDigest) throw new AppError(ERRORS.CHUNK_DIGEST_MISMATCH);
    const { start, end } = chunkRange(index, upload.size, upload.chunk_size);
    const expectedLength = end - start;
    // Refuse before reading when the client already says the length is wrong.
    if (declaredLength !== undefined && declaredLength !== expectedLength) throw new AppError(ERRORS.CHUNK_SIZE_MISMATCH);

    const received = await this.chunks.receive(upload.id, index, body, expectedLength);
    if (received.overflow || received.size !== expectedLength) {
      await received.discard();
      throw new AppError(ERRORS.CHUNK_SIZE_MISMATCH);
    }
    if (received.sha256 !== digest) {
      await received.discard();
      throw new AppError(ERRORS.CHUNK_DIGEST_MISMATCH);
    }
    // Same digest → same bytes, so replacing an already stored chunk is harmless (idempotent).
    await received.keep();
    await this.uploads.recordChunk(upload.id, index, received.size, received.sha256);
    await this.uploads.touch(upload.id, now, now + this.options.uploadExpiryMs);
    return { index, size: received.size };
  }

  /** Concatenates the chunks into one blob, verifying every byte again, then commits the file. */
  async merge(caller: Caller, req: ChunkMergeRequest, now = Date.now()): Promise<FileEntry> {
    const upload = await this.requireUpload(caller, req.uploadId, now);
    const name = validName(req.name);
    await this.fileService.requireParent(caller, req.parentId, req.category);
    const stored = await this.uploads.storedChunks(upload.id);
    if (stored.length !== upload.chunk_count) throw new AppError(ERRORS.CHUNKS_MISSING);
    const expected = digestsOf(upload);

    const writer = await this.blobs.createWriter();
    let storageKey: string;
    try {
      const actualDigests: string[] = [];
      let total = 0;
      for (let i = 0; i < upload.chunk_count; i++) {
        const hash = createHash('sha256');
        for await (const piece of this.chunks.openRead(upload.id, i) as AsyncIterable<Buffer>) {
          hash.update(piece);
          total += piece.length;
          await writer.write(piece);
        }
        actualDigests.push(hash.digest('hex'));
      }
      const fingerprint = createHash('sha256').update(fingerprintInput(actualDigests)).digest('hex');
      const intact = total === upload.size && fingerprint === upload.fingerprint && actualDigests.every((d, i) => d === expected[i]);
      if (!intact) throw new AppError(ERRORS.FINGERPRINT_MISMATCH);
      storageKey = await writer.commit();
    } catch (err) {
      await writer.abort();
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new AppError(ERRORS.CHUNKS_MISSING);
      throw err;
    }

    const file: FilesTable = {
      id: newId(),
      tenant_id: caller.tenantId,
      owner_id: caller.userId,
      parent_id: req.parentId,
      category: req.category,
      name,
      name_key: nameKeyOf(name),
      is_dir: 0,
      size: upload.size,
      blob_id: null,
      created_at: now,
      updated_at: now,
    };
    let outcome;
    try {
      outcome = await this.uploads.commit({
        uploadId: upload.id,
        userId: caller.userId,
        tenantId: caller.tenantId,
        fingerprint: upload.fingerprint,
        size: upload.size,
        storageKey,
        newBlobId: newId(),
        file,
        now,
      });
    } catch (err) {
      await this.blobs.remove(storageKey);
      throw err;
    }
    if (!outcome.ok) {
      await this.blobs.remove(storageKey);
      if (outcome.reason === 'quota') throw new AppError(ERRORS.QUOTA_EXCEEDED);
      if (outcome.reason === 'nameConflict') throw new AppError(ERRORS.NAME_CONFLICT);
      throw new AppError(ERRORS.UPLOAD_NOT_FOUND);
    }
    // The tenant already had this content: the new copy is redundant.
    if (outcome.reusedExistingBlob) await this.blobs.remove(storageKey);
    await this.chunks.removeUpload(upload.id);
    return toFileEntry(outcome.file);
  }

  /** Removes expired uploads: rows first (so nobody resumes them), then their chunk files. */
  async sweepExpired(now = Date.now()): Promise<number> {
    let removed = 0;
    for (;;) {
      const ids = await this.uploads.expiredUploadIds(now, 100);
      for (const id of ids) {
        await this.uploads.deleteUpload(id);
        await this.chunks.removeUpload(id);
        removed++;
      }
      if (ids.length < 100) return removed;
    }
  }
}
