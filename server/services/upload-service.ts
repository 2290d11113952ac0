import type { Readable } from 'node:stream';
import { ERRORS } from '../../common/api/errors';
import type { FileEntry } from '../../common/api/types';
import type {
  ChunkExistRequest,
  ChunkExistResponse,
  ChunkMergeRequest,
  ChunkRangeUploadResponse,
  ChunkUploadResponse,
  PartialChunk,
  UploadConfig,
} from '../../common/transfer/protocol';
import { chunkCount, chunkRange, SHA256_HEX } from '../../common/transfer/protocol';
import type { UploadsTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import { CONTENT_HEAD_BYTES } from '../../common/files/content-signatures';
import { editorOf } from '../repositories/content-replacement';
import type { ChallengeRepository } from '../repositories/challenge-repository';
import type { CommitOutcome, UploadRepository } from '../repositories/upload-repository';
import type { UserRepository } from '../repositories/user-repository';
import type { BlobStore } from '../storage/blob-store';
import type { LocalChunkStore } from '../storage/chunk-store';
import type { Caller } from './caller';
import { actionLog, describeWrite, type ActionEntry } from './action-log/recorder';
import { toFileEntry, validName, type FileService } from './file-service';
import { commitError, draftFile, finishedEntry } from './upload-commit';
import { chunkDigestOf, fingerprintOfDigests } from '../storage/content-digest';
import { PendingWork, KeyedLock } from './keyed-lock';
import { ChunkReceiver, STREAMING_FINGERPRINT } from './chunk-receiver';

/** Named points where a test run (DRIVE_TEST_HOOKS=1 + DRIVE_TEST_CRASH_POINT) kills the process. */
export const CRASH_POINTS = [
  'chunk-after-write-before-rename',
  'chunk-after-rename-before-record',
  'merge-before-rename',
  'merge-after-rename',
  'merge-after-commit',
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

/** Refuses file types the tenant blocks, by name and by content (implemented by BlockedTypes). */
export interface TypePolicy {
  assertAllowedType(tenantId: string, name: string): Promise<void>;
  assertAllowedContent(tenantId: string, name: string, head: Uint8Array): Promise<void>;
  /** The content alone (no name yet, or a name already judged): FILE_CONTENT_BLOCKED. */
  assertAllowedBytes(tenantId: string, head: Uint8Array): Promise<void>;
}

export interface UploadServiceOptions {
  chunkSize: number;
  maxFileSize: number;
  uploadExpiryMs: number;
  /** Test hook: SIGKILL this process when the named point is reached. */
  crashPoint?: CrashPoint;
}

/** A last chunk shorter than a whole one is checked for zeros (storeZeroChunks) up to this length. */
const ZERO_TAIL_MAX_BYTES = 1024 * 1024;

/** Longest chunk/exist waits for chunk requests of its session still being received (see chunkExist). */
const RECEIVING_WAIT_MS = 500;


/** Announced chunk digests; null entries: a streaming session's, not announced yet. */
function digestsOf(upload: UploadsTable): Array<string | null> {
  return JSON.parse(upload.chunk_digests) as Array<string | null>;
}


/** Digests and fingerprint a client announced, checked for form, count and agreement. */
function checkedDigests(digests: string[] | undefined, fingerprint: string | undefined, count: number): { digests: string[]; fingerprint: string } {
  if (!digests || !fingerprint) throw new AppError(ERRORS.VALIDATION, '需同时提供文件指纹与分片摘要');
  if (digests.length !== count) throw new AppError(ERRORS.VALIDATION, `分片摘要数量应为 ${count}`);
  if (!digests.every((d) => SHA256_HEX.test(d))) throw new AppError(ERRORS.VALIDATION, '分片摘要格式不正确');
  const computed = fingerprintOfDigests(digests);
  if (computed !== fingerprint) throw new AppError(ERRORS.FINGERPRINT_MISMATCH);
  return { digests, fingerprint };
}

/**
 * A streaming session merged without digests from the client: the chunks' recorded digests (computed
 * by the server as each body streamed to disk) in order, and their fingerprint, exactly as a client
 * computes it (fingerprintOfChunkDigests), so later second uploads and dedup find this content.
 */
function serverDigests(stored: ReadonlyArray<{ idx: number; sha256: string }>): { digests: string[]; fingerprint: string } {
  const digests = stored.map((c) => c.sha256);
  return { digests, fingerprint: fingerprintOfDigests(digests) };
}

export class UploadService {
  constructor(
    private readonly uploads: UploadRepository,
    private readonly users: UserRepository,
    private readonly fileService: FileService,
    private readonly chunks: LocalChunkStore,
    private readonly blobs: BlobStore,
    private readonly challenges: ChallengeRepository,
    private readonly types: TypePolicy,
    private readonly options: UploadServiceOptions,
  ) {
    this.receiver = new ChunkReceiver(uploads, chunks, {
      locks: this.locks,
      receiving: this.receiving,
      uploadExpiryMs: options.uploadExpiryMs,
      crashPoint: (point) => this.crashPoint(point),
      firstChunkStored: (caller, uploadId) => this.refuseExecutableHead(caller, uploadId),
    });
  }

  /**
   * By upload id: the rename + record of a chunk, the merge, the sweep of one upload run one at a time.
   * (The writers of one chunk's partial are kept apart by the receiver: chunk-writers.ts.)
   */
  private readonly locks = new KeyedLock();

  /** Chunk requests being received (read, made durable, recorded or kept as a partial), by upload. */
  private readonly receiving = new PendingWork();

  /** Chunk bodies: received, checked, made durable and recorded (chunk-receiver.ts). */
  private readonly receiver: ChunkReceiver;

  /** Every byte read from chunk upload bodies, kept or not (exposed by a test hook only). */
  get chunkBytesReceived(): number {
    return this.receiver.chunkBytesReceived;
  }

  /** A chunk (or its rest, from `offset`): ChunkReceiver.chunkUpload. */
  chunkUpload(caller: Caller, uploadId: string, index: number, headerDigest: string | undefined, declaredLength: number | undefined, body: Readable, now = Date.now(), offset = 0): Promise<ChunkUploadResponse> {
    return this.receiver.chunkUpload(caller, uploadId, index, headerDigest, declaredLength, body, now, offset);
  }

  /** Chunks `index`..`through` in one body: ChunkReceiver.chunkRangeUpload. */
  chunkRangeUpload(caller: Caller, uploadId: string, index: number, through: number, headerDigest: string | undefined, declaredLength: number | undefined, body: Readable, now = Date.now(), offset = 0): Promise<ChunkRangeUploadResponse> {
    return this.receiver.chunkRangeUpload(caller, uploadId, index, through, headerDigest, declaredLength, body, now, offset);
  }

  private crashPoint(point: CrashPoint): void {
    if (this.options.crashPoint === point) process.kill(process.pid, 'SIGKILL');
  }

  config(): UploadConfig {
    return { chunkSize: this.options.chunkSize, maxFileSize: this.options.maxFileSize };
  }

  /**
   * Opens (or finds) the upload session and lists the chunks already stored. Announced session
   * (fingerprint + digests given): found by this user + fingerprint + size. Streaming session (neither
   * given, protocol.ts): found by `uploadId`; its fingerprint is '' and its digests null until merge.
   */
  async chunkExist(caller: Caller, req: ChunkExistRequest, now = Date.now()): Promise<ChunkExistResponse> {
    const { chunkSize } = this.options;
    if (req.chunkSize !== chunkSize) throw new AppError(ERRORS.VALIDATION, `分片大小必须为 ${chunkSize} 字节`);
    if (req.size > this.options.maxFileSize) throw new AppError(ERRORS.VALIDATION, '文件超过允许的最大大小');
    const count = chunkCount(req.size, chunkSize);
    const streaming = req.fingerprint === undefined && req.chunkDigests === undefined;
    const announced = streaming ? null : checkedDigests(req.chunkDigests, req.fingerprint, count);
    const finished = await finishedEntry(this.uploads, caller, req.clientKey);
    if (finished) {
      // This item's file exists already (the answer to its merge was lost): nothing more to send.
      return { uploadId: req.uploadId ?? '', chunkSize, chunkCount: count, existingChunks: Array.from({ length: count }, (_, i) => i), finished: { fileId: finished.id } };
    }
    const name = validName(req.name);
    // With the name: a new version of a file shared with the caller (permission edit) may go to its folder.
    await this.fileService.requireParent(caller, req.parentId, req.category, name);
    await this.types.assertAllowedType(caller.tenantId, name);

    const user = await this.users.findById(caller.userId);
    if (!user || user.used_size + req.size > user.quota) throw new AppError(ERRORS.QUOTA_EXCEEDED);

    const expiresAt = now + this.options.uploadExpiryMs;
    const existing = announced
      ? await this.uploads.findActiveByFingerprint(caller.userId, announced.fingerprint, req.size, chunkSize, now)
      : await this.findStreamingSession(caller, req, now);
    if (existing) {
      await this.uploads.updateTarget(existing.id, name, req.parentId, req.category, now, expiresAt);
      // A body cut a moment ago (the client asks again at once) may still be read and kept: list what it
      // leaves, not what it held so far (else the client sends those bytes again). Bounded: a live request
      // of this session (a progress check during a whole-file upload) is not waited for.
      await this.receiving.settled(existing.id, RECEIVING_WAIT_MS);
      const stored = await this.uploads.storedChunks(existing.id);
      const existingChunks = stored.map((c) => c.idx);
      const partialChunks = await this.partialChunks(existing, existingChunks);
      return { uploadId: existing.id, chunkSize, chunkCount: count, existingChunks, partialChunks };
    }
    const uploadId = newId();
    await this.uploads.insert({
      id: uploadId,
      tenant_id: caller.tenantId,
      user_id: caller.userId,
      fingerprint: announced?.fingerprint ?? STREAMING_FINGERPRINT,
      size: req.size,
      chunk_size: chunkSize,
      chunk_count: count,
      chunk_digests: JSON.stringify(announced?.digests ?? new Array<null>(count).fill(null)),
      name,
      parent_id: req.parentId,
      category: req.category,
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
      const { start, end } = chunkRange(index, size, this.options.chunkSize);
      const length = end - start;
      // The digest of zeros is worked out once per chunk length; a last chunk of another length only
      // when small (hashing up to a whole chunk on the main thread for every upload would cost more).
      if (length === 0 || (length !== this.options.chunkSize && length > ZERO_TAIL_MAX_BYTES)) continue;
      let zero = this.zeroDigests.get(length);
      if (zero === undefined) {
        zero = chunkDigestOf(Buffer.alloc(length));
        if (length === this.options.chunkSize) this.zeroDigests.set(length, zero);
      }
      if (digest !== zero) continue;
      await this.locks.run(uploadId, async () => {
        await this.chunks.storeZeroChunk(uploadId, index, length);
        await this.uploads.recordChunk(uploadId, index, length, digest, now, now + this.options.uploadExpiryMs);
      });
      stored.push(index);
    }
    return stored;
  }

  /** The caller's live streaming session `req.uploadId` when it is for a file of this size. */
  private async findStreamingSession(caller: Caller, req: ChunkExistRequest, now: number): Promise<UploadsTable | undefined> {
    if (!req.uploadId) return undefined;
    const upload = await this.uploads.findOwned(req.uploadId, caller.userId, caller.tenantId, now);
    const usable = upload && !upload.merge_blob_id && upload.fingerprint === STREAMING_FINGERPRINT && Number(upload.size) === req.size;
    return usable ? upload : undefined;
  }

  /** Missing chunks of which a prefix is held (0 < bytes < chunk length), from the `.part` files. */
  private async partialChunks(upload: UploadsTable, stored: number[]): Promise<PartialChunk[]> {
    const storedSet = new Set(stored);
    const missing = new Set<number>();
    for (let i = 0; i < upload.chunk_count; i++) if (!storedSet.has(i)) missing.add(i);
    if (missing.size === 0) return [];
    const sizes = await this.chunks.partialSizes(upload.id, missing);
    const partials: PartialChunk[] = [];
    for (const [index, bytes] of [...sizes].sort((a, b) => a[0] - b[0])) {
      const { start, end } = chunkRange(index, Number(upload.size), upload.chunk_size);
      if (bytes < end - start) partials.push({ index, bytes });
    }
    return partials;
  }

  private async requireUpload(caller: Caller, uploadId: string, now: number): Promise<UploadsTable> {
    const upload = await this.uploads.findOwned(uploadId, caller.userId, caller.tenantId, now);
    if (!upload) throw new AppError(ERRORS.UPLOAD_NOT_FOUND);
    return upload;
  }

  /**
   * Completes an upload without copying a byte: the recorded chunk digests (each verified when its
   * chunk arrived) are checked against the announced ones and the fingerprint, then the chunk
   * directory becomes the blob in one rename and the file is created in one DB transaction.
   * Crash-safe order (see services/recovery.ts for the other half):
   *   1. merge intent (uploads.merge_blob_id) committed   → crash: intent cleared at startup
   *   2. rename uploads/<id>/ → blobs/<xx>/<blobId>/, fsync → crash: moved back, upload resumable
   *   3. DB transaction: blob row, file row, quota, upload rows deleted → crash after: consistent
   * If the tenant already stores this content, no rename happens: the file references that blob and
   * the chunk directory is deleted after the commit (a crash before that leaves an upload directory
   * without an upload row, which recovery removes).
   */
  async merge(caller: Caller, req: ChunkMergeRequest, now = Date.now()): Promise<FileEntry> {
    const entry: ActionEntry = {
      action: 'file.upload',
      targets: [{ type: 'file', id: '', name: req.name }],
      detail: { method: 'chunks', parentId: req.parentId, category: req.category, onConflict: req.onConflict ?? 'fail' },
    };
    actionLog.record(entry);
    const name = validName(req.name);
    return this.locks.run(req.uploadId, async () => {
      const finished = await finishedEntry(this.uploads, caller, req.clientKey);
      if (finished) {
        // A repeat of a merge whose answer was lost: the upload is on record already.
        actionLog.notAnAction();
        // The item's file exists; a session the item opened since (a reload raced the merge) goes.
        if (await this.uploads.findOwned(req.uploadId, caller.userId, caller.tenantId, now)) await this.dropUpload(req.uploadId);
        return finished;
      }
      await this.types.assertAllowedType(caller.tenantId, name);
      let upload = await this.requireUpload(caller, req.uploadId, now);
      await this.fileService.requireParent(caller, req.parentId, req.category, req.onConflict === 'newVersion' ? name : undefined);
      const streaming = upload.fingerprint === STREAMING_FINGERPRINT;
      const stored = await this.uploads.storedChunks(upload.id);
      if (stored.length !== upload.chunk_count) throw new AppError(ERRORS.CHUNKS_MISSING);
      // A streaming session's digests: announced now (checked against the recorded chunks below like any
      // session's, kept once they agree), or left to the server: the digests it recorded as the chunks
      // arrived make the fingerprint. Those are not written back, so the session stays a streaming one
      // the client can continue by uploadId if this merge is refused (a name clash).
      const byServer = streaming && req.chunkDigests === undefined && req.fingerprint === undefined;
      if (streaming) {
        const announced = byServer ? serverDigests(stored) : checkedDigests(req.chunkDigests, req.fingerprint, upload.chunk_count);
        upload = { ...upload, fingerprint: announced.fingerprint, chunk_digests: JSON.stringify(announced.digests) };
      }
      const expected = digestsOf(upload);
      const recorded = stored.map((c) => c.sha256);
      const total = stored.reduce((n, c) => n + Number(c.size), 0);
      const fingerprint = fingerprintOfDigests(recorded);
      const intact =
        total === upload.size &&
        fingerprint === upload.fingerprint &&
        stored.every((c, i) => c.idx === i && c.sha256 === expected[i]);
      if (!intact) throw new AppError(ERRORS.FINGERPRINT_MISMATCH);
      // The name passed; the bytes may still be a program the tenant blocks under another name.
      if (upload.size > 0) await this.types.assertAllowedContent(caller.tenantId, name, await this.chunks.readHead(upload.id, CONTENT_HEAD_BYTES));
      if (streaming && !byServer) await this.uploads.announce(upload.id, upload.fingerprint, upload.chunk_digests);
      const user = await this.users.findById(caller.userId);
      if (!user || user.used_size + upload.size > user.quota) throw new AppError(ERRORS.QUOTA_EXCEEDED);

      const file = draftFile(caller, name, req.parentId, req.category, upload.size, now);
      const policy = req.onConflict ?? 'fail';
      const known = await this.uploads.findTenantBlob(caller.tenantId, upload.fingerprint, upload.size);
      if (known) {
        const outcome = await this.uploads.commit({
          uploadId: upload.id,
          editor: editorOf(caller),
          fingerprint: upload.fingerprint,
          size: upload.size,
          blob: { kind: 'existing', id: known.id },
          file,
          onConflict: policy,
          ifMatch: req.ifMatch ?? null,
          now,
          ...clientKeyOf(req),
        });
        if (outcome.ok) {
          describeWrite(entry, outcome.file, outcome.replacedVersion);
          this.crashPoint('merge-after-commit');
          this.receiver.forgetAnnounced(upload.id, upload.fingerprint);
          await this.chunks.removeUpload(upload.id);
          return toFileEntry(outcome.file);
        }
        if (outcome.reason === 'finished' || (await finishedEntry(this.uploads, caller, req.clientKey))) {
          actionLog.notAnAction();
          return this.discardRedundant(caller, upload.id, req.clientKey);
        }
        if (outcome.reason !== 'blobGone') throw commitError(outcome.reason);
      }

      const blobId = newId();
      await this.uploads.setMergeIntent(upload.id, blobId);
      this.crashPoint('merge-before-rename');
      try {
        await this.blobs.adoptUpload(upload.id, blobId);
      } catch (err) {
        await this.uploads.setMergeIntent(upload.id, null);
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new AppError(ERRORS.CHUNKS_MISSING);
        throw err;
      }
      this.crashPoint('merge-after-rename');
      let outcome: CommitOutcome;
      try {
        outcome = await this.uploads.commit({
          uploadId: upload.id,
          editor: editorOf(caller),
          fingerprint: upload.fingerprint,
          size: upload.size,
          blob: { kind: 'new', id: blobId, layout: { chunkSize: upload.chunk_size, chunkCount: upload.chunk_count } },
          file,
          onConflict: policy,
          ifMatch: req.ifMatch ?? null,
          now,
          ...clientKeyOf(req),
        });
      } catch (err) {
        await this.undoAdopt(upload.id, blobId);
        throw err;
      }
      if (!outcome.ok) {
        await this.undoAdopt(upload.id, blobId);
        // Another session of this item committed first (then its name clash is with that very file).
        if (outcome.reason === 'finished' || (await finishedEntry(this.uploads, caller, req.clientKey))) {
          actionLog.notAnAction();
          return this.discardRedundant(caller, upload.id, req.clientKey);
        }
        throw commitError(outcome.reason);
      }
      describeWrite(entry, outcome.file, outcome.replacedVersion);
      this.crashPoint('merge-after-commit');
      this.receiver.forgetAnnounced(upload.id, upload.fingerprint);
      // Another upload of the same content committed first: the file uses that blob, ours goes.
      if (outcome.reusedExistingBlob) await this.blobs.remove(blobId);
      return toFileEntry(outcome.file);
    });
  }

  /**
   * A second session of an item whose first one finished meanwhile (a reload raced its merge): the
   * item's file is the earlier one, this session's rows and chunks go. Runs under the upload's lock.
   */
  private async discardRedundant(caller: Caller, uploadId: string, clientKey: string | undefined): Promise<FileEntry> {
    const earlier = await finishedEntry(this.uploads, caller, clientKey);
    await this.dropUpload(uploadId);
    if (!earlier) throw new AppError(ERRORS.UPLOAD_NOT_FOUND);
    return earlier;
  }

  /** Rows first, so nobody resumes it, then its chunk files. The caller holds the upload's lock. */
  /**
   * Issue 35: a program or script the tenant blocks is refused at its first chunk, whatever the name
   * it will get, and its upload goes (the merge would refuse it anyway: this spares sending the rest).
   */
  private async refuseExecutableHead(caller: Caller, uploadId: string): Promise<void> {
    const head = await this.chunks.readHead(uploadId, CONTENT_HEAD_BYTES);
    try {
      await this.types.assertAllowedBytes(caller.tenantId, head);
    } catch (err) {
      await this.locks.run(uploadId, () => this.dropUpload(uploadId));
      throw err;
    }
  }

  private async dropUpload(uploadId: string): Promise<void> {
    await this.uploads.deleteUpload(uploadId);
    await this.chunks.removeUpload(uploadId);
  }

  /** The merge did not commit: the chunks belong to the upload again, so it can be merged later. */
  private async undoAdopt(uploadId: string, blobId: string): Promise<void> {
    await this.blobs.returnToUpload(blobId, uploadId);
    await this.uploads.setMergeIntent(uploadId, null);
  }


  /**
   * Removes expired uploads (rows first, so nobody resumes them, then their chunk files), challenges,
   * and finished-upload records as old as an upload session may live.
   */
  async sweepExpired(now = Date.now()): Promise<number> {
    let removed = 0;
    await this.challenges.deleteExpired(now);
    await this.uploads.deleteFinishedBefore(now - this.options.uploadExpiryMs);
    for (;;) {
      const ids = await this.uploads.expiredUploadIds(now, 100);
      for (const id of ids) {
        await this.locks.run(id, () => this.dropUpload(id));
        removed++;
      }
      if (ids.length < 100) return removed;
    }
  }
}

/** The request's client key as a commit input field (absent when the client sent none). */
function clientKeyOf(req: { clientKey?: string }): { clientKey?: string } {
  return req.clientKey !== undefined ? { clientKey: req.clientKey } : {};
}
