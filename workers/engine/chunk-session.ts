/**
 * The steps of a chunk session that every upload path shares (upload-runner.ts): taking chunk/exist's
 * answer (what is stored, what prefixes are held), sending the missing chunks through the adaptive
 * lanes, the merge request, and an earlier attempt found finished.
 */
import { ERRORS } from '../../common/api/errors';
import { ApiCallError } from '../../common/api/failure';
import { UPLOADS, type ChunkMergeRequest } from '../../common/api/endpoints/uploads';
import { HEADER_CHUNK_SHA256, RETRY_MAX_ATTEMPTS } from '../../common/transfer/constants';
import { chunkCount, chunkRange, type ChunkExistResponse } from '../../common/transfer/protocol';
import { chunkDigestWith, readRange } from '../hash/sha256';
import type { UploadPatch, UploadRecord } from '../queue/types';
import { RateLimitedError } from './api-client';
import { runAdaptivePool } from './adaptive-pool';
import { backoffDelayMs } from './backoff';
import { UploadError } from './failure-policy';
import { MESSAGES } from './messages';
import type { UploadRunContext } from './upload-runner';

/** Where and how the item's file is created: the fields a merge and a second-upload claim share. */
export function fileTarget(item: UploadRecord): Omit<ChunkMergeRequest, 'uploadId'> {
  return {
    name: item.name,
    parentId: item.target.parentId,
    category: item.target.category,
    onConflict: item.onConflict,
    clientKey: item.id,
    ...(item.ifMatch ? { ifMatch: item.ifMatch } : {}),
    ...versionOfItem(item),
  };
}

/**
 * 上传新版本 (UploadRecord.versionOf) as a request field: the server addresses the file by its id
 * wherever it sits (common/api/schemas.ts VersionOf) — a file shared at its owner's top level has no
 * parentId the caller could name. Sent with chunk/exist, merge and second upload, only while the item
 * is still a new version (kept as a new file under another name after a lock, it goes by its place).
 */
export function versionOfItem(item: UploadRecord): { versionOf?: string } {
  return item.versionOf && item.onConflict === 'newVersion' ? { versionOf: item.versionOf } : {};
}

export function mergeRequest(item: UploadRecord, uploadId: string): ChunkMergeRequest {
  return { uploadId, ...fileTarget(item), ...purposeOf(item) };
}

/** The item's purpose (UploadRecord.purpose) as a request field: chunk/exist, chunk uploads, merge. */
export function purposeOf(item: UploadRecord): { purpose?: 'clientInstaller' } {
  return item.purpose ? { purpose: item.purpose } : {};
}


/**
 * The server says an earlier attempt of this item created its file (its answer was lost: a reload
 * while the merge ran): the item is done, with that file. (protocol.ts, "Finished uploads".)
 */
export async function finishedEarlier(ctx: UploadRunContext, item: UploadRecord, session: ChunkExistResponse): Promise<boolean> {
  if (!session.finished) return false;
  await ctx.update({ state: 'done', fileId: session.finished.fileId, lastError: null, bytesDone: item.size, via: 'chunks' });
  return true;
}


/** A session's answer applied to the item: what to send, the prefixes the server holds, the record now. */
export interface SessionPlan {
  item: UploadRecord;
  /** Chunk indexes to send, ascending. */
  missing: number[];
  /** index → bytes of the chunk the server already holds (sent from there with `offset`). */
  partial: Map<number, number>;
}

/**
 * Checks chunk/exist's answer against the item and records it: the session id, the chunks stored,
 * the bytes held (whole chunks and prefixes), 'uploading' while anything is missing, plus `patch`.
 */
export async function adoptSession(ctx: UploadRunContext, item: UploadRecord, session: ChunkExistResponse, patch: UploadPatch = {}): Promise<SessionPlan> {
  const count = chunkCount(item.size, item.chunkSize);
  if (session.chunkSize !== item.chunkSize || session.chunkCount !== count) {
    throw new UploadError({ action: 'fail', message: MESSAGES.protocolMismatch });
  }
  const stored = storedIndexes(session, count);
  const storedSet = new Set(stored);
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !storedSet.has(i));
  const partial = partialOffsets(session, storedSet, item, count);
  const storedBytes = stored.reduce((sum, i) => sum + chunkLength(i, item), 0);
  const partialBytes = [...partial.values()].reduce((sum, bytes) => sum + bytes, 0);
  const updated = await ctx.update({
    ...(missing.length > 0 ? { state: 'uploading' as const } : {}),
    uploadId: session.uploadId,
    chunksDone: stored,
    bytesDone: storedBytes + partialBytes,
    ...patch,
  });
  return { item: updated, missing, partial };
}

/** Sends the plan's missing chunks, `ctx.limit.current` at a time; `digestOf` gives each one's digest (null: none, an unhashed session). */
export async function sendMissing(ctx: UploadRunContext, plan: SessionPlan, digestOf: (index: number) => string | null | Promise<string>): Promise<void> {
  await runAdaptivePool(plan.missing, () => ctx.limit.current, ctx.signal, async (index, laneSignal) =>
    sendChunk(ctx, plan.item, index, await digestOf(index), plan.partial.get(index) ?? 0, laneSignal),
  );
}

/** Stored chunk indexes the server listed, deduplicated, in range, ascending. */
function storedIndexes(session: ChunkExistResponse, count: number): number[] {
  return [...new Set(session.existingChunks)].filter((i) => Number.isSafeInteger(i) && i >= 0 && i < count).sort((a, b) => a - b);
}


function chunkLength(index: number, item: UploadRecord): number {
  const { start, end } = chunkRange(index, item.size, item.chunkSize);
  return end - start;
}

/** Valid partials the server listed: index → bytes held (0 < bytes < chunk length, chunk missing). */
function partialOffsets(session: ChunkExistResponse, stored: ReadonlySet<number>, item: UploadRecord, count: number): Map<number, number> {
  const offsets = new Map<number, number>();
  for (const p of session.partialChunks ?? []) {
    if (!Number.isSafeInteger(p.index) || p.index < 0 || p.index >= count || stored.has(p.index)) continue;
    if (Number.isSafeInteger(p.bytes) && p.bytes > 0 && p.bytes < chunkLength(p.index, item)) offsets.set(p.index, p.bytes);
  }
  return offsets;
}


function isDigestMismatch(error: unknown): boolean {
  return error instanceof ApiCallError && error.errorCode === ERRORS.CHUNK_DIGEST_MISMATCH.code;
}

function isOffsetMismatch(error: unknown): boolean {
  return error instanceof ApiCallError && error.errorCode === ERRORS.CHUNK_OFFSET_MISMATCH.code;
}

/**
 * Sends one chunk. A 429 halves the item's concurrency and waits (Retry-After when given, else
 * backoff) before sending the same chunk again, without failing the attempt. A digest mismatch is
 * retried once: if the bytes now hash differently from the recorded digest, the file changed after
 * hashing and resending cannot help (→ failed); otherwise the bytes were damaged on the way (the
 * server dropped its partial: the chunk goes again from its start).
 * `heldBytes` > 0: the server holds that prefix of the chunk (counted in bytesDone already), so only
 * the rest is sent, with `offset`; the header stays the whole chunk's digest. If the server no longer
 * holds it (CHUNK_OFFSET_MISMATCH), the chunk goes again from its start, once.
 */
async function sendChunk(ctx: UploadRunContext, item: UploadRecord, index: number, digest: string | null, heldBytes: number, signal: AbortSignal): Promise<void> {
  const file = ctx.file as Blob;
  const { start, end } = chunkRange(index, item.size, item.chunkSize);
  const headers: Record<string, string> = digest === null ? {} : { [HEADER_CHUNK_SHA256]: digest };
  let offset = heldBytes;
  const send = async () => {
    const query = { uploadId: item.uploadId as string, index, ...(offset > 0 ? { offset } : {}), ...purposeOf(item) };
    try {
      await ctx.api.sendBytes(UPLOADS.chunkUpload, query, file.slice(start + offset, end), headers, signal, (sent) => ctx.chunkProgress(index, sent));
    } catch (error) {
      ctx.chunkProgress(index, 0); // a failed request's partial progress is taken back
      throw error;
    }
  };
  let mismatchRetried = false;
  let offsetRetried = false;
  for (let rateLimited = 0; ; ) {
    try {
      await send();
      break;
    } catch (error) {
      if (error instanceof RateLimitedError && ++rateLimited < RETRY_MAX_ATTEMPTS) {
        ctx.limit.rateLimited();
        await ctx.sleep(error.retryAfterMs ?? backoffDelayMs(rateLimited, ctx.random), signal);
        continue;
      }
      if (isOffsetMismatch(error) && offset > 0 && !offsetRetried) {
        offsetRetried = true;
        offset = 0;
        continue;
      }
      if (!isDigestMismatch(error) || mismatchRetried || digest === null) throw error;
      const current = await chunkDigestWith(ctx.sha256)(new Uint8Array(await readRange(file, start, end)));
      if (current !== digest) throw new UploadError({ action: 'fail', message: MESSAGES.fileChanged });
      mismatchRetried = true;
      offset = 0;
    }
  }
  ctx.limit.succeeded();
  // The held prefix is in bytesDone already (the view clamps if the chunk had to start over).
  ctx.chunkDone(index, end - start - heldBytes);
}
