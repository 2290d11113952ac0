/**
 * One attempt at uploading one item: config → hash → chunk/exist → missing chunks → merge.
 *
 * Each step is skipped when the record shows it already happened (digests computed, chunks stored),
 * so the same function serves a fresh upload, a retry and a resume after reload. The server is the
 * truth about stored chunks: every attempt asks chunk/exist again, so at most the chunks that were in
 * flight when the previous attempt died are sent twice. State changes and progress go through
 * `ctx.update` / `ctx.chunkDone`, which persist them (checked against the transition table).
 */
import { ERRORS } from '../../common/api/errors';
import { ApiCallError } from '../../common/api/failure';
import type { FileEntry } from '../../common/api/types';
import { API } from '../../common/api/paths';
import { formatSize } from '../../common/format/size';
import { DEFAULT_CHUNK_SIZE, HEADER_CHUNK_SHA256, MAX_CHUNK_SIZE, MIN_CHUNK_SIZE } from '../../common/transfer/constants';
import {
  chunkRange,
  type ChunkExistRequest,
  type ChunkExistResponse,
  type ChunkMergeRequest,
  type ChunkUploadResponse,
  type UploadConfig,
} from '../../common/transfer/protocol';
import { fingerprintOfChunkDigests, hashChunks, readRange, SourceReadError, type Sha256Hex } from '../hash/sha256';
import type { UploadPatch, UploadRecord } from '../queue/types';
import type { ApiClient } from './api-client';
import { UploadError } from './failure-policy';
import { MESSAGES } from './messages';
import { runPool } from './pool';

export interface UploadRunContext {
  /** The item as it was when this attempt started. */
  record: UploadRecord;
  /** The bytes (may be kept in memory only, when the store refused the File). */
  file: Blob | null;
  signal: AbortSignal;
  api: ApiClient;
  sha256: Sha256Hex;
  chunkConcurrency: number;
  /** Persists a patch and returns the new record; rejects once the attempt was aborted. */
  update(patch: UploadPatch): Promise<UploadRecord>;
  /** Persists that the server stored chunk `index` of `bytes` bytes. */
  chunkDone(index: number, bytes: number): Promise<void>;
  /** Bytes digested so far (memory only: cheap, frequent). */
  onHashProgress(bytesHashed: number): void;
}

/** Resolves when the item is done; throws on failure (the caller decides about retrying). */
export async function runUpload(ctx: UploadRunContext): Promise<void> {
  const { signal } = ctx;
  const file = ctx.file;
  if (!file) throw new SourceReadError('the file was not kept across the reload');
  let item = ctx.record;

  if (!item.chunkDigests || !item.fingerprint) {
    // Leave 'waiting' before the first request, so a failure there has a legal state to go to.
    item = await ctx.update({ state: 'hashing' });
    const config = await ctx.api.getJson<UploadConfig>(API.uploadConfig, signal);
    if (item.size > config.maxFileSize) {
      throw new UploadError({ action: 'fail', message: MESSAGES.fileTooLarge(formatSize(config.maxFileSize)) });
    }
    const chunkSize = usableChunkSize(config.chunkSize);
    const chunkDigests = await hashChunks(file, chunkSize, { signal, sha256: ctx.sha256, onProgress: ctx.onHashProgress });
    const fingerprint = await fingerprintOfChunkDigests(chunkDigests, ctx.sha256);
    item = await ctx.update({ chunkSize, chunkDigests, fingerprint });
  } else {
    // Digests from an earlier attempt or page: make sure the file is still readable before trusting
    // them. (A failed read inside fetch would look like a network error and be retried in vain.)
    await readRange(file, 0, Math.min(1, item.size));
  }
  const digests = item.chunkDigests as string[];

  item = await ctx.update({ state: 'checking' });
  const existRequest: ChunkExistRequest = {
    fingerprint: item.fingerprint as string,
    size: item.size,
    chunkSize: item.chunkSize,
    chunkDigests: digests,
    name: item.name,
    parentId: item.target.parentId,
    category: item.target.category,
  };
  const session = await ctx.api.postJson<ChunkExistResponse>(API.chunkExist, existRequest, signal);
  if (session.chunkSize !== item.chunkSize || session.chunkCount !== digests.length) {
    throw new UploadError({ action: 'fail', message: MESSAGES.protocolMismatch });
  }

  const stored = [...new Set(session.existingChunks)].filter((i) => i >= 0 && i < digests.length).sort((a, b) => a - b);
  const storedSet = new Set(stored);
  const missing = digests.map((_, i) => i).filter((i) => !storedSet.has(i));
  const storedBytes = stored.reduce((sum, i) => sum + chunkLength(i, item), 0);
  item = await ctx.update({
    ...(missing.length > 0 ? { state: 'uploading' as const } : {}),
    uploadId: session.uploadId,
    chunksDone: stored,
    bytesDone: storedBytes,
  });

  await runPool(missing, ctx.chunkConcurrency, signal, (index, laneSignal) => sendChunk(ctx, item, index, laneSignal));

  const merge: ChunkMergeRequest = {
    uploadId: session.uploadId,
    name: item.name,
    parentId: item.target.parentId,
    category: item.target.category,
  };
  const entry = await ctx.api.postJson<FileEntry>(API.chunkMerge, merge, signal);
  await ctx.update({ state: 'done', fileId: entry.id, lastError: null, bytesDone: item.size });
}

/** The announced chunk size if it is within the protocol's bounds, else the default. */
function usableChunkSize(announced: number): number {
  return Number.isInteger(announced) && announced >= MIN_CHUNK_SIZE && announced <= MAX_CHUNK_SIZE ? announced : DEFAULT_CHUNK_SIZE;
}

function chunkLength(index: number, item: UploadRecord): number {
  const { start, end } = chunkRange(index, item.size, item.chunkSize);
  return end - start;
}

function isDigestMismatch(error: unknown): boolean {
  return error instanceof ApiCallError && error.errorCode === ERRORS.CHUNK_DIGEST_MISMATCH.code;
}

/**
 * Sends one chunk. A digest mismatch is retried once: if the bytes now hash differently from the
 * recorded digest, the file changed after hashing and resending cannot help (→ failed); otherwise
 * the bytes were damaged on the way and one more try is worth it.
 */
async function sendChunk(ctx: UploadRunContext, item: UploadRecord, index: number, signal: AbortSignal): Promise<void> {
  const file = ctx.file as Blob;
  const digest = (item.chunkDigests as string[])[index] as string;
  const { start, end } = chunkRange(index, item.size, item.chunkSize);
  const url = `${API.chunkUpload}?uploadId=${encodeURIComponent(item.uploadId as string)}&index=${index}`;
  const headers = { [HEADER_CHUNK_SHA256]: digest };
  const send = () => ctx.api.postBytes<ChunkUploadResponse>(url, file.slice(start, end), headers, signal);
  try {
    await send();
  } catch (error) {
    if (!isDigestMismatch(error)) throw error;
    const current = await ctx.sha256(await readRange(file, start, end));
    if (current !== digest) throw new UploadError({ action: 'fail', message: MESSAGES.fileChanged });
    await send();
  }
  await ctx.chunkDone(index, end - start);
}
