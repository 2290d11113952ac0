/**
 * One attempt at downloading one item: Range requests of DOWNLOAD_PIECE_SIZE from the first byte not
 * yet in the piece store, each piece appended before the next is asked for, so a pause or reload
 * resumes from the last stored byte.
 *
 * A file that changed meanwhile must not be mixed with the stored prefix: the ETag of the first answer
 * is kept and sent as If-Range; a changed file makes the server answer 200 with the whole new content,
 * and the runner drops the stored pieces and starts over. States: 'checking' while the first answer
 * is awaited, then 'uploading' ("transferring", for either direction), then 'done'.
 */
import { downloadUrl } from '../../common/api/paths';
import { DOWNLOAD_PIECE_SIZE } from '../../common/transfer/constants';
import { NetworkError, type ApiClient } from '../engine/api-client';
import { UploadError } from '../engine/failure-policy';
import { MESSAGES } from '../engine/messages';
import type { UploadPatch, UploadRecord } from '../queue/types';
import type { PieceStore } from './piece-store';

export interface DownloadRunContext {
  record: UploadRecord;
  signal: AbortSignal;
  api: ApiClient;
  store: PieceStore;
  pieceSize?: number;
  update(patch: UploadPatch): Promise<UploadRecord>;
  /** Bytes received of the piece being buffered (0 once it is stored): moves bytesDone between pieces. */
  onPieceProgress(bytesBuffered: number): void;
}

const HTTP_PARTIAL_CONTENT = 206;

/** Parses 'bytes 0-99/1000' → {start, total}. */
export function parseContentRange(value: string | null): { start: number; total: number | null } | null {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value?.trim() ?? '');
  if (!match) return null;
  return { start: Number(match[1]), total: match[3] === '*' ? null : Number(match[3]) };
}

export async function runDownload(ctx: DownloadRunContext): Promise<void> {
  const { signal, store } = ctx;
  const pieceSize = ctx.pieceSize ?? DOWNLOAD_PIECE_SIZE;
  let item = ctx.record;
  const id = item.id;
  let offset = await store.length(id);
  if (offset > item.size || (offset > 0 && !item.etag)) {
    // More than the file, or bytes we cannot validate: start over rather than risk mixing.
    await store.remove(id);
    offset = 0;
  }
  item = await ctx.update({ state: 'checking', bytesDone: offset });

  while (offset < item.size) {
    signal.throwIfAborted();
    const last = Math.max(offset, Math.min(item.size, offset + pieceSize) - 1);
    const headers: Record<string, string> = { Range: `bytes=${offset}-${last}` };
    if (item.etag && offset > 0) headers['If-Range'] = item.etag;
    const response = await ctx.api.getRaw(downloadUrl(item.fileId as string), headers, signal);
    const etag = response.headers.get('ETag');
    const patch: UploadPatch = { state: 'uploading' };
    if (response.status === HTTP_PARTIAL_CONTENT) {
      const range = parseContentRange(response.headers.get('Content-Range'));
      if (!range || range.start !== offset) throw new UploadError({ action: 'fail', message: MESSAGES.downloadFailed });
      if (range.total !== null && range.total !== item.size) {
        // Same validator but another size cannot happen for an unchanged file: restart.
        await response.body?.cancel();
        await store.remove(id);
        offset = 0;
        item = await ctx.update({ size: range.total, etag, bytesDone: 0 });
        continue;
      }
    } else {
      // 200: the whole file. Either the server ignores Range, or If-Range failed: the file changed.
      await store.remove(id);
      offset = 0;
      const length = Number(response.headers.get('Content-Length'));
      if (Number.isFinite(length) && response.headers.get('Content-Length') !== null) patch.size = length;
      patch.bytesDone = 0;
    }
    if (etag) patch.etag = etag;
    item = await ctx.update(patch);
    offset = await appendBody(ctx, response, offset, pieceSize);
    item = await ctx.update({ bytesDone: offset });
  }

  const stored = await store.length(id);
  if (stored !== item.size) {
    await store.remove(id);
    throw new UploadError({ action: 'fail', message: MESSAGES.downloadSizeMismatch });
  }
  await ctx.update({ state: 'done', bytesDone: stored, lastError: null });
}

/** Streams the body into the store in pieces of at most `pieceSize`; returns the new stored length. */
async function appendBody(ctx: DownloadRunContext, response: Response, offset: number, pieceSize: number): Promise<number> {
  const id = ctx.record.id;
  if (!response.body) return offset;
  const reader = response.body.getReader();
  let buffer = new Uint8Array(pieceSize);
  let filled = 0;
  const flush = async () => {
    if (filled === 0) return;
    await ctx.store.append(id, offset, buffer.subarray(0, filled));
    offset += filled;
    buffer = new Uint8Array(pieceSize);
    filled = 0;
    ctx.onPieceProgress(0); // (briefly under-counts rather than counting the piece twice)
    // Stored bytes are progress: a later failure starts its retry count afresh.
    await ctx.update({ bytesDone: offset, attempts: 0 });
  };
  for (;;) {
    ctx.signal.throwIfAborted();
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      throw new NetworkError(error); // the connection broke mid-body: retry from the stored length
    }
    const { done, value } = chunk;
    if (done) break;
    let at = 0;
    while (at < value.length) {
      const take = Math.min(value.length - at, pieceSize - filled);
      buffer.set(value.subarray(at, at + take), filled);
      filled += take;
      at += take;
      ctx.onPieceProgress(filled);
      if (filled === pieceSize) await flush();
    }
  }
  await flush();
  return offset;
}
