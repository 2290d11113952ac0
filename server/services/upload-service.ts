import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import { ERRORS } from '../../common/api/errors';
import type { FileEntry } from '../../common/api/types';
import type {
  ChunkExistRequest,
  ChunkExistResponse,
  ChunkMergeRequest,
  ChunkUploadResponse,
  PartialChunk,
  UploadConfig,
} from '../../common/transfer/protocol';
import { PROBE_MAX_CANDIDATES } from '../../common/transfer/constants';
import { chunkCount, chunkRange, fingerprintInput, SHA256_HEX } from '../../common/transfer/protocol';
import type { ByteRange, SecondUploadChallenge, SecondUploadRequest, SecondUploadResponse } from '../../common/transfer/second-upload';
import {
  proofMessageLength,
  SECOND_UPLOAD_CHALLENGE_TTL_MS,
  SECOND_UPLOAD_RANGE_COUNT,
  SECOND_UPLOAD_RANGE_MAX_BYTES,
} from '../../common/transfer/second-upload';
import type { BlobsTable, FilesTable, UploadsTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import { CONTENT_HEAD_BYTES } from '../../common/files/content-signatures';
import { editorOf } from '../repositories/content-replacement';
import type { ChallengeRepository } from '../repositories/challenge-repository';
import type { ChunkTarget, CommitFailure, CommitOutcome, UploadRepository } from '../repositories/upload-repository';
import type { UserRepository } from '../repositories/user-repository';
import type { BlobStore, ChunkedLayout } from '../storage/blob-store';
import type { LocalChunkStore } from '../storage/chunk-store';
import type { Caller } from './caller';
import { nameKeyOf, toFileEntry, validName, type FileService } from './file-service';
import { KeyedLock } from './keyed-lock';

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
}

export interface UploadServiceOptions {
  chunkSize: number;
  maxFileSize: number;
  uploadExpiryMs: number;
  /** Test hook: SIGKILL this process when the named point is reached. */
  crashPoint?: CrashPoint;
}

/** The fingerprint of a streaming session until its merge announces the real one. */
const STREAMING_FINGERPRINT = '';
/** The fingerprint recorded for a probe's challenge (a probe has none). */
const PROBE_FINGERPRINT = '';

/** Announced chunk digests; null entries: a streaming session's, not announced yet. */
function digestsOf(upload: UploadsTable): Array<string | null> {
  return JSON.parse(upload.chunk_digests) as Array<string | null>;
}

/**
 * Announced digest lists kept decoded (32 bytes a digest) for the chunk path, by upload and
 * fingerprint: a pair whose list never changes (a streaming session gets its list, and a new
 * fingerprint, at merge). Bounded: the least recently used session leaves first.
 */
const ANNOUNCED_DIGEST_SESSIONS = 32;
const DIGEST_BYTES = 32;

/** Digests and fingerprint a client announced, checked for form, count and agreement. */
function checkedDigests(digests: string[] | undefined, fingerprint: string | undefined, count: number): { digests: string[]; fingerprint: string } {
  if (!digests || !fingerprint) throw new AppError(ERRORS.VALIDATION, '需同时提供文件指纹与分片摘要');
  if (digests.length !== count) throw new AppError(ERRORS.VALIDATION, `分片摘要数量应为 ${count}`);
  if (!digests.every((d) => SHA256_HEX.test(d))) throw new AppError(ERRORS.VALIDATION, '分片摘要格式不正确');
  const computed = createHash('sha256').update(fingerprintInput(digests)).digest('hex');
  if (computed !== fingerprint) throw new AppError(ERRORS.FINGERPRINT_MISMATCH);
  return { digests, fingerprint };
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
  ) {}

  /**
   * Keys: the upload id (the rename + record of a chunk, the merge, the sweep of one upload run one
   * at a time) and `<uploadId>/<index>` (writers of one chunk's partial run one at a time).
   */
  private readonly locks = new KeyedLock();

  /** See ANNOUNCED_DIGEST_SESSIONS: `${uploadId}/${fingerprint}` → the digests, concatenated. */
  private readonly announcedDigests = new Map<string, Buffer>();

  /** Every byte read from chunk upload bodies, kept or not (exposed by a test hook only). */
  chunkBytesReceived = 0;

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
    const name = validName(req.name);
    await this.fileService.requireParent(caller, req.parentId, req.category);
    await this.types.assertAllowedType(caller.tenantId, name);

    const user = await this.users.findById(caller.userId);
    if (!user || user.used_size + req.size > user.quota) throw new AppError(ERRORS.QUOTA_EXCEEDED);

    const expiresAt = now + this.options.uploadExpiryMs;
    const existing = announced
      ? await this.uploads.findActiveByFingerprint(caller.userId, announced.fingerprint, req.size, chunkSize, now)
      : await this.findStreamingSession(caller, req, now);
    if (existing) {
      await this.uploads.updateTarget(existing.id, name, req.parentId, req.category, now, expiresAt);
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
    return { uploadId, chunkSize, chunkCount: count, existingChunks: [], partialChunks: [] };
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
   * The digest announced for chunk `index` (hex), or null when the session is a streaming one that has
   * not announced its digests yet. Decoded once per session, not per chunk.
   */
  private async announcedDigest(upload: ChunkTarget, index: number): Promise<string | null> {
    if (upload.fingerprint === STREAMING_FINGERPRINT) return null;
    const key = `${upload.id}/${upload.fingerprint}`;
    let digests = this.announcedDigests.get(key);
    if (digests) {
      this.announcedDigests.delete(key); // most recently used goes last
    } else {
      const json = await this.uploads.chunkDigestsJson(upload.id);
      if (json === undefined) throw new AppError(ERRORS.UPLOAD_NOT_FOUND);
      const list = JSON.parse(json) as Array<string | null>;
      digests = Buffer.alloc(list.length * DIGEST_BYTES);
      list.forEach((hex, i) => hex && digests!.write(hex, i * DIGEST_BYTES, DIGEST_BYTES, 'hex'));
      if (this.announcedDigests.size >= ANNOUNCED_DIGEST_SESSIONS) this.announcedDigests.delete(this.announcedDigests.keys().next().value as string);
    }
    this.announcedDigests.set(key, digests);
    if (index >= digests.length / DIGEST_BYTES) return null;
    return digests.toString('hex', index * DIGEST_BYTES, (index + 1) * DIGEST_BYTES);
  }

  /**
   * Streams one chunk (or its rest, from `offset`) into the chunk's partial file and keeps it only if
   * its length and SHA-256 match both the header and the digest announced in chunk/exist. A body cut
   * short leaves the partial (fsynced) for a resume with `offset`; wrong bytes discard it.
   * Writers of one (upload, chunk) run one at a time; the rename and record run under the upload's
   * lock (never during a merge, never after one). A chunk already recorded stays as it is (a repeated
   * or concurrent duplicate is dropped without touching any file). Order: fsync (outside the lock),
   * then under the lock rename into place and record — a crash between leaves an unrecorded file
   * that recovery removes and the client re-sends.
   */
  async chunkUpload(
    caller: Caller,
    uploadId: string,
    index: number,
    headerDigest: string | undefined,
    declaredLength: number | undefined,
    body: Readable,
    now = Date.now(),
    offset = 0,
  ): Promise<ChunkUploadResponse> {
    const upload = await this.uploads.findChunkTarget(uploadId, caller.userId, caller.tenantId, now);
    if (!upload) throw new AppError(ERRORS.UPLOAD_NOT_FOUND);
    if (index < 0 || index >= upload.chunk_count) throw new AppError(ERRORS.CHUNK_INDEX_INVALID);
    const digest = headerDigest?.toLowerCase();
    // A streaming session has no announced digest yet: the header's is checked against the body.
    const expectedDigest = (await this.announcedDigest(upload, index)) ?? (digest && SHA256_HEX.test(digest) ? digest : undefined);
    if (!digest || digest !== expectedDigest) throw new AppError(ERRORS.CHUNK_DIGEST_MISMATCH);
    const { start, end } = chunkRange(index, upload.size, upload.chunk_size);
    const expectedLength = end - start;
    if (!Number.isSafeInteger(offset) || offset < 0 || offset >= Math.max(1, expectedLength)) {
      throw new AppError(ERRORS.CHUNK_OFFSET_MISMATCH, `续传位置 ${offset} 超出分片范围`);
    }
    // Refuse before reading when the client already says the length is wrong.
    if (declaredLength !== undefined && declaredLength !== expectedLength - offset) throw new AppError(ERRORS.CHUNK_SIZE_MISMATCH);

    return this.locks.run(`${upload.id}/${index}`, async () => {
      const partial = await this.locks.run(upload.id, async () => {
        const current = await this.uploads.findChunkTarget(upload.id, caller.userId, caller.tenantId, now);
        if (!current || current.merge_blob_id) throw new AppError(ERRORS.UPLOAD_NOT_FOUND);
        if (await this.uploads.isChunkRecorded(upload.id, index)) return null;
        const opened = await this.chunks.openPartial(upload.id, index, offset);
        if (!opened) throw new AppError(ERRORS.CHUNK_OFFSET_MISMATCH, `服务器未保存该分片的前 ${offset} 字节，请从头重传该分片`);
        return opened;
      });
      if (!partial) {
        // Already stored: no file is touched, but the duplicate is still checked (hashed in passing).
        await this.verifyDuplicate(body, offset, expectedLength, digest);
        return { index, size: expectedLength };
      }
      const ended = await partial.append(body, expectedLength - offset, (n) => (this.chunkBytesReceived += n));
      if (ended === 'cut') {
        await partial.retain();
        throw new AppError(ERRORS.VALIDATION, '分片传输中断，已收到的部分已保留');
      }
      if (ended === 'overflow' || partial.size !== expectedLength) {
        await partial.discard();
        throw new AppError(ERRORS.CHUNK_SIZE_MISMATCH);
      }
      // Digest and fsync together, outside the upload's lock, so the chunks in flight reach the disk in parallel.
      const received = await partial.digestAndFlush().catch(async (error: unknown) => {
        await partial.discard();
        throw error;
      });
      if (received !== digest) {
        await partial.discard();
        throw new AppError(ERRORS.CHUNK_DIGEST_MISMATCH);
      }
      await this.locks.run(upload.id, async () => {
        const current = await this.uploads.findChunkTarget(upload.id, caller.userId, caller.tenantId, now);
        if (!current || current.merge_blob_id) {
          await partial.discard();
          throw new AppError(ERRORS.UPLOAD_NOT_FOUND);
        }
        this.crashPoint('chunk-after-write-before-rename');
        await partial.install();
        this.crashPoint('chunk-after-rename-before-record');
        await this.uploads.recordChunk(upload.id, index, expectedLength, digest, now, now + this.options.uploadExpiryMs);
      });
      return { index, size: expectedLength };
    });
  }

  /**
   * A body for a chunk already recorded: read and counted, refused like a first copy when its bytes
   * are wrong. With `offset` > 0 only its length can be checked (the prefix is the stored chunk's).
   */
  private async verifyDuplicate(body: Readable, offset: number, expectedLength: number, digest: string): Promise<void> {
    const hash = createHash('sha256');
    let received = 0;
    try {
      for await (const piece of body as AsyncIterable<Buffer>) {
        this.chunkBytesReceived += piece.length;
        received += piece.length;
        if (received > expectedLength - offset) {
          body.destroy();
          throw new AppError(ERRORS.CHUNK_SIZE_MISMATCH);
        }
        hash.update(piece);
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError(ERRORS.VALIDATION, '分片传输中断');
    }
    if (received !== expectedLength - offset) throw new AppError(ERRORS.CHUNK_SIZE_MISMATCH);
    if (offset === 0 && hash.digest('hex') !== digest) throw new AppError(ERRORS.CHUNK_DIGEST_MISMATCH);
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
    const name = validName(req.name);
    await this.types.assertAllowedType(caller.tenantId, name);
    return this.locks.run(req.uploadId, async () => {
      let upload = await this.requireUpload(caller, req.uploadId, now);
      await this.fileService.requireParent(caller, req.parentId, req.category);
      const streaming = upload.fingerprint === STREAMING_FINGERPRINT;
      if (streaming) {
        // Announced now; checked against the recorded chunks below like any session's, kept once they agree.
        const announced = checkedDigests(req.chunkDigests, req.fingerprint, upload.chunk_count);
        upload = { ...upload, fingerprint: announced.fingerprint, chunk_digests: JSON.stringify(announced.digests) };
      }
      const stored = await this.uploads.storedChunks(upload.id);
      if (stored.length !== upload.chunk_count) throw new AppError(ERRORS.CHUNKS_MISSING);
      const expected = digestsOf(upload);
      const recorded = stored.map((c) => c.sha256);
      const total = stored.reduce((n, c) => n + Number(c.size), 0);
      const fingerprint = createHash('sha256').update(fingerprintInput(recorded)).digest('hex');
      const intact =
        total === upload.size &&
        fingerprint === upload.fingerprint &&
        stored.every((c, i) => c.idx === i && c.sha256 === expected[i]);
      if (!intact) throw new AppError(ERRORS.FINGERPRINT_MISMATCH);
      // The name passed; the bytes may still be a program the tenant blocks under another name.
      if (upload.size > 0) await this.types.assertAllowedContent(caller.tenantId, name, await this.chunks.readHead(upload.id, CONTENT_HEAD_BYTES));
      if (streaming) await this.uploads.announce(upload.id, upload.fingerprint, upload.chunk_digests);
      const user = await this.users.findById(caller.userId);
      if (!user || user.used_size + upload.size > user.quota) throw new AppError(ERRORS.QUOTA_EXCEEDED);

      const file = this.draftFile(caller, name, req.parentId, req.category, upload.size, now);
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
        });
        if (outcome.ok) {
          this.crashPoint('merge-after-commit');
          this.announcedDigests.delete(`${upload.id}/${upload.fingerprint}`);
          await this.chunks.removeUpload(upload.id);
          return toFileEntry(outcome.file);
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
        });
      } catch (err) {
        await this.undoAdopt(upload.id, blobId);
        throw err;
      }
      if (!outcome.ok) {
        await this.undoAdopt(upload.id, blobId);
        throw commitError(outcome.reason);
      }
      this.crashPoint('merge-after-commit');
      this.announcedDigests.delete(`${upload.id}/${upload.fingerprint}`);
      // Another upload of the same content committed first: the file uses that blob, ours goes.
      if (outcome.reusedExistingBlob) await this.blobs.remove(blobId);
      return toFileEntry(outcome.file);
    });
  }

  /** The merge did not commit: the chunks belong to the upload again, so it can be merged later. */
  private async undoAdopt(uploadId: string, blobId: string): Promise<void> {
    await this.blobs.returnToUpload(blobId, uploadId);
    await this.uploads.setMergeIntent(uploadId, null);
  }

  private draftFile(caller: Caller, name: string, parentId: string | null, category: number, size: number, now: number): FilesTable {
    return {
      id: newId(),
      tenant_id: caller.tenantId,
      owner_id: caller.userId,
      parent_id: parentId,
      category,
      name,
      name_key: nameKeyOf(name),
      is_dir: 0,
      size,
      blob_id: null,
      created_at: now,
      updated_at: now,
    };
  }

  /**
   * Second upload and its probe (common/transfer/second-upload.ts). Without proof: always a fresh
   * challenge. With proof: the challenge is consumed (single use) and the HMAC is computed and
   * compared in constant time in every case — over the stored bytes when the tenant has the content,
   * over random bytes when it does not — so "not stored", "wrong proof", "expired/reused challenge" and "another
   * tenant's content" all answer the same {status:'unknown'} after the same work.
   */
  async secondUpload(caller: Caller, req: SecondUploadRequest, now = Date.now()): Promise<SecondUploadResponse> {
    const name = validName(req.name);
    await this.fileService.requireParent(caller, req.parentId, req.category);
    await this.types.assertAllowedType(caller.tenantId, name);
    if (req.size > this.options.maxFileSize) throw new AppError(ERRORS.VALIDATION, '文件超过允许的最大大小');
    const user = await this.users.findById(caller.userId);
    if (!user || user.used_size + req.size > user.quota) throw new AppError(ERRORS.QUOTA_EXCEEDED);

    if (!req.proof) {
      const challenge: SecondUploadChallenge = {
        status: 'challenge',
        challengeId: newId(),
        nonce: randomBytes(32).toString('hex'),
        ranges: randomRanges(req.size),
      };
      await this.challenges.insert({
        id: challenge.challengeId,
        tenant_id: caller.tenantId,
        user_id: caller.userId,
        fingerprint: req.fingerprint ?? PROBE_FINGERPRINT,
        size: req.size,
        nonce: challenge.nonce,
        ranges: JSON.stringify(challenge.ranges),
        expires_at: now + SECOND_UPLOAD_CHALLENGE_TTL_MS,
      });
      return challenge;
    }

    const challenge = await this.challenges.consume(req.proof.challengeId, caller.userId, caller.tenantId, now);
    const fingerprint = req.fingerprint ?? PROBE_FINGERPRINT;
    const matches = Boolean(challenge && challenge.fingerprint === fingerprint && Number(challenge.size) === req.size);
    const ranges = challenge ? (JSON.parse(challenge.ranges) as ByteRange[]) : randomRanges(req.size);
    const key = challenge ? Buffer.from(challenge.nonce, 'hex') : randomBytes(32);
    const given = /^[0-9a-f]{64}$/i.test(req.proof.hmac) ? Buffer.from(req.proof.hmac, 'hex') : Buffer.alloc(32);
    if (req.fingerprint === undefined) {
      const candidates = matches ? await this.uploads.tenantBlobsOfSize(caller.tenantId, req.size, PROBE_MAX_CANDIDATES) : [];
      return (await this.provenByAny(candidates, ranges, key, given)) ? { status: 'candidate' } : { status: 'unknown' };
    }
    const blob = matches ? await this.uploads.findTenantBlob(caller.tenantId, req.fingerprint, req.size) : undefined;
    const proven = await this.provenByAny(blob ? [blob] : [], ranges, key, given);
    if (!(proven && matches && blob)) return { status: 'unknown' };
    // Only a caller who proved they hold the bytes learns that their content is refused.
    const head = await this.readRanges(blob, [{ start: 0, end: Math.min(CONTENT_HEAD_BYTES, req.size) }]);
    if (head) await this.types.assertAllowedContent(caller.tenantId, name, head);

    const outcome = await this.uploads.commit({
      uploadId: null,
      editor: editorOf(caller),
      fingerprint: req.fingerprint,
      size: req.size,
      blob: { kind: 'existing', id: blob.id },
      file: this.draftFile(caller, name, req.parentId, req.category, req.size, now),
      onConflict: req.onConflict ?? 'fail',
      ifMatch: req.ifMatch ?? null,
      now,
    });
    if (!outcome.ok) {
      if (outcome.reason === 'blobGone') return { status: 'unknown' };
      throw commitError(outcome.reason);
    }
    return { status: 'created', file: toFileEntry(outcome.file) };
  }

  /**
   * Does `given` equal the HMAC of the challenged bytes of any of `blobs`? Computes one HMAC per blob,
   * and one over random bytes when there is none, each compared in constant time: "nothing stored"
   * costs what one stored file costs. (A probe with several candidates reads each one's ranges, so
   * the time taken can still hint at their number; the answer itself never does.)
   */
  private async provenByAny(blobs: BlobsTable[], ranges: ByteRange[], key: Buffer, given: Buffer): Promise<boolean> {
    let proven = false;
    for (let i = 0; i < Math.max(1, blobs.length); i++) {
      const blob = blobs[i];
      const stored = blob ? await this.readRanges(blob, ranges) : null;
      const expected = createHmac('sha256', key).update(stored ?? randomBytes(proofMessageLength(ranges))).digest();
      if (timingSafeEqual(expected, given) && stored !== null) proven = true;
    }
    return proven;
  }

  /** The challenged bytes of a stored blob, concatenated; null when the bytes cannot be read. */
  private async readRanges(blob: BlobsTable, ranges: ByteRange[]): Promise<Buffer | null> {
    const layout = layoutOf(blob);
    const parts: Buffer[] = [];
    try {
      for (const r of ranges) {
        if (r.end > blob.size || r.start < 0 || r.end <= r.start) return null;
        for await (const piece of this.blobs.openRead(blob.storage_key, { start: r.start, end: r.end - 1 }, layout) as AsyncIterable<Buffer>) {
          parts.push(piece);
        }
      }
    } catch {
      return null;
    }
    return Buffer.concat(parts);
  }

  /** Removes expired uploads (rows first, so nobody resumes them, then their chunk files) and challenges. */
  async sweepExpired(now = Date.now()): Promise<number> {
    let removed = 0;
    await this.challenges.deleteExpired(now);
    for (;;) {
      const ids = await this.uploads.expiredUploadIds(now, 100);
      for (const id of ids) {
        await this.locks.run(id, async () => {
          await this.uploads.deleteUpload(id);
          await this.chunks.removeUpload(id);
        });
        removed++;
      }
      if (ids.length < 100) return removed;
    }
  }
}

export function layoutOf(blob: Pick<BlobsTable, 'chunk_size' | 'chunk_count' | 'size'>): ChunkedLayout | null {
  return blob.chunk_size ? { chunkSize: blob.chunk_size, chunkCount: blob.chunk_count ?? 0, size: Number(blob.size) } : null;
}

/** SECOND_UPLOAD_RANGE_COUNT random ranges inside [0, size), each 1..SECOND_UPLOAD_RANGE_MAX_BYTES long. */
export function randomRanges(size: number): ByteRange[] {
  if (size <= 0) return [];
  const ranges: ByteRange[] = [];
  const maxLen = Math.min(SECOND_UPLOAD_RANGE_MAX_BYTES, size);
  for (let i = 0; i < SECOND_UPLOAD_RANGE_COUNT; i++) {
    const length = 1 + randomInt(maxLen);
    const start = randomInt(size - length + 1);
    ranges.push({ start, end: start + length });
  }
  return ranges;
}

function commitError(reason: CommitFailure): AppError {
  switch (reason) {
    case 'quota':
      return new AppError(ERRORS.QUOTA_EXCEEDED);
    case 'nameConflict':
      return new AppError(ERRORS.NAME_CONFLICT);
    case 'locked':
      return new AppError(ERRORS.FILE_LOCKED);
    case 'forbidden':
      return new AppError(ERRORS.FORBIDDEN);
    case 'changed':
      return new AppError(ERRORS.SYNC_CHANGED);
    default:
      return new AppError(ERRORS.UPLOAD_NOT_FOUND);
  }
}
