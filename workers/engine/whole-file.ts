/**
 * A new file of an unhashed streaming session goes up in one range upload (common/transfer/protocol.ts,
 * "Range uploads"): the picked File itself as the body of chunks 0..last, not a slice. Chromium lets
 * its network service read a File from disk itself, while every `File.slice` body is relayed through
 * the browser process (1.6–1.8 CPU-s per 512 MiB against ~0.03; tests/bench/PROFILE-browser-upload.md).
 *
 * The bytes shown move with the request's upload progress (memory only, per chunk, like a lane's);
 * the record's progress comes from the server: chunk/exist asked every few seconds while the request
 * runs (the server records each chunk as the body arrives), then the request's answer. A failed request
 * takes its shown bytes back and tells the caller to go on chunk by chunk from what the server holds.
 */
import { UPLOADS } from '../../common/api/endpoints/uploads';
import { chunkCount, chunkRange, type ChunkExistResponse, type ChunkRangeUploadResponse, type ChunkUploadResponse } from '../../common/transfer/protocol';
import { purposeOf, type SessionPlan } from './chunk-session';
import type { UploadRunContext } from './upload-runner';

/** Whether the plan is a session that holds nothing yet, of more than one chunk (one chunk: the ordinary request). */
export function wantsWholeFile(ctx: UploadRunContext, plan: SessionPlan): boolean {
  const count = chunkCount(plan.item.size, plan.item.chunkSize);
  return count > 1 && plan.missing.length === count && plan.partial.size === 0 && ctx.file !== null && ctx.file.size === plan.item.size;
}

/** How often the server is asked what it recorded while a whole-file request runs (persisted progress). */
export const WHOLE_FILE_CONFIRM_MS = 2_000;

/**
 * Sends the whole file in one request. True: every chunk is stored (and confirmed through
 * `ctx.chunkDone`). False: the request failed (not by our abort, which is rethrown at once): the
 * caller asks chunk/exist what arrived and sends the rest chunk by chunk. While the request runs,
 * `confirmed` (chunk/exist of this session) is asked every WHOLE_FILE_CONFIRM_MS which chunks the server
 * recorded so far, and those are confirmed (persisted in the record's batches): a reload mid-request
 * starts from at most that far behind, never from nothing.
 */
export async function sendWholeFile(ctx: UploadRunContext, plan: SessionPlan, confirmed: (signal: AbortSignal) => Promise<ChunkExistResponse>): Promise<boolean> {
  const { item } = plan;
  const last = chunkCount(item.size, item.chunkSize) - 1;
  const query = { uploadId: item.uploadId as string, index: 0, through: last, ...purposeOf(item) };
  const progress = chunkProgressOf(ctx, item.size, item.chunkSize, last);
  const polling = new AbortController();
  const stopPolling = () => polling.abort();
  ctx.signal.addEventListener('abort', stopPolling, { once: true });
  const poller = pollConfirmations(item.uploadId as string, confirmed, progress.confirm, polling.signal, ctx);
  let answer: ChunkUploadResponse | ChunkRangeUploadResponse;
  try {
    answer = await ctx.api.sendBytes(UPLOADS.chunkUpload, query, ctx.file as Blob, {}, ctx.signal, progress.sent);
  } catch (error) {
    progress.takeBack();
    if (ctx.signal.aborted) throw error;
    return false;
  } finally {
    stopPolling();
    ctx.signal.removeEventListener('abort', stopPolling);
    await poller;
  }
  ctx.limit.succeeded();
  // A range upload answers every chunk of the range (a single-chunk answer would be its one chunk).
  for (const chunk of 'chunks' in answer ? answer.chunks : [answer]) progress.confirm(chunk.index);
  return true;
}

/** Asks what the server recorded every WHOLE_FILE_CONFIRM_MS until `signal` aborts; failures are left to the next turn. */
async function pollConfirmations(
  uploadId: string,
  confirmed: (signal: AbortSignal) => Promise<ChunkExistResponse>,
  confirm: (index: number) => void,
  signal: AbortSignal,
  ctx: UploadRunContext,
): Promise<void> {
  while (!signal.aborted) {
    try {
      await ctx.sleep(WHOLE_FILE_CONFIRM_MS, signal);
      const session = await confirmed(signal);
      if (session.uploadId === uploadId) session.existingChunks.forEach(confirm);
    } catch {
      // aborted (the request ended), or this turn's question failed: the request's answer confirms all
    }
  }
}

/**
 * Maps the request's bytes sent onto its chunks (each chunk's bytes sent, as lanes report them) and
 * confirms chunks once (a confirmed chunk is never shown as in flight again, nor taken back).
 */
function chunkProgressOf(ctx: UploadRunContext, size: number, chunkSize: number, last: number) {
  const shown: number[] = [];
  const done = new Set<number>();
  /** The first chunk not yet shown as fully sent. */
  let open = 0;
  const lengthOf = (index: number) => {
    const { start, end } = chunkRange(index, size, chunkSize);
    return end - start;
  };
  return {
    sent(bytesSent: number): void {
      while (open <= last) {
        const { start, end } = chunkRange(open, size, chunkSize);
        if (bytesSent <= start) return;
        const bytes = Math.min(end, bytesSent) - start;
        if (!done.has(open) && bytes > (shown[open] ?? 0)) {
          shown[open] = bytes;
          ctx.chunkProgress(open, bytes);
        }
        if (bytesSent < end) return;
        open++;
      }
    },
    confirm(index: number): void {
      if (done.has(index) || !Number.isSafeInteger(index) || index < 0 || index > last) return;
      done.add(index);
      ctx.chunkDone(index, lengthOf(index));
    },
    takeBack(): void {
      shown.forEach((bytes, index) => bytes > 0 && !done.has(index) && ctx.chunkProgress(index, 0));
    },
  };
}
