import { ERRORS } from '../../common/api/errors';
import type { ChunkExistRequest } from '../../common/api/endpoints/uploads';
import type { ChunkExistResponse, PartialChunk } from '../../common/transfer/protocol';
import { chunkCount, chunkRange, SHA256_HEX } from '../../common/transfer/protocol';
import type { UploadsTable } from '../db/schema';
import { installerExempt } from './installer-purpose';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import type { UploadRepository } from '../repositories/upload-repository';
import type { UserRepository } from '../repositories/user-repository';
import type { ChunkStore } from '../storage/byte-store';
import { chunkDigestOf, fingerprintOfDigests } from '../storage/content-digest';
import type { Caller } from './caller';
import { STREAMING_FINGERPRINT } from './chunk-receiver';
import type { FileService } from './file-service';
import type { PendingWork } from './keyed-lock';
import { LOCK_KEYS, type Locks } from './locks';
import { finishedEntry, uploadPlace } from './upload-commit';
import type { TypePolicy, UploadServiceOptions } from './upload-service';

/*
 * chunk/exist: opening (or finding) an upload session, before any chunk body arrives. Split from
 * upload-service.ts (which keeps chunkExist as its public entry): the announce checks, the lookup of
 * a resumable session, the partial chunks it holds and the sparse file's zero chunks stored as holes.
 */

/** A last chunk shorter than a whole one is checked for zeros (storeZeroChunks) up to this length. */
const ZERO_TAIL_MAX_BYTES = 1024 * 1024;

/** Longest chunk/exist waits for chunk requests of its session still being received (see chunkExist). */
const RECEIVING_WAIT_MS = 500;

/** Digests and fingerprint a client announced, checked for form, count and agreement. */
export function checkedDigests(digests: string[] | undefined, fingerprint: string | undefined, count: number): { digests: string[]; fingerprint: string } {
  if (!digests || !fingerprint) throw new AppError(ERRORS.VALIDATION, '需同时提供文件指纹与分片摘要');
  if (digests.length !== count) throw new AppError(ERRORS.VALIDATION, `分片摘要数量应为 ${count}`);
  if (!digests.every((d) => SHA256_HEX.test(d))) throw new AppError(ERRORS.VALIDATION, '分片摘要格式不正确');
  const computed = fingerprintOfDigests(digests);
  if (computed !== fingerprint) throw new AppError(ERRORS.FINGERPRINT_MISMATCH);
  return { digests, fingerprint };
}

export interface UploadSessionOpenerDeps {
  uploads: UploadRepository;
  users: UserRepository;
  fileService: FileService;
  chunks: ChunkStore;
  types: TypePolicy;
  options: UploadServiceOptions;
  /** The server's locks: a zero chunk is recorded under its upload's (LOCK_KEYS.upload) as a received one. */
  locks: Locks;
  /** Chunk requests being received, by upload (chunk/exist waits for them briefly). */
  receiving: PendingWork;
}

export class UploadSessionOpener {
  constructor(private readonly deps: UploadSessionOpenerDeps) {}

  /**
   * Opens (or finds) the upload session and lists the chunks already stored. Announced session
   * (fingerprint + digests given): found by this user + fingerprint + size. Streaming session (neither
   * given, protocol.ts): found by `uploadId`; its fingerprint is '' and its digests null until merge.
   */
  async chunkExist(caller: Caller, req: ChunkExistRequest, now = Date.now()): Promise<ChunkExistResponse> {
    const { chunkSize } = this.deps.options;
    if (req.chunkSize !== chunkSize) throw new AppError(ERRORS.CHUNK_SIZE_CHANGED, `服务器的分片大小为 ${chunkSize} 字节，请按此大小重新计算后上传`);
    if (req.size > this.deps.options.maxFileSize) throw new AppError(ERRORS.VALIDATION, '文件超过允许的最大大小');
    const count = chunkCount(req.size, chunkSize);
    const streaming = req.fingerprint === undefined && req.chunkDigests === undefined;
    const announced = streaming ? null : checkedDigests(req.chunkDigests, req.fingerprint, count);
    const finished = await finishedEntry(this.deps.uploads, caller, req.clientKey);
    if (finished) {
      // This item's file exists already (the answer to its merge was lost): nothing more to send.
      return { uploadId: req.uploadId ?? '', chunkSize, chunkCount: count, existingChunks: Array.from({ length: count }, (_, i) => i), finished: { fileId: finished.id } };
    }
    const installer = installerExempt(caller, req.purpose);
    // With the name: a new version of a file shared with the caller (permission edit) may go to its folder.
    // With versionOf: that file by id (its name and place), refused now if the caller may not change it.
    const { name, parentId, category } = await uploadPlace(this.deps.fileService, caller, req, true);
    // A client installer its admin uploads may be of a type the tenant blocks (installer-purpose.ts).
    if (!installer) await this.deps.types.assertAllowedType(caller.tenantId, name);

    const user = await this.deps.users.findById(caller.userId);
    if (!user || user.used_size + req.size > user.quota) throw new AppError(ERRORS.QUOTA_EXCEEDED);

    const expiresAt = now + this.deps.options.uploadExpiryMs;
    const existing = announced
      ? await this.deps.uploads.findActiveByFingerprint(caller.userId, announced.fingerprint, req.size, chunkSize, now)
      : await this.findStreamingSession(caller, req, now);
    if (existing) {
      await this.deps.uploads.updateTarget(existing.id, name, parentId, category, now, expiresAt);
      // A body cut a moment ago (the client asks again at once) may still be read and kept: list what it
      // leaves, not what it held so far (else the client sends those bytes again). Bounded: a live request
      // of this session (a progress check during a whole-file upload) is not waited for.
      await this.deps.receiving.settled(existing.id, RECEIVING_WAIT_MS);
      const stored = await this.deps.uploads.storedChunks(existing.id);
      const existingChunks = stored.map((c) => c.idx);
      const partialChunks = await this.partialChunks(existing, existingChunks);
      return { uploadId: existing.id, chunkSize, chunkCount: count, existingChunks, partialChunks };
    }
    const uploadId = newId();
    await this.deps.uploads.insert({
      id: uploadId,
      tenant_id: caller.tenantId,
      user_id: caller.userId,
      fingerprint: announced?.fingerprint ?? STREAMING_FINGERPRINT,
      size: req.size,
      chunk_size: chunkSize,
      chunk_count: count,
      chunk_digests: JSON.stringify(announced?.digests ?? new Array<null>(count).fill(null)),
      name,
      parent_id: parentId,
      category,
      created_at: now,
      updated_at: now,
      expires_at: expiresAt,
    });
    const zeros = announced ? await this.storeZeroChunks(uploadId, announced.digests, req.size, now) : [];
    return { uploadId, chunkSize, chunkCount: count, existingChunks: zeros, partialChunks: [] };
  }

  /** Digest of `length` zero bytes as one chunk, by length (a session has at most two chunk lengths). */
  private readonly zeroDigests = new Map<number, string>();

  /**
   * A sparse file's all-zero chunks (announced with the digest of zeros) are not sent: the server
   * stores each as a hole (chunk-store.ts storeZeroChunk) and records it, and chunk/exist lists them
   * as held. Crash-safe as a received chunk: the file is in place before its record.
   */
  private async storeZeroChunks(uploadId: string, digests: readonly string[], size: number, now: number): Promise<number[]> {
    const stored: number[] = [];
    for (const [index, digest] of digests.entries()) {
      const { start, end } = chunkRange(index, size, this.deps.options.chunkSize);
      const length = end - start;
      // The digest of zeros is worked out once per chunk length; a last chunk of another length only
      // when small (hashing up to a whole chunk on the main thread for every upload would cost more).
      if (length === 0 || (length !== this.deps.options.chunkSize && length > ZERO_TAIL_MAX_BYTES)) continue;
      let zero = this.zeroDigests.get(length);
      if (zero === undefined) {
        zero = chunkDigestOf(Buffer.alloc(length));
        if (length === this.deps.options.chunkSize) this.zeroDigests.set(length, zero);
      }
      if (digest !== zero) continue;
      await this.deps.locks.run(LOCK_KEYS.upload(uploadId), async () => {
        await this.deps.chunks.storeZeroChunk(uploadId, index, length);
        await this.deps.uploads.recordChunk(uploadId, index, length, digest, now, now + this.deps.options.uploadExpiryMs);
      });
      stored.push(index);
    }
    return stored;
  }

  /** The caller's live streaming session `req.uploadId` when it is for a file of this size. */
  private async findStreamingSession(caller: Caller, req: ChunkExistRequest, now: number): Promise<UploadsTable | undefined> {
    if (!req.uploadId) return undefined;
    const upload = await this.deps.uploads.findOwned(req.uploadId, caller.userId, caller.tenantId, now);
    const usable = upload && !upload.merge_blob_id && upload.fingerprint === STREAMING_FINGERPRINT && Number(upload.size) === req.size;
    return usable ? upload : undefined;
  }

  /** Missing chunks of which a prefix is held (0 < bytes < chunk length), from the `.part` files. */
  private async partialChunks(upload: UploadsTable, stored: number[]): Promise<PartialChunk[]> {
    const storedSet = new Set(stored);
    const missing = new Set<number>();
    for (let i = 0; i < upload.chunk_count; i++) if (!storedSet.has(i)) missing.add(i);
    if (missing.size === 0) return [];
    const sizes = await this.deps.chunks.partialSizes(upload.id, missing);
    const partials: PartialChunk[] = [];
    for (const [index, bytes] of [...sizes].sort((a, b) => a[0] - b[0])) {
      const { start, end } = chunkRange(index, Number(upload.size), upload.chunk_size);
      if (bytes < end - start) partials.push({ index, bytes });
    }
    return partials;
  }
}
