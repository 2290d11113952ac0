import { PassThrough, Readable } from 'node:stream';
import type { BodySource } from '../body-source';
import type { BodyEnd, ChunkStore, PartialChunk } from '../byte-store';
import { streamingChunkDigest } from '../content-digest';
import { isMissing, type S3Objects } from './s3-objects';

const ID_RE = /^[A-Za-z0-9_-]{22}$/;
/** Pieces of at most this size stream into the store; the rest waits (backpressure). */
const PIPE_BYTES = 1024 * 1024;

export function uploadPrefix(uploadId: string): string {
  if (!ID_RE.test(uploadId)) throw new Error('invalid upload id');
  return `uploads/${uploadId}/`;
}

export function chunkKey(uploadId: string, index: number): string {
  if (!Number.isSafeInteger(index) || index < 0) throw new Error('invalid chunk index');
  return `${uploadPrefix(uploadId)}${index}`;
}

/**
 * A chunk streaming into its object `uploads/<uploadId>/<index>` as its body arrives (one PutObject of
 * the chunk's length; SHA-256 computed on the way). The store acknowledges the object only once every
 * byte arrived; a body cut short aborts the PUT, so nothing partial is ever stored. The object is put
 * straight at its final name: the chunk is not recorded until its digest matched (the caller records it
 * under the upload's lock), a wrong one is deleted, and an unrecorded object left by a crash is removed
 * by recovery like an unrecorded chunk file.
 */
class S3PartialChunk implements PartialChunk {
  size = 0;
  private readonly hash = streamingChunkDigest();
  private readonly aborter = new AbortController();
  private put: Promise<void> | null = null;

  constructor(
    private readonly objects: S3Objects,
    private readonly key: string,
  ) {}

  async append(body: BodySource, limit: number, onBytes: (n: number) => void): Promise<BodyEnd> {
    const pipe = new PassThrough({ highWaterMark: PIPE_BYTES });
    const put = this.objects.put(this.key, pipe, limit, this.aborter.signal);
    this.put = put;
    let failed: unknown = null;
    put.catch((err: unknown) => {
      failed = err;
      pipe.destroy();
    });
    let received = 0;
    try {
      for await (const piece of body.pieces()) {
        onBytes(piece.length);
        received += piece.length;
        if (received > limit) {
          this.stop();
          return 'overflow';
        }
        this.hash.update(piece);
        this.size += piece.length;
        if (failed) throw failed;
        if (!pipe.write(piece)) await drained(pipe, put);
      }
    } catch {
      this.stop();
      // The store's PUT failed first (a store down, stuck or timed out): its coded error (STO-5031),
      // which the client retries — not a body the client cut, which the caller answers as a refusal
      // the engine takes as final ('分片传输中断').
      if (failed) throw failed;
      return 'cut';
    }
    if (!body.complete()) {
      this.stop();
      return 'cut';
    }
    // Fewer bytes than the chunk's length: the PUT would wait for the rest; the caller discards it.
    if (received < limit) this.stop();
    else pipe.end();
    return 'complete';
  }

  /** Aborts the PUT under way: the store keeps nothing of it. */
  private stop(): void {
    this.aborter.abort(new Error('chunk body ended early'));
    this.put?.catch(() => undefined);
  }

  async digestAndFlush(): Promise<string> {
    await this.put;
    return this.hash.digest();
  }

  /** The object is at its final name already (see the class comment). */
  async install(): Promise<void> {}

  async retain(): Promise<boolean> {
    this.stop();
    await this.put?.catch(() => undefined);
    return false;
  }

  async discard(): Promise<void> {
    this.stop();
    await this.put?.catch(() => undefined);
    await this.objects.delete([this.key]).catch(() => undefined);
  }
}

/** Resolves when `pipe` wants more, rejects when the PUT reading it failed first. */
function drained(pipe: PassThrough, put: Promise<void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    pipe.once('drain', resolve);
    put.then(
      () => resolve(),
      (err: unknown) => reject(err as Error),
    );
  });
}

/** `length` zero bytes, 1 MiB at a time. */
function zeros(length: number): Readable {
  const piece = Buffer.alloc(Math.min(length, PIPE_BYTES));
  let left = length;
  return Readable.from(
    (function* () {
      while (left > 0) {
        const n = Math.min(left, piece.length);
        left -= n;
        yield n === piece.length ? piece : piece.subarray(0, n);
      }
    })(),
  );
}

/**
 * Upload chunks as objects `uploads/<uploadId>/<index>` (staged objects, each a PutObject of the
 * chunk; the merge copies them server-side: s3-blob-store.ts). No partials: a cut body leaves nothing,
 * and the client sends the chunk again from its start.
 */
export class S3ChunkStore implements ChunkStore {
  constructor(private readonly objects: S3Objects) {}

  async storeZeroChunk(uploadId: string, index: number, length: number): Promise<void> {
    await this.objects.put(chunkKey(uploadId, index), zeros(length), length);
  }

  async openPartial(uploadId: string, index: number, offset: number): Promise<PartialChunk | null> {
    if (offset > 0) return null;
    return new S3PartialChunk(this.objects, chunkKey(uploadId, index));
  }

  async partialFileSizes(): Promise<Map<string, number>> {
    return new Map();
  }

  async partialSizes(): Promise<Map<number, number>> {
    return new Map();
  }

  async readHead(uploadId: string, bytes: number): Promise<Uint8Array> {
    const parts: Buffer[] = [];
    try {
      for await (const piece of await this.objects.get(chunkKey(uploadId, 0), { start: 0, end: bytes - 1 })) parts.push(piece as Buffer);
    } catch (err) {
      // An empty chunk 0 (an empty file): S3 refuses any range of an empty object.
      if ((err as { name?: string }).name === 'InvalidRange') return new Uint8Array();
      throw err;
    }
    return Buffer.concat(parts).subarray(0, bytes);
  }

  async removeUpload(uploadId: string): Promise<void> {
    await this.objects.deletePrefix(uploadPrefix(uploadId));
  }

  async listUploadIds(): Promise<string[]> {
    const ids: string[] = [];
    for await (const entry of this.objects.listLevel('uploads/')) if (entry.folder && ID_RE.test(entry.folder)) ids.push(entry.folder);
    return ids;
  }

  async listFiles(uploadId: string): Promise<string[]> {
    const prefix = uploadPrefix(uploadId);
    const names: string[] = [];
    try {
      for await (const o of this.objects.list(prefix)) names.push(o.key.slice(prefix.length));
    } catch (err) {
      if (isMissing(err)) return [];
      throw err;
    }
    return names;
  }

  async removeFile(uploadId: string, name: string): Promise<void> {
    if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error('invalid chunk file name');
    await this.objects.delete([`${uploadPrefix(uploadId)}${name}`]);
  }

  async close(): Promise<void> {}
}
