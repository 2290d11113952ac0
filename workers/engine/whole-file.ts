/**
 * A new file of an unhashed streaming session goes up in one range upload (common/transfer/protocol.ts,
 * "Range uploads"): the picked File itself as the body of chunks 0..last, not a slice. Chromium lets
 * its network service read a File from disk itself, while every `File.slice` body is relayed through
 * the browser process (1.6–1.8 CPU-s per 512 MiB against ~0.03; tests/bench/PROFILE-browser-upload.md).
 *
 * The request is sent quiet (transport.ts ChunkRequest.quiet): no upload progress events, which
 * Chromium posts to the engine's thread ~10 times a second for as long as the request runs when it has
 * a listener (issue 43). What the user sees and what is persisted both come from the server instead:
 * chunk/exist asked every few seconds (the server records each chunk as the body arrives and, on local
 * disk, lists the bytes it holds of the chunk in flight in `partialChunks`), then the request's answer.
 * The same answers watch the request: when what the server holds has not grown for the stall timeout
 * (or, once it holds every chunk, the answer has not come for the answer timeout), the request is
 * aborted as stalled. A failed request takes its shown bytes back and tells the caller to go on chunk
 * by chunk, with progress events, from what the server holds — also what happens on a link so slow that
 * a store without partial chunks (S3) records nothing new for a stall timeout.
 */
import { UPLOADS } from '../../common/api/endpoints/uploads';
import { ANSWER_TIMEOUT_STALLS, STALL_TIMEOUT_MS } from '../../common/transfer/constants';
import { chunkCount, chunkRange, type ChunkExistResponse, type ChunkRangeUploadResponse, type ChunkUploadResponse, type PartialChunk } from '../../common/transfer/protocol';
import { purposeOf, type SessionPlan } from './chunk-session';
import { StallError } from './transport';
import type { UploadRunContext } from './upload-runner';

/** Whether the plan is a session that holds nothing yet, of more than one chunk (one chunk: the ordinary request). */
export function wantsWholeFile(ctx: UploadRunContext, plan: SessionPlan): boolean {
  const count = chunkCount(plan.item.size, plan.item.chunkSize);
  return count > 1 && plan.missing.length === count && plan.partial.size === 0 && ctx.file !== null && ctx.file.size === plan.item.size;
}

/** How often the server is asked what it recorded while a whole-file request runs (shown and persisted progress). */
export const WHOLE_FILE_CONFIRM_MS = 2_000;

/**
 * Sends the whole file in one request. True: every chunk is stored (and confirmed through
 * `ctx.chunkDone`). False: the request failed or stalled (not by our abort, which is rethrown at once):
 * the caller asks chunk/exist what arrived and sends the rest chunk by chunk. While the request runs,
 * `confirmed` (chunk/exist of this session) is asked every WHOLE_FILE_CONFIRM_MS (at most a third of
 * the stall timeout) which chunks the server recorded so far, and those are confirmed (persisted in the
 * record's batches): a reload mid-request starts from at most that far behind, never from nothing.
 */
export async function sendWholeFile(ctx: UploadRunContext, plan: SessionPlan, confirmed: (signal: AbortSignal) => Promise<ChunkExistResponse>): Promise<boolean> {
  ctx.signal.throwIfAborted();
  const { item } = plan;
  const last = chunkCount(item.size, item.chunkSize) - 1;
  const query = { uploadId: item.uploadId as string, index: 0, through: last, ...purposeOf(item) };
  const progress = chunkProgressOf(ctx, item.size, item.chunkSize, last);
  const request = new AbortController();
  const polling = new AbortController();
  const onAbort = () => {
    request.abort(ctx.signal.reason);
    polling.abort();
  };
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const stalled = (error: StallError) => request.abort(error);
  const poller = watchServer(item.uploadId as string, item.size, confirmed, progress, polling.signal, ctx, stalled);
  let answer: ChunkUploadResponse | ChunkRangeUploadResponse;
  try {
    answer = await ctx.api.sendBytes(UPLOADS.chunkUpload, query, ctx.file as Blob, {}, request.signal, 'quiet');
  } catch (error) {
    progress.takeBack();
    if (ctx.signal.aborted) throw error;
    return false;
  } finally {
    polling.abort();
    ctx.signal.removeEventListener('abort', onAbort);
    await poller;
  }
  ctx.limit.succeeded();
  // A range upload answers every chunk of the range (a single-chunk answer would be its one chunk).
  for (const chunk of 'chunks' in answer ? answer.chunks : [answer]) progress.confirm(chunk.index);
  return true;
}

/**
 * Asks what the server recorded every WHOLE_FILE_CONFIRM_MS (at most a third of the stall timeout)
 * until `signal` aborts: confirms the chunks it holds, shows the bytes it holds of the others, and calls
 * `stalled` when that has not grown for the stall timeout (the answer timeout once every chunk is held).
 * A failed question counts as no growth.
 */
async function watchServer(
  uploadId: string,
  size: number,
  confirmed: (signal: AbortSignal) => Promise<ChunkExistResponse>,
  progress: ChunkProgress,
  signal: AbortSignal,
  ctx: UploadRunContext,
  stalled: (error: StallError) => void,
): Promise<void> {
  const now = ctx.now ?? Date.now;
  const stallMs = ctx.stallTimeoutMs ?? STALL_TIMEOUT_MS;
  const interval = Math.min(WHOLE_FILE_CONFIRM_MS, Math.ceil(stallMs / 3));
  let held = 0;
  let grewAt = now();
  while (!signal.aborted) {
    try {
      await ctx.sleep(interval, signal);
      const session = await confirmed(signal);
      if (session.uploadId === uploadId) {
        const bytes = progress.recorded(session.existingChunks, session.partialChunks ?? []);
        if (bytes > held) {
          held = bytes;
          grewAt = now();
        }
      }
    } catch {
      // aborted (the request ended), or this turn's question failed: no growth seen this turn
    }
    if (signal.aborted) return;
    const limit = held >= size ? ANSWER_TIMEOUT_STALLS * stallMs : stallMs;
    if (now() - grewAt >= limit) {
      stalled(new StallError(limit));
      return;
    }
  }
}

type ChunkProgress = ReturnType<typeof chunkProgressOf>;

/**
 * What the server holds of the request's chunks, as lanes report theirs: chunks confirmed once (a
 * confirmed chunk is never shown as in flight again, nor taken back), the bytes held of the others shown.
 */
function chunkProgressOf(ctx: UploadRunContext, size: number, chunkSize: number, last: number) {
  const shown: number[] = [];
  const done = new Set<number>();
  const valid = (index: number) => Number.isSafeInteger(index) && index >= 0 && index <= last;
  const lengthOf = (index: number) => {
    const { start, end } = chunkRange(index, size, chunkSize);
    return end - start;
  };
  const confirm = (index: number): void => {
    if (done.has(index) || !valid(index)) return;
    done.add(index);
    ctx.chunkDone(index, lengthOf(index));
  };
  return {
    confirm,
    /**
     * What the server holds: whole chunks (confirmed, persisted) and the first bytes of others (shown,
     * memory only). Returns how many bytes it holds in all.
     */
    recorded(existing: readonly number[], partials: readonly PartialChunk[]): number {
      existing.forEach(confirm);
      let held = 0;
      for (const index of done) held += lengthOf(index);
      for (const { index, bytes } of partials) {
        if (done.has(index) || !valid(index)) continue;
        held += bytes;
        if (bytes > (shown[index] ?? 0)) {
          shown[index] = bytes;
          ctx.chunkProgress(index, bytes);
        }
      }
      return held;
    },
    takeBack(): void {
      shown.forEach((bytes, index) => bytes > 0 && !done.has(index) && ctx.chunkProgress(index, 0));
    },
  };
}
