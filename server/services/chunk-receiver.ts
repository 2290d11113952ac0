/**
 * Receiving chunk bodies (common/transfer/protocol.ts steps 4, partial chunks, range uploads): each
 * chunk streamed into its partial file, checked, made durable, installed and recorded, crash-safe.
 * Part of the upload service (upload-service.ts), which opens sessions and merges them; the two share
 * the upload locks and the record of requests being received.
 */
import type { Readable } from 'node:stream';
import { ERRORS } from '../../common/api/errors';
import type { ChunkRangeUploadResponse, ChunkUploadResponse } from '../../common/transfer/protocol';
import { chunkRange, SHA256_HEX } from '../../common/transfer/protocol';
import { AppError } from '../http/app-error';
import type { ChunkTarget, UploadRepository } from '../repositories/upload-repository';
import { BodySegments, wholeBody, type BodySource } from '../storage/body-source';
import type { ChunkStore } from '../storage/byte-store';
import { streamingChunkDigest } from '../storage/content-digest';
import type { Caller } from './caller';
import { ChunkWriters } from './chunk-writers';
import type { PendingWork } from './keyed-lock';
import { LOCK_KEYS, type Locks } from './locks';

/** The fingerprint of a streaming session until its merge announces the real one. */
export const STREAMING_FINGERPRINT = '';

/** Chunks of a range upload being made durable and recorded while the next one is read. */
const RANGE_CHUNKS_SETTLING = 2;

/**
 * Announced digest lists kept decoded (32 bytes a digest) for the chunk path, by upload and
 * fingerprint: a pair whose list never changes (a streaming session gets its list, and a new
 * fingerprint, at merge). Bounded: the least recently used session leaves first.
 */
const ANNOUNCED_DIGEST_SESSIONS = 32;
const DIGEST_BYTES = 32;

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

export interface ChunkReceiverDeps {
  /** The server's locks (services/locks.ts): the upload's (LOCK_KEYS.upload), and the chunk writers' (ChunkWriters). */
  locks: Locks;
  /** Requests being received, by upload (chunk/exist waits for them briefly). */
  receiving: PendingWork;
  uploadExpiryMs: number;
  /** Test hook: SIGKILL at the named point. */
  crashPoint(point: 'chunk-after-write-before-rename' | 'chunk-after-rename-before-record'): void;
  /**
   * Chunk 0 was just recorded: its first bytes are judged (a program or script the tenant blocks is
   * refused here, not after the whole file came). Throws to refuse; the upload is gone by then.
   */
  firstChunkStored(caller: Caller, uploadId: string): Promise<void>;
}

export class ChunkReceiver {
  constructor(
    private readonly uploads: UploadRepository,
    private readonly chunks: ChunkStore,
    private readonly deps: ChunkReceiverDeps,
  ) {
    this.writers = new ChunkWriters(deps.locks);
  }

  /** One writer at a time per chunk, in whichever process; a quiet one is cut when another waits. */
  private readonly writers: ChunkWriters;

  /** See ANNOUNCED_DIGEST_SESSIONS: `${uploadId}/${fingerprint}` → the digests, concatenated. */
  private readonly announcedDigests = new Map<string, Buffer>();

  /** Every byte read from chunk upload bodies, kept or not (exposed by a test hook only). */
  chunkBytesReceived = 0;

  /** A merged session's digests are not needed any more. */
  forgetAnnounced(uploadId: string, fingerprint: string): void {
    this.announcedDigests.delete(`${uploadId}/${fingerprint}`);
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
    await this.deps.receiving.track(upload.id, () => this.receiveChunk(caller, upload, index, offset, expectedDigest, wholeBody(body), now));
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

    return this.deps.receiving.track(upload.id, () => this.receiveRange(caller, upload, index, lengths, offset, body, now));
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
   * then installs and records it. Writers of one (upload, chunk) run one at a time, and one whose body
   * goes quiet while another waits is cut (chunk-writers.ts); the rename and record run under the
   * upload's lock (never during a merge, never after one). A chunk already recorded stays as it is (a
   * repeated or concurrent duplicate is read and checked without touching any file). Order: fsync
   * (outside the lock), then under the lock rename into place and record — a crash between leaves an
   * unrecorded file that recovery removes and the client re-sends.
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
    const stop = body.stop && (() => body.stop!());
    await this.writers.run(upload.id, index, () => body.cut(), async (writer) => {
      const partial = await this.deps.locks.run(LOCK_KEYS.upload(upload.id), async () => {
        const current = await this.uploads.findChunkTarget(upload.id, caller.userId, caller.tenantId, now);
        if (!current || current.merge_blob_id) throw new AppError(ERRORS.UPLOAD_NOT_FOUND);
        if (await this.uploads.isChunkRecorded(upload.id, index)) return null;
        const opened = await this.chunks.openPartial(upload.id, index, offset);
        if (!opened) throw new AppError(ERRORS.CHUNK_OFFSET_MISMATCH, `服务器未保存该分片的前 ${offset} 字节，请从头重传该分片`);
        return opened;
      });
      writer.readingBody();
      const counted = (n: number) => {
        this.chunkBytesReceived += n;
        writer.received();
      };
      if (!partial) {
        // Already stored: no file is touched, but the duplicate is still checked (hashed in passing).
        await this.verifyDuplicate(body, offset, expectedLength, digest, counted).catch((err: unknown) => {
          throw writer.lost() ?? err;
        });
        writer.bodyDone();
        onBodyRead?.();
        return;
      }
      const ended = await partial.append(body, expectedLength - offset, counted);
      writer.bodyDone();
      if (ended === 'cut') {
        const kept = await partial.retain();
        // Stopped because the lock was lost (the database connection broke): the client reads a 500 and retries.
        const lost = writer.lost();
        if (lost) throw lost;
        // An object store keeps no partial (an object is written whole or not at all): the chunk starts again.
        throw new AppError(ERRORS.VALIDATION, kept ? '分片传输中断，已收到的部分已保留' : '分片传输中断，请重传该分片');
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
      await this.deps.locks.run(LOCK_KEYS.upload(upload.id), async (hold) => {
        const current = await this.uploads.findChunkTarget(upload.id, caller.userId, caller.tenantId, now);
        if (!current || current.merge_blob_id) {
          await partial.discard();
          throw new AppError(ERRORS.UPLOAD_NOT_FOUND);
        }
        if (hold.signal.aborted) {
          // The lock was lost (services/locks.ts): another process may merge the upload now.
          await partial.discard();
          throw hold.signal.reason;
        }
        this.deps.crashPoint('chunk-after-write-before-rename');
        await partial.install();
        this.deps.crashPoint('chunk-after-rename-before-record');
        await this.uploads.recordChunk(upload.id, index, expectedLength, received, now, now + this.deps.uploadExpiryMs);
      });
    }, stop);
    if (index === 0) await this.deps.firstChunkStored(caller, upload.id);
  }

  /**
   * A body for a chunk already recorded: read and counted, refused like a first copy when its bytes
   * are wrong. With `offset` > 0 only its length can be checked (the prefix is the stored chunk's).
   */
  private async verifyDuplicate(body: BodySource, offset: number, expectedLength: number, digest: string | undefined, onBytes: (n: number) => void): Promise<void> {
    const hash = streamingChunkDigest();
    let received = 0;
    try {
      for await (const piece of body.pieces()) {
        onBytes(piece.length);
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

}
