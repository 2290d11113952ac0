/**
 * One attempt at a batch of small files (common/transfer/batch-upload.ts): every file read once into
 * memory and hashed, one framed request carrying them all, then one write of every item's outcome.
 * Each item keeps its client key (its id), so a repeat after a lost answer creates nothing twice.
 */
import { ERRORS } from '../../common/api/errors';
import { UPLOADS } from '../../common/api/endpoints/uploads';
import { ApiCallError, classifyFailure } from '../../common/api/failure';
import { HEADER_BATCH_MANIFEST_SHA256, type BatchUploadItem } from '../../common/transfer/batch-upload';
import { smallChunkDigest, type Sha256Hex } from '../hash/sha256';
import type { UploadPatch } from '../queue/types';
import type { ApiClient } from './api-client';
import { decideOnFailure } from './failure-policy';
import type { LiveItem } from './live-item';
import { MESSAGES } from './messages';

/** What became of each item of the batch. */
export interface BatchOutcome {
  /** Final patches by item id (done, held, failed), or 'requeue' for an item to try again. */
  patches: Map<string, UploadPatch | 'requeue'>;
}

export interface BatchRunContext {
  items: LiveItem[];
  api: ApiClient;
  sha256: Sha256Hex;
  signal: AbortSignal;
  /** Bytes of item `id` sent so far (memory only, for the view). */
  progress(id: string, bytesSent: number): void;
}

interface Prepared {
  live: LiveItem;
  bytes: Uint8Array<ArrayBuffer>;
  item: BatchUploadItem;
}

/**
 * Files of a batch read at once. Each read is a round trip to the browser process (its blob reader);
 * one after another, a batch of 200 waited for 200 of them in a row before its request could go.
 */
export const BATCH_READS_IN_FLIGHT = 8;

/** Each item's bytes, in order; null where the file could not be read (gone, changed, not kept). */
async function readFiles(items: readonly LiveItem[], signal: AbortSignal): Promise<Array<Uint8Array<ArrayBuffer> | null>> {
  const out = new Array<Uint8Array<ArrayBuffer> | null>(items.length).fill(null);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length && !signal.aborted) {
      const i = next++;
      const file = items[i]!.file;
      if (!file) continue;
      try {
        out[i] = new Uint8Array(await file.arrayBuffer());
      } catch {
        out[i] = null;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_READS_IN_FLIGHT, items.length) }, lane));
  return out;
}

/**
 * Reads, hashes and sends the batch. Items whose file cannot be read are answered at once (held,
 * like any upload); the rest go in one request. A failure of the request itself throws (the batch
 * driver retries the whole batch).
 */
export async function runBatch(ctx: BatchRunContext): Promise<BatchOutcome> {
  const patches = new Map<string, UploadPatch | 'requeue'>();
  const prepared: Prepared[] = [];
  const [contents, chunkDigest] = await Promise.all([readFiles(ctx.items, ctx.signal), smallChunkDigest()]);
  ctx.signal.throwIfAborted();
  for (const [i, live] of ctx.items.entries()) {
    const r = live.record;
    const bytes = contents[i];
    if (!bytes) {
      patches.set(r.id, { state: 'held', lastError: MESSAGES.fileUnreadable, holdReason: 'fileMissing' });
      continue;
    }
    if (bytes.length !== r.size) {
      patches.set(r.id, { state: 'failed', lastError: MESSAGES.fileChanged, holdReason: null });
      continue;
    }
    const item: BatchUploadItem = {
      clientKey: r.id,
      name: r.name,
      parentId: r.target.parentId,
      category: r.target.category,
      size: r.size,
      digest: chunkDigest(bytes),
      onConflict: r.onConflict,
    };
    prepared.push({ live, bytes, item });
  }
  if (prepared.length === 0) return { patches };

  // One buffer (the manifest frame, then the files): one part for the browser's blob, not one per file.
  const header = manifestFrame(prepared.map((p) => p.item));
  const body = new Uint8Array(header.length + prepared.reduce((sum, p) => sum + p.bytes.length, 0));
  body.set(header, 0);
  const starts: number[] = [];
  let offset = header.length;
  for (const p of prepared) {
    starts.push(offset);
    body.set(p.bytes, offset);
    offset += p.bytes.length;
  }
  const headers = { [HEADER_BATCH_MANIFEST_SHA256]: await ctx.sha256(header) };
  const response = await ctx.api.sendBytes(UPLOADS.batchUpload, undefined, new Blob([body]), headers, ctx.signal, (sent) => {
    prepared.forEach((p, i) => {
      ctx.progress(p.live.record.id, Math.max(0, Math.min(p.bytes.length, sent - starts[i]!)));
    });
  });
  const byKey = new Map(response.results.map((r) => [r.clientKey, r]));
  for (const { live } of prepared) {
    const id = live.record.id;
    const result = byKey.get(id);
    if (!result) {
      patches.set(id, 'requeue');
    } else if (result.status === 'created') {
      patches.set(id, { state: 'done', fileId: result.file.id, bytesDone: live.record.size, lastError: null, holdReason: null, via: 'chunks' });
    } else if (result.errorCode === ERRORS.CHUNK_DIGEST_MISMATCH.code) {
      // Bytes damaged on the way (or the file changed after it was read): read and send it again.
      patches.set(id, 'requeue');
    } else {
      const refusal = { errorCode: result.errorCode, errorMessage: result.errorMessage };
      const decision = decideOnFailure(new ApiCallError(400, classifyFailure(400, refusal), refusal));
      if (decision.action === 'retry') patches.set(id, 'requeue');
      else patches.set(id, { state: decision.action === 'hold' ? 'held' : 'failed', lastError: decision.message, holdReason: decision.holdReason ?? null });
    }
  }
  return { patches };
}

/** [manifest length, 4 bytes big-endian][manifest as UTF-8 JSON]. */
export function manifestFrame(items: BatchUploadItem[]): Uint8Array<ArrayBuffer> {
  const json = new TextEncoder().encode(JSON.stringify({ items }));
  const out = new Uint8Array(4 + json.length);
  new DataView(out.buffer).setUint32(0, json.length, false);
  out.set(json, 4);
  return out;
}
