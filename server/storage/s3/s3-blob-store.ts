import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { addAbortSignal, PassThrough, Readable } from 'node:stream';
import type { BlobStore, BlobWriter, ChunkedLayout, StoredLayout } from '../byte-store';
import { uploadPrefix } from './s3-chunk-store';
import { inParallel, missingKey, type S3Objects } from './s3-objects';

const KEY_RE = /^[A-Za-z0-9_-]{22}$/;
/** Server-side copies (merge) and PUTs (small-file batches) in flight at once. */
const PARALLEL_REQUESTS = 8;

function blobKey(key: string): string {
  if (!KEY_RE.test(key)) throw new Error('invalid blob key');
  return `blobs/${key}`;
}

/** A chunk object's name within a prefix: its index, digits only. */
function chunkIndexOf(name: string): number | null {
  return /^[0-9]+$/.test(name) ? Number(name) : null;
}

/**
 * Blobs as objects: one piece is `blobs/<key>`; a chunked blob is `blobs/<key>/<index>`, one object
 * per chunk of its upload, so a Range maps onto ranged GETs of the chunks it covers (as on disk onto
 * chunk files). The merge (`adoptUpload`) copies each chunk object server-side (CopyObject: the bytes
 * never pass through this process; radosgw shares the data of objects past its head) and then deletes
 * the upload's; S3's 5 MiB minimum part size does not apply, so every chunk size works.
 */
export class S3BlobStore implements BlobStore {
  constructor(private readonly objects: S3Objects) {}

  newKey(): string {
    return randomBytes(16).toString('base64url');
  }

  newKeys(count: number): string[] {
    return Array.from({ length: count }, () => this.newKey());
  }

  async createWriter(): Promise<BlobWriter> {
    const key = this.newKey();
    const pipe = new PassThrough({ highWaterMark: 1024 * 1024 });
    const upload = this.objects.upload(blobKey(key), pipe);
    const done = upload.done();
    done.catch(() => undefined); // awaited by commit
    return {
      write: async (data) => {
        if (!pipe.write(data)) await Promise.race([once(pipe, 'drain'), done]);
      },
      commit: async () => {
        pipe.end();
        await done;
        return key;
      },
      abort: async () => {
        await upload.abort().catch(() => undefined);
        pipe.destroy();
      },
    };
  }

  async writePieces(pieces: ReadonlyArray<{ key: string; data: Uint8Array }>): Promise<void> {
    await inParallel(pieces, PARALLEL_REQUESTS, ({ key, data }) => this.objects.put(blobKey(key), data, data.length));
  }

  openRead(key: string, range?: { start: number; end: number }, layout?: ChunkedLayout | null, signal?: AbortSignal): Readable {
    const stream = this.openStream(key, range, layout, signal);
    return signal ? addAbortSignal(signal, stream) : stream;
  }

  /** The GETs take `signal` too: destroying the stream alone would wait for a GET in flight to answer. */
  private openStream(key: string, range: { start: number; end: number } | undefined, layout: ChunkedLayout | null | undefined, signal: AbortSignal | undefined): Readable {
    const objects = this.objects;
    const name = blobKey(key);
    if (!layout) {
      return Readable.from(
        (async function* () {
          yield* await objects.get(name, range, signal);
        })(),
        { objectMode: false },
      );
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? layout.size - 1;
    if (end < start) return Readable.from([]);
    const size = layout.chunkSize;
    return Readable.from(
      (async function* () {
        for (let i = Math.floor(start / size); i <= Math.floor(end / size); i++) {
          const base = i * size;
          const from = Math.max(start, base) - base;
          const to = Math.min(end, base + size - 1) - base;
          let sent = 0;
          for await (const piece of await objects.get(`${name}/${i}`, { start: from, end: to }, signal)) {
            sent += (piece as Buffer).length;
            yield piece as Buffer;
          }
          // A damaged store is an error, never a silently short body.
          if (sent !== to - from + 1) throw new Error(`stored chunk ${name}/${i} ends before byte ${from + sent}`);
        }
      })(),
      { objectMode: false },
    );
  }

  async remove(key: string): Promise<void> {
    const name = blobKey(key);
    const keys = [name];
    for await (const o of this.objects.list(`${name}/`)) keys.push(o.key);
    await this.objects.delete(keys);
  }

  /** Chunk names (indexes) of every object under `prefix`. */
  private async chunksUnder(prefix: string): Promise<number[]> {
    const indexes: number[] = [];
    for await (const o of this.objects.list(prefix)) {
      const index = chunkIndexOf(o.key.slice(prefix.length));
      if (index !== null) indexes.push(index);
    }
    return indexes;
  }

  /**
   * Copies every chunk of `from` to `to` server-side, then deletes the originals: either every copy is
   * acknowledged before the first delete, or the originals stay whole (recovery then removes the copies).
   */
  private async moveChunks(from: string, to: string, what: string): Promise<void> {
    const indexes = await this.chunksUnder(from);
    if (indexes.length === 0) throw missingKey(what);
    try {
      await inParallel(indexes, PARALLEL_REQUESTS, (i) => this.objects.copy(`${from}${i}`, `${to}${i}`));
    } catch (err) {
      // The originals are whole: the copies made so far go (if the store lets us; else recovery's pass).
      await this.objects.delete(indexes.map((i) => `${to}${i}`)).catch(() => undefined);
      throw err;
    }
    const leftovers: string[] = [];
    for await (const o of this.objects.list(from)) leftovers.push(o.key);
    await this.objects.delete(leftovers);
  }

  async adoptUpload(uploadId: string, key: string): Promise<void> {
    await this.moveChunks(uploadPrefix(uploadId), `${blobKey(key)}/`, uploadPrefix(uploadId));
  }

  async returnToUpload(key: string, uploadId: string): Promise<void> {
    await this.moveChunks(`${blobKey(key)}/`, uploadPrefix(uploadId), blobKey(key));
  }

  async hasChunked(key: string): Promise<boolean> {
    return this.objects.any(`${blobKey(key)}/`);
  }

  async chunkedChangedAt(key: string): Promise<number | null> {
    let newest: number | null = null;
    for await (const o of this.objects.list(`${blobKey(key)}/`)) newest = Math.max(newest ?? 0, o.modified);
    return newest;
  }

  async listStored(): Promise<Map<string, StoredLayout>> {
    const keys = new Map<string, StoredLayout>();
    for await (const entry of this.objects.listLevel('blobs/')) {
      if (entry.folder && KEY_RE.test(entry.folder)) keys.set(entry.folder, 'chunked');
      else if (entry.object && KEY_RE.test(entry.object) && !keys.has(entry.object)) keys.set(entry.object, 'single');
    }
    return keys;
  }
}
