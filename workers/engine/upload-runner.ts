/**
 * One attempt at uploading one item:
 *   config → hash (pool) → second upload (challenge + proof) → chunk/exist → missing chunks → merge.
 *
 * Each step is skipped when the record shows it already happened (digests computed, chunks stored),
 * so the same function serves a fresh upload, a retry and a resume after reload. The server is the
 * truth about stored chunks: every attempt asks chunk/exist again, and a chunk the server holds a
 * prefix of (`partialChunks`, a body cut by a reload or a dropped connection) is continued from there
 * with `offset`, so little more than what was lost on the wire is sent twice. State changes go through
 * `ctx.update` (persisted, checked against the transition table), confirmed chunks through
 * `ctx.chunkDone` (persisted in batches behind the lanes).
 */
import { ERRORS } from '../../common/api/errors';
import { ApiCallError } from '../../common/api/failure';
import type { FileEntry } from '../../common/api/types';
import { formatSize } from '../../common/format/size';
import { chunkSizeForFile, digestsStillValid } from '../../common/transfer/chunk-policy';
import { PIPELINE_MIN_BYTES } from '../../common/transfer/constants';
import type { ChunkExistResponse } from '../../common/transfer/protocol';
import { UPLOADS, type ChunkExistRequest } from '../../common/api/endpoints/uploads';
import type { SecondUploadResponse } from '../../common/transfer/second-upload';
import { PRE_UPLOAD, type SecondUploadRequest } from '../../common/api/endpoints/pre-upload';
import { fingerprintOfChunkDigests, readRange, SourceReadError, type HashChunk, type Sha256Hex } from '../hash/sha256';
import type { UploadPatch, UploadRecord } from '../queue/types';
import { RateLimitedError, type ApiClient } from './api-client';
import type { ConcurrencyLimit } from './adaptive-pool';
import type { Sleep } from './backoff';
import { UploadError } from './failure-policy';
import { MESSAGES } from './messages';
import { hashChunksInBackground, type DigestOptions } from './chunk-digests';
import { computeProof } from './proof';
import { adoptSession, fileTarget, finishedEarlier, mergeRequest, purposeOf, sendMissing, versionOfItem } from './chunk-session';
import { DROPPED_SESSION, sourceChanged, stampOf } from './source-stamp';
import type { UploadConfigSource } from './upload-config-cache';
import { sendWholeFile, wantsWholeFile } from './whole-file';

export interface UploadRunContext {
  /** The item as it was when this attempt started. */
  record: UploadRecord;
  /** The bytes (may be kept in memory only, when the store refused the File). */
  file: Blob | null;
  signal: AbortSignal;
  api: ApiClient;
  sha256: Sha256Hex;
  /** The server's upload config (cached across items). */
  uploadConfig: UploadConfigSource;
  hashChunk: HashChunk;
  /** Chunks hashed at once (the hash pool's size). */
  hashConcurrency: number;
  /** Chunk requests in flight, adapted to 429 answers. */
  limit: ConcurrencyLimit;
  sleep: Sleep;
  random: () => number;
  /** Persists a patch and returns the new record; rejects once the attempt was aborted. */
  update(patch: UploadPatch): Promise<UploadRecord>;
  /**
   * The server stored chunk `index` of `bytes` bytes: counted at once, persisted in the background
   * (batched, ordered before every later `update`), so the lane goes on without waiting for storage.
   */
  chunkDone(index: number, bytes: number): void;
  /** Bytes of chunk `index` sent so far (0 = taken back after a failure). Memory only. */
  chunkProgress(index: number, bytesSent: number): void;
  /** Bytes digested so far (memory only: cheap, frequent). */
  onHashProgress(bytesHashed: number): void;
  /**
   * Who digests the chunks of a streaming session (a file the probe did not find stored):
   * - 'client' (default): hashed in the background, each chunk sent with its digest, the merge carries
   *   the fingerprint the client computed — the desktop sync keeps this, its journal needs the fingerprint;
   * - 'server': the chunks go unhashed and the server's digests make the fingerprint, so each chunk is
   *   read once, for its request (the browser: a second read through Chromium's blob machinery plus
   *   the digest cost more CPU than the upload itself; tests/bench/PROFILE-browser-upload.md).
   *   The record's `fingerprint` then stays null.
   */
  streamingDigests?: 'client' | 'server';
  /** A request with no progress for this long is aborted (whole-file.ts watches its own). Default STALL_TIMEOUT_MS. */
  stallTimeoutMs?: number;
  /** Wall clock for stall timing. Default Date.now. */
  now?: () => number;
}

/** Resolves when the item is done; throws on failure (the caller decides about retrying). */
export async function runUpload(ctx: UploadRunContext): Promise<void> {
  try {
    await attempt(ctx);
  } catch (error) {
    // The server's CHUNK_SIZE changed after this file was hashed (and the cached config still says the
    // old size): ask afresh, so the retry (failure-policy.ts) hashes the file at the new size.
    if (error instanceof ApiCallError && error.failure.kind === 'badRequest' && error.failure.errorCode === ERRORS.CHUNK_SIZE_CHANGED.code) {
      await ctx.uploadConfig(ctx.signal, true).catch(() => undefined);
    }
    throw error;
  }
}

async function attempt(ctx: UploadRunContext): Promise<void> {
  const { signal } = ctx;
  const file = ctx.file;
  if (!file) throw new SourceReadError('the file was not kept across the reload');
  let item = ctx.record;

  if (item.streamingSession && item.serverDigests && sourceChanged(item, file)) {
    // The session's chunks may be an older version's bytes and nothing would tell at the merge: start over.
    item = await ctx.update({ ...DROPPED_SESSION, size: file.size, lastModified: stampOf(file, item) });
  }
  if (item.chunkSize > 0 && (item.chunkDigests || item.uploadId) && !digestsStillValid(item.chunkSize, (await ctx.uploadConfig(signal)).chunkSize)) {
    // Hashed (or a session begun) at a chunk size the server no longer uses: it would refuse the
    // session, and the fingerprint would not find stored content (chunk-policy.ts). Hash again.
    item = await ctx.update(DROPPED_SESSION);
  }
  if (item.streamingSession && item.uploadId && item.chunkSize) {
    // A streaming session of an earlier attempt: continue it (its digests, if any, are reused).
    const outcome = await runStreaming(ctx, file);
    if (outcome.done) return;
    item = outcome.record;
  }
  if (!item.chunkDigests || !item.fingerprint) {
    // Leave 'waiting' before the first request, so a failure there has a legal state to go to.
    item = await ctx.update({ state: 'hashing' });
    const config = await ctx.uploadConfig(signal);
    if (item.size > config.maxFileSize) {
      throw new UploadError({ action: 'fail', message: MESSAGES.fileTooLarge(formatSize(config.maxFileSize)) });
    }
    const chunkSize = chunkSizeForFile(config.chunkSize);
    // A client installer skips second upload (its type would be refused there; the merge still reuses stored content).
    const probe = item.purpose ? false : item.size >= PIPELINE_MIN_BYTES && item.chunksDone.length === 0 ? await probeFindsCandidate(ctx, item, file) : true;
    if (probe === 'finished') return;
    if (!probe) {
      // Not stored yet (as far as the probe can tell): hash while uploading.
      const outcome = await runStreaming(ctx, file, { chunkSize });
      if (outcome.done) return;
      item = outcome.record;
    }
    const chunkDigests = await hashChunksInBackground(file, chunkSize, hashOptions(ctx)).all();
    const fingerprint = await fingerprintOfChunkDigests(chunkDigests, ctx.sha256);
    item = await ctx.update({ chunkSize, chunkDigests, fingerprint });
  } else {
    // Digests from an earlier attempt or page: make sure the file is still readable before trusting
    // them. (A failed read inside a request would look like a network error and be retried in vain.)
    await readRange(file, 0, Math.min(1, item.size));
  }
  const digests = item.chunkDigests as string[];

  item = await ctx.update({ state: 'checking' });
  if (item.chunksDone.length === 0 && !item.purpose && (await trySecondUpload(ctx, item, file))) return;

  const existRequest: ChunkExistRequest = {
    fingerprint: item.fingerprint as string,
    size: item.size,
    chunkSize: item.chunkSize,
    chunkDigests: digests,
    name: item.name,
    parentId: item.target.parentId,
    category: item.target.category,
    clientKey: item.id,
    ...purposeOf(item),
    ...versionOfItem(item),
  };
  const session = await ctx.api.send(UPLOADS.chunkExist, existRequest, signal);
  if (await finishedEarlier(ctx, item, session)) return;
  const plan = await adoptSession(ctx, item, session);
  item = plan.item;
  await sendMissing(ctx, plan, (index) => digests[index] as string);

  const entry = await ctx.api.send(UPLOADS.chunkMerge, mergeRequest(item, session.uploadId), signal);
  await ctx.update({ state: 'done', fileId: entry.id, lastError: null, bytesDone: item.size, via: 'chunks' });
}

/** What a streaming attempt came to: done, or refused by the server (the caller hashes first instead). */
type StreamingOutcome = { done: true } | { done: false; record: UploadRecord };

/**
 * Upload with hashing pipelined (a streaming session, common/transfer/protocol.ts): chunks are
 * hashed in the background in order and each is sent as soon as its digest exists; the digests and
 * fingerprint go with the merge. A server that refuses streaming sessions (a 4xx on chunk/exist)
 * gets the ordinary hash-first upload. A merge refused with FINGERPRINT_MISMATCH (the stored chunks
 * are not this file's: the file changed, or another file was picked again) drops the session, so
 * the retry starts a new one.
 */
async function runStreaming(ctx: UploadRunContext, file: Blob, patch: UploadPatch = {}): Promise<StreamingOutcome> {
  const { signal } = ctx;
  let item = await ctx.update({ ...patch, state: 'checking' });
  if (ctx.streamingDigests === 'server' && (!item.uploadId || item.serverDigests)) return runUnhashed(ctx, file, item);
  const opened = await openStreamingSession(ctx, item);
  if ('done' in opened) return opened;
  const session = opened;
  // A new session (the old one expired) holds none of the chunks the record lists.
  const plan = await adoptSession(ctx, item, session, { streamingSession: true });
  item = plan.item;

  const digests = hashChunksInBackground(file, item.chunkSize, { ...hashOptions(ctx), known: item.chunkDigests, first: plan.missing });
  try {
    await sendMissing(ctx, plan, (index) => digests.digest(index));
    const chunkDigests = await digests.all();
    const fingerprint = await fingerprintOfChunkDigests(chunkDigests, ctx.sha256);
    item = await ctx.update({ chunkDigests, fingerprint });
  } finally {
    digests.stop(new DOMException('upload attempt ended', 'AbortError'));
  }

  let entry: FileEntry;
  try {
    // Both were just recorded above (never null here).
    const computed = { chunkDigests: item.chunkDigests ?? undefined, fingerprint: item.fingerprint ?? undefined };
    entry = await ctx.api.send(UPLOADS.chunkMerge, { ...mergeRequest(item, session.uploadId), ...computed }, signal);
  } catch (error) {
    if (error instanceof ApiCallError && error.errorCode === ERRORS.FINGERPRINT_MISMATCH.code) {
      await ctx.update(DROPPED_SESSION);
    }
    throw error;
  }
  await ctx.update({ state: 'done', fileId: entry.id, lastError: null, bytesDone: item.size, via: 'chunks' });
  return { done: true };
}

/**
 * chunk/exist for a streaming session (new, or the record's to continue): the server's answer, or what
 * the attempt came to without one — done (an earlier attempt created the file) or refused (a server
 * without streaming sessions: the record falls back to the hash-first upload).
 */
async function openStreamingSession(ctx: UploadRunContext, item: UploadRecord): Promise<ChunkExistResponse | StreamingOutcome> {
  let session: ChunkExistResponse;
  try {
    session = await ctx.api.send(UPLOADS.chunkExist, streamingExistRequest(item), ctx.signal);
  } catch (error) {
    if (!isRefusal(error)) throw error;
    return { done: false, record: await ctx.update({ streamingSession: false, serverDigests: false, uploadId: null, chunksDone: [] }) };
  }
  return (await finishedEarlier(ctx, item, session)) ? { done: true } : session;
}

/**
 * A streaming session without client digests (streamingDigests 'server'): every chunk is read once,
 * by its request, and sent without a digest header; the merge carries no fingerprint. A session that
 * holds nothing yet gets the whole File in one range upload; a resumed one, or one whose range upload
 * failed, the missing chunks one request each, from what chunk/exist lists. The record
 * keeps the file's size and lastModified with the session (sourceChanged). A server that refuses the
 * session gets the hash-first upload, like runStreaming's.
 */
async function runUnhashed(ctx: UploadRunContext, file: Blob, record: UploadRecord): Promise<StreamingOutcome> {
  const { signal } = ctx;
  let item = record;
  // Nothing else reads the file before its chunk requests do, and a read failing inside a request looks
  // like a network error (retried in vain): a file that changed on disk (Chromium then refuses to read
  // the stored File) or vanished is found here, and the item is held for a re-pick.
  await readRange(file, 0, Math.min(1, item.size));
  const opened = await openStreamingSession(ctx, item);
  if ('done' in opened) return opened;
  let session = opened;
  const patch: UploadPatch = { streamingSession: true, serverDigests: true, lastModified: stampOf(file, item) };
  let plan = await adoptSession(ctx, item, session, patch);
  item = plan.item;
  // A new file: the whole File in one request (whole-file.ts). On failure the server holds what arrived.
  const recorded = (pollSignal: AbortSignal) => ctx.api.send(UPLOADS.chunkExist, streamingExistRequest(item), pollSignal);
  const sentWhole = wantsWholeFile(ctx, plan) && (await sendWholeFile(ctx, plan, recorded));
  if (!sentWhole) {
    if (wantsWholeFile(ctx, plan)) {
      // The whole-file request failed: the server kept what arrived, the rest goes chunk by chunk.
      session = await ctx.api.send(UPLOADS.chunkExist, streamingExistRequest(item), signal);
      if (await finishedEarlier(ctx, item, session)) return { done: true };
      plan = await adoptSession(ctx, item, session, patch);
      item = plan.item;
    }
    await sendMissing(ctx, plan, () => null);
  }
  const entry = await ctx.api.send(UPLOADS.chunkMerge, mergeRequest(item, session.uploadId), signal);
  await ctx.update({ state: 'done', fileId: entry.id, lastError: null, bytesDone: item.size, via: 'chunks' });
  return { done: true };
}

/** chunk/exist for a streaming session: no digests, the session to continue if the item has one. */
function streamingExistRequest(item: UploadRecord): ChunkExistRequest {
  return {
    size: item.size,
    chunkSize: item.chunkSize,
    name: item.name,
    parentId: item.target.parentId,
    category: item.target.category,
    clientKey: item.id,
    ...(item.uploadId ? { uploadId: item.uploadId } : {}),
    ...purposeOf(item),
    ...versionOfItem(item),
  };
}

/**
 * The second-upload probe (common/transfer/second-upload.ts): before hashing, does the tenant store
 * a file of this size with these bytes at a few random ranges? True → hash first and claim it.
 * A server without probes (404, or a 4xx refusing a claim without fingerprint) means "no".
 */
async function probeFindsCandidate(ctx: UploadRunContext, item: UploadRecord, file: Blob): Promise<boolean | 'finished'> {
  const claim: SecondUploadRequest = { size: item.size, name: item.name, parentId: item.target.parentId, category: item.target.category, clientKey: item.id, ...versionOfItem(item) };
  try {
    const challenge = await ctx.api.send(PRE_UPLOAD.secondUpload, claim, ctx.signal);
    if (challenge.status === 'created') {
      await ctx.update({ state: 'done', fileId: challenge.file.id, lastError: null, bytesDone: item.size, via: 'chunks' });
      return 'finished';
    }
    if (challenge.status !== 'challenge') return false;
    const hmac = await computeProof(file, challenge.nonce, challenge.ranges);
    const answer = await ctx.api.send(PRE_UPLOAD.secondUpload, { ...claim, proof: { challengeId: challenge.challengeId, hmac } }, ctx.signal);
    return answer.status === 'candidate';
  } catch (error) {
    if (isRefusal(error)) return false;
    throw error;
  }
}

/** How chunks are hashed for an upload: the pool's concurrency, progress into the item's view. */
function hashOptions(ctx: UploadRunContext): DigestOptions {
  return { hashChunk: ctx.hashChunk, concurrency: ctx.hashConcurrency, signal: ctx.signal, onProgress: ctx.onHashProgress };
}

/**
 * Second upload: claim the fingerprint, answer the challenge with a proof over the named ranges.
 * Returns true when the server created the file (zero chunk bytes sent); false → chunked upload.
 */
async function trySecondUpload(ctx: UploadRunContext, item: UploadRecord, file: Blob): Promise<boolean> {
  const claim: SecondUploadRequest = { fingerprint: item.fingerprint as string, size: item.size, ...fileTarget(item) };
  let challenge: SecondUploadResponse;
  try {
    challenge = await ctx.api.send(PRE_UPLOAD.secondUpload, claim, ctx.signal);
  } catch (error) {
    // A server without second upload (404) is not a failure: upload the chunks.
    if (error instanceof ApiCallError && error.status === HTTP_NOT_FOUND) return false;
    throw error;
  }
  // 'created' at once: an earlier attempt of this item created the file (its answer was lost).
  const answer =
    challenge.status === 'challenge'
      ? await ctx.api.send(PRE_UPLOAD.secondUpload, { ...claim, proof: { challengeId: challenge.challengeId, hmac: await computeProof(file, challenge.nonce, challenge.ranges) } }, ctx.signal)
      : challenge;
  if (answer.status !== 'created') return false;
  await ctx.update({ state: 'done', fileId: answer.file.id, lastError: null, bytesDone: item.size, via: 'instant' });
  return true;
}

const HTTP_NOT_FOUND = 404;

/** A 4xx other than 429: the server will not do this (here: a streaming session or a probe it does not know). */
function isRefusal(error: unknown): boolean {
  return error instanceof ApiCallError && error.status >= 400 && error.status < 500 && !(error instanceof RateLimitedError);
}
