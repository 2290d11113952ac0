/**
 * Which Blobs of the Node file source are byte ranges of a disk file, and where.
 *
 * The engine only sees `Blob`s: it slices the picked `File` into chunks and hands a slice to the hash
 * pool and to the chunk transport. In a browser that is all they need. Under Node, reading a Blob
 * costs copies through web streams, and a disk-backed Blob cannot be posted to a worker thread
 * (Node 20 aborts the process). So the Node file source records here the path and range of every
 * slice it makes, and the Node hash pool and transport read those bytes straight from the file
 * (a worker thread reads and hashes its range; the transport streams it into the socket).
 * A Blob not recorded here (a clone read back from the queue, a slice of a slice) still works: it
 * goes the ordinary, slower way.
 */

import type { FileHandle } from 'node:fs/promises';

export interface DiskRange {
  path: string;
  /** Inclusive byte offset in the file. */
  start: number;
  /** Exclusive byte offset in the file. */
  end: number;
}

const ranges = new WeakMap<Blob, DiskRange>();

export function recordDiskRange(blob: Blob, range: DiskRange): void {
  ranges.set(blob, range);
}

/** Where [start, end) of `blob` lies on disk, or undefined when `blob` is not a recorded range. */
export function diskRangeOf(blob: Blob, start = 0, end = blob.size): DiskRange | undefined {
  const range = ranges.get(blob);
  if (!range || start < 0 || end < start || end > range.end - range.start) return undefined;
  return { path: range.path, start: range.start + start, end: range.start + end };
}

/** Blob.slice semantics: negative indexes count from the end; the result is clamped to [0, size]. */
function clampIndex(index: number, size: number): number {
  return index < 0 ? Math.max(size + index, 0) : Math.min(index, size);
}

/** The byte range [from, to) that `slice(start, end)` of a Blob of `size` bytes covers (never reversed). */
export function sliceBounds(start: number, end: number, size: number): { from: number; to: number } {
  const from = clampIndex(start, size);
  return { from, to: Math.max(from, clampIndex(end, size)) };
}

/**
 * Reads `length` bytes of `range`'s file from `position` on into the start of `into` (a short read
 * is continued; a file that ended early, changed since it was picked, is refused).
 */
export async function readDiskRangeInto(handle: FileHandle, into: Uint8Array, position: number, length: number, range: DiskRange): Promise<void> {
  for (let done = 0; done < length; ) {
    const { bytesRead } = await handle.read(into, done, length - done, position + done);
    if (bytesRead === 0) throw new Error(`${range.path} is shorter than ${range.end} bytes`);
    done += bytesRead;
  }
}
