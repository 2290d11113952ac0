/**
 * A new file of an unhashed streaming session goes up in one range upload (common/transfer/protocol.ts,
 * "Range uploads"): the picked File itself as the body of chunks 0..last, not a slice. Chromium lets
 * its network service read a File from disk itself, while every `File.slice` body is relayed through
 * the browser process (1.6–1.8 CPU-s per 512 MiB against ~0.03; tests/bench/PROFILE-browser-upload.md).
 *
 * The bytes shown move with the request's upload progress (memory only, per chunk, like a lane's);
 * the record's progress comes from the server's answer (every chunk confirmed at once), or after a
 * reload from chunk/exist, which lists what the server recorded as the body arrived. A failed request
 * takes its shown bytes back and tells the caller to go on chunk by chunk from what the server holds.
 */
import { API } from '../../common/api/paths';
import { chunkCount, chunkRange, type ChunkRangeUploadResponse } from '../../common/transfer/protocol';
import type { SessionPlan } from './chunk-session';
import type { UploadRunContext } from './upload-runner';

/** Whether the plan is a session that holds nothing yet, of more than one chunk (one chunk: the ordinary request). */
export function wantsWholeFile(ctx: UploadRunContext, plan: SessionPlan): boolean {
  const count = chunkCount(plan.item.size, plan.item.chunkSize);
  return count > 1 && plan.missing.length === count && plan.partial.size === 0 && ctx.file !== null && ctx.file.size === plan.item.size;
}

/**
 * Sends the whole file in one request. True: every chunk is stored (and confirmed through
 * `ctx.chunkDone`). False: the request failed (not by our abort, which is rethrown at once): the
 * caller asks chunk/exist what arrived and sends the rest chunk by chunk.
 */
export async function sendWholeFile(ctx: UploadRunContext, plan: SessionPlan): Promise<boolean> {
  const { item } = plan;
  const last = chunkCount(item.size, item.chunkSize) - 1;
  const url = `${API.chunkUpload}?uploadId=${encodeURIComponent(item.uploadId as string)}&index=0&through=${last}`;
  const progress = chunkProgressOf(ctx, item.size, item.chunkSize, last);
  let answer: ChunkRangeUploadResponse;
  try {
    answer = await ctx.api.postBytes<ChunkRangeUploadResponse>(url, ctx.file as Blob, {}, ctx.signal, progress.sent);
  } catch (error) {
    progress.takeBack();
    if (ctx.signal.aborted) throw error;
    return false;
  }
  ctx.limit.succeeded();
  for (const chunk of answer.chunks) ctx.chunkDone(chunk.index, chunk.size);
  return true;
}

/** Maps the request's bytes sent onto its chunks (each chunk's bytes sent, as lanes report them). */
function chunkProgressOf(ctx: UploadRunContext, size: number, chunkSize: number, last: number) {
  const shown: number[] = [];
  /** The first chunk not yet shown as fully sent. */
  let open = 0;
  return {
    sent(bytesSent: number): void {
      while (open <= last) {
        const { start, end } = chunkRange(open, size, chunkSize);
        if (bytesSent <= start) return;
        const bytes = Math.min(end, bytesSent) - start;
        if (bytes > (shown[open] ?? 0)) {
          shown[open] = bytes;
          ctx.chunkProgress(open, bytes);
        }
        if (bytesSent < end) return;
        open++;
      }
    },
    takeBack(): void {
      shown.forEach((bytes, index) => bytes > 0 && ctx.chunkProgress(index, 0));
    },
  };
}
