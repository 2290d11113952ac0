/**
 * Chunk digests computed in the background, in index order, `concurrency` at a time (the hash pool's
 * size): the one hashing loop of the engine. A pipelined upload awaits `digest(i)` and sends chunk i
 * while later chunks are still being hashed; a hash-first upload and the re-pick match await `all()`.
 * Digests already known (an earlier attempt) are not computed again.
 */
import { chunkCount, chunkRange } from '../../common/transfer/protocol';
import type { HashChunk } from '../hash/sha256';
import { runPool } from './pool';

export interface ChunkDigests {
  /** Resolves with the digest of chunk `index`; rejects if hashing failed or was stopped. */
  digest(index: number): Promise<string>;
  /** Every digest, in order. */
  all(): Promise<string[]>;
  /** Stops hashing (an upload that failed or was paused); pending digests reject with `reason`. */
  stop(reason: unknown): void;
}

export interface DigestOptions {
  hashChunk: HashChunk;
  concurrency: number;
  signal: AbortSignal;
  /** Bytes digested so far, counting known digests. */
  onProgress(bytesHashed: number): void;
  /** Digests from an earlier attempt (used as they are when the count matches). */
  known?: readonly string[] | null;
  /**
   * Chunks to hash before the others, in this order: a resumed upload's chunks still to send, so the
   * first bytes go out at once instead of after re-hashing every chunk the server already holds
   * (needed only for the fingerprint at the merge).
   */
  first?: readonly number[];
}

export function hashChunksInBackground(file: Blob, chunkSize: number, options: DigestOptions): ChunkDigests {
  const count = chunkCount(file.size, chunkSize);
  const settled = Array.from({ length: count }, () => deferred<string>());
  const known = options.known?.length === count ? options.known : null;
  const stopper = new AbortController();
  const signal = AbortSignal.any([options.signal, stopper.signal]);

  let hashed = 0;
  const todo: number[] = [];
  for (let i = 0; i < count; i++) {
    const digest = known?.[i];
    if (digest) {
      settled[i]!.resolve(digest);
      const { start, end } = chunkRange(i, file.size, chunkSize);
      hashed += end - start;
    } else {
      todo.push(i);
    }
  }
  if (hashed > 0) options.onProgress(hashed);
  if (options.first?.length) {
    const rank = new Map(options.first.map((index, position) => [index, position]));
    todo.sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || a - b);
  }

  const finished =
    todo.length === 0
      ? Promise.resolve()
      : runPool(todo, options.concurrency, signal, async (index, laneSignal) => {
          const { start, end } = chunkRange(index, file.size, chunkSize);
          settled[index]!.resolve(await options.hashChunk(file, start, end, laneSignal));
          hashed += end - start;
          options.onProgress(hashed);
        });
  // Settling a settled promise does nothing: only the digests not computed take the failure.
  finished.catch((error: unknown) => settled.forEach((d) => d.reject(error)));

  return {
    digest: (index) => settled[index]!.promise,
    all: () => Promise.all(settled.map((d) => d.promise)),
    stop: (reason) => {
      stopper.abort(reason);
      for (const d of settled) d.reject(reason);
    },
  };
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

/** A promise settled from outside; a rejection nobody awaits is not reported as unhandled. */
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
