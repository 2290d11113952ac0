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
import type { ChunkTarget, CommitOutcome, UploadRepository } from '../repositories/upload-repository';
import type { UserRepository } from '../repositories/user-repository';
import type { BlobStore } from '../storage/blob-store';
import type { LocalChunkStore } from '../storage/chunk-store';
import { BodySegments, wholeBody, type BodySource } from '../storage/body-source';
import type { Caller } from './caller';
import { actionLog, describeWrite, type ActionEntry } from './action-log/recorder';
import { toFileEntry, validName, type FileService } from './file-service';
import { commitError, draftFile, finishedEntry } from './upload-commit';
import { fingerprintOfDigests, streamingChunkDigest } from '../storage/content-digest';
import { PendingWork, KeyedLock } from './keyed-lock';

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

/** Longest chunk/exist waits for chunk requests of its session still being received (see chunkExist). */
const RECEIVING_WAIT_MS = 500;

/** Chunks of a range upload being made durable and recorded while the next one is read. */
const RANGE_CHUNKS_SETTLING = 2;

/** Byte length of chunk `index` of an upload. */
function chunkLengthOf(upload: ChunkTarget, index: number): number {
  const { start, end } = chunkRange(index, Number(upload.size), upload.chunk_size);
  return end - start;
}

/** `offset` must fall inside the chunk (0 for an empty chunk). */
function checkOffset(offset: number, chunkLength: number): void {
  if (!Number.isSafeInteger(offset) || offset < 0 || offset >= Math.max(1, chunkLength)) {
    throw new AppError(ERRORS.CHUNK_OFFSET_MISMATCH, `续传位置 ${offset} 超出分片范围`);
  }
}

/** The fingerprint of a streaming session until its merge announces the real one. */
const STREAMING_FINGERPRINT = '';

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
  ) {}

  /**
   * Keys: the upload id (the rename + record of a chunk, the merge, the sweep of one upload run one
   * at a time) and `<uploadId>/<index>` (writers of one chunk's partial run one at a time).
   */
  private readonly locks = new KeyedLock();

  /** Chunk requests being received (read, made durable, recorded or kept as a partial), by upload. */
  private readonly receiving = new PendingWork();

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
   * (receiveChunk: locking, crash order, duplicates.)
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
    const upload = await this.chunkTarget(caller, uploadId, index, now);
    const headerGiven = headerDigest?.toLowerCase();
    const streaming = upload.fingerprint === STREAMING_FINGERPRINT;
    // A streaming session has no announced digest yet: the header's, when given, is checked against the
    // body; without one the digest the server computes is recorded (protocol.ts, "Streaming sessions").
    const expectedDigest = (await this.announcedDigest(upload, index)) ?? (headerGiven && SHA256_HEX.test(headerGiven) ? headerGiven : undefined);
    if (!(streaming && headerGiven === undefined) && (!headerGiven || headerGiven !== expectedDigest)) throw new AppError(ERRORS.CHUNK_DIGEST_MISMATCH);
    const expectedLength = chunkLengthOf(upload, index);
    checkOffset(offset, expectedLength);
    // Refuse before reading when the client already says the length is wrong.
    if (declaredLength !== undefined && declaredLength !== expectedLength - offset) throw new AppError(ERRORS.CHUNK_SIZE_MISMATCH);
    // expectedDigest undefined: a streaming chunk sent without one (any body is recorded as it hashes).
    await this.receiving.track(upload.id, () => this.receiveChunk(caller, upload, index, offset, expectedDigest, wholeBody(body), now));
    return { index, size: expectedLength };
  }

  /**
   * A range upload (protocol.ts, "Range uploads"): one body carries chunks `index`..`through` (the first
   * from `offset`), cut at the chunk boundaries as it arrives; each complete chunk is received exactly as
   * a single chunk upload's (receiveChunk), so a cut body leaves the chunks before the cut recorded and
   * the one it cut as a partial. Streaming sessions without digests only, and the body's length must be
   * declared (Content-Length) and exact. While a chunk is made durable and recorded, the next one is
   * already being read (at most RANGE_CHUNKS_SETTLING behind); the answer waits for all of them.
   */
  async chunkRangeUpload(
    caller: Caller,
    uploadId: string,
    index: number,
    through: number,
    headerDigest: string | undefined,
    declaredLength: number | undefined,
    body: Readable,
    now = Date.now(),
    offset = 0,
  ): Promise<ChunkRangeUploadResponse> {
    const upload = await this.chunkTarget(caller, uploadId, index, now);
    if (!Number.isSafeInteger(through) || through < index || through >= upload.chunk_count) throw new AppError(ERRORS.CHUNK_INDEX_INVALID);
    if (upload.fingerprint !== STREAMING_FINGERPRINT || headerDigest !== undefined) {
      throw new AppError(ERRORS.VALIDATION, '该上传任务须逐个分片上传并附分片摘要，不能一次上传多个分片');
    }
    const lengths: number[] = [];
    for (let k = index; k <= through; k++) lengths.push(chunkLengthOf(upload, k));
    checkOffset(offset, lengths[0]!);
    const total = lengths.reduce((sum, n) => sum + n, 0) - offset;
    if (declaredLength !== total) throw new AppError(ERRORS.CHUNK_SIZE_MISMATCH, `请求体应为 ${total} 字节（需声明 Content-Length）`);

    return this.receiving.track(upload.id, () => this.receiveRange(caller, upload, index, lengths, offset, body, now));
  }

  /** chunkRangeUpload's body: chunks index.. of `lengths`, read one after the other, finished up to RANGE_CHUNKS_SETTLING behind. */
  private async receiveRange(caller: Caller, upload: ChunkTarget, index: number, lengths: number[], offset: number, body: Readable, now: number): Promise<ChunkRangeUploadResponse> {
    const through = index + lengths.length - 1;
    const segments = new BodySegments(body);
    const settling: Array<Promise<void>> = [];
    try {
      for (let k = index; k <= through; k++) {
        const from = k === index ? offset : 0;
        let bodyRead!: () => void;
        const read = new Promise<void>((resolve) => (bodyRead = resolve));
        const stored = this.receiveChunk(caller, upload, k, from, undefined, segments.next(lengths[k - index]! - from), now, bodyRead);
        stored.catch(() => undefined); // awaited below
        settling.push(stored);
        await Promise.race([read, stored]);
        while (settling.length > RANGE_CHUNKS_SETTLING) await settling.shift();
      }
    } finally {
      // The chunks read before a failure are still made durable and recorded before the answer.
      await Promise.allSettled(settling);
    }
    await Promise.all(settling);
    return { chunks: lengths.map((size, i) => ({ index: index + i, size })) };
  }

  /** The caller's live upload and a chunk index within it. */
  private async chunkTarget(caller: Caller, uploadId: string, index: number, now: number): Promise<ChunkTarget> {
    const upload = await this.uploads.findChunkTarget(uploadId, caller.userId, caller.tenantId, now);
    if (!upload) throw new AppError(ERRORS.UPLOAD_NOT_FOUND);
    if (index < 0 || index >= upload.chunk_count) throw new AppError(ERRORS.CHUNK_INDEX_INVALID);
    return upload;
  }

  /**
   * Receives chunk `index` from `offset` into its partial file, checks length and (when given) digest,
   * then installs and records it. Writers of one (upload, chunk) run one at a time; the rename and
   * record run under the upload's lock (never during a merge, never after one). A chunk already
   * recorded stays as it is (a repeated or concurrent duplicate is read and checked without touching
   * any file). Order: fsync (outside the lock), then under the lock rename into place and record — a
   * crash between leaves an unrecorded file that recovery removes and the client re-sends.
   * `onBodyRead` is called once the chunk's bytes are read (before they are made durable).
   */
  private async receiveChunk(
    caller: Caller,
    upload: ChunkTarget,
    index: number,
    offset: number,
    digest: string | undefined,
    body: BodySource,
    now: number,
    onBodyRead?: () => void,
  ): Promise<void> {
    const expectedLength = chunkLengthOf(upload, index);
    await this.locks.run(`${upload.id}/${index}`, async () => {
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
        onBodyRead?.();
        return;
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
      onBodyRead?.();
      // Digest and fsync together, outside the upload's lock, so the chunks in flight reach the disk in parallel.
      const received = await partial.digestAndFlush().catch(async (error: unknown) => {
        await partial.discard();
        throw error;
      });
      if (digest !== undefined && received !== digest) {
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
        await this.uploads.recordChunk(upload.id, index, expectedLength, received, now, now + this.options.uploadExpiryMs);
      });
    });
  }

  /**
   * A body for a chunk already recorded: read and counted, refused like a first copy when its bytes
   * are wrong. With `offset` > 0 only its length can be checked (the prefix is the stored chunk's).
   */
  private async verifyDuplicate(body: BodySource, offset: number, expectedLength: number, digest: string | undefined): Promise<void> {
    const hash = streamingChunkDigest();
    let received = 0;
    try {
      for await (const piece of body.pieces()) {
        this.chunkBytesReceived += piece.length;
        received += piece.length;
        if (received > expectedLength - offset) throw new AppError(ERRORS.CHUNK_SIZE_MISMATCH);
        hash.update(piece);
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError(ERRORS.VALIDATION, '分片传输中断');
    }
    if (!body.complete()) throw new AppError(ERRORS.VALIDATION, '分片传输中断');
    if (received !== expectedLength - offset) throw new AppError(ERRORS.CHUNK_SIZE_MISMATCH);
    if (offset === 0 && digest !== undefined && hash.digest() !== digest) throw new AppError(ERRORS.CHUNK_DIGEST_MISMATCH);
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
          this.announcedDigests.delete(`${upload.id}/${upload.fingerprint}`);
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
      this.announcedDigests.delete(`${upload.id}/${upload.fingerprint}`);
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
