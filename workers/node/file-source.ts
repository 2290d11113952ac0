/**
 * A disk file as the engine's `File`: `fs.openAsBlob(path)` wrapped in a `File` (for its name), lazy
 * in both directions: a slice reads only its own byte range from disk when read, so a 4 GiB file never
 * sits in memory. Every slice is recorded in disk-ranges.ts, so the Node hash pool and chunk transport
 * read those bytes straight from the file. (structuredClone of such a File, what fake-indexeddb does on
 * put, yields a Blob still backed by the disk file, so a queue can persist it like Chromium persists a
 * File reference.) Used by the headless sync, the replay CLI, the integration tests and the benches.
 */
import { promises as fsp } from 'node:fs';
import fs from 'node:fs';
import path from 'node:path';
import { readDiskRangeInto, recordDiskRange, sliceBounds } from './disk-ranges';

/** A disk file as a lazily-read `File` (nothing is read until a slice is). */
export async function openFileSource(filePath: string, name = path.basename(filePath)): Promise<File> {
  const stat = await fsp.stat(filePath);
  if (stat.size >= OPEN_AS_BLOB_SIZE_LIMIT) return new LargeDiskFile(filePath, name, stat.size, Math.floor(stat.mtimeMs));
  return new DiskFile(await fs.openAsBlob(filePath), filePath, name, Math.floor(stat.mtimeMs));
}

/**
 * A disk file as a `File` built on `fs.openAsBlob` (lazy: nothing is read until a slice is), whose
 * slices are recorded in disk-ranges.ts so the Node hash pool and transport read them from the file.
 */
class DiskFile extends File {
  readonly #path: string;

  constructor(blob: Blob, filePath: string, name: string, lastModified: number) {
    super([blob], name, { lastModified });
    this.#path = filePath;
    recordDiskRange(this, { path: filePath, start: 0, end: this.size });
  }

  override slice(start = 0, end = this.size, contentType = ''): Blob {
    const slice = super.slice(start, end, contentType);
    const { from, to } = sliceBounds(start, end, this.size);
    recordDiskRange(slice, { path: this.#path, start: from, end: to });
    return slice;
  }
}

/**
 * Node 20's `fs.openAsBlob` keeps the size in 32 bits: a 4 GiB file comes back as a 0-byte Blob, and
 * 4 GiB + 7 as 7 bytes. Files that large get {@link LargeDiskFile} instead.
 */
const OPEN_AS_BLOB_SIZE_LIMIT = 2 ** 32;

/**
 * A `File` over a disk file of any size that reads nothing until sliced, and whose slices read
 * nothing until read ({@link DiskRangeBlob}). Reading the whole file through it would load the whole
 * file, so it refuses an unsliced read.
 */
class LargeDiskFile extends File {
  readonly #path: string;
  readonly #size: number;

  constructor(filePath: string, name: string, size: number, lastModified: number) {
    super([], name, { lastModified });
    this.#path = filePath;
    this.#size = size;
    recordDiskRange(this, { path: filePath, start: 0, end: size });
  }

  override get size(): number {
    return this.#size;
  }

  override slice(start = 0, end = this.#size, contentType = ''): Blob {
    const { from, to } = sliceBounds(start, end, this.#size);
    return new DiskRangeBlob(this.#path, from, to, contentType);
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.reject(new Error('LargeDiskFile: read a slice, not the whole file'));
  }

  override stream(): ReturnType<Blob['stream']> {
    throw new Error('LargeDiskFile: read a slice, not the whole file');
  }

  override text(): Promise<string> {
    return Promise.reject(new Error('LargeDiskFile: read a slice, not the whole file'));
  }
}

/**
 * Bytes [start, end) of a disk file as a Blob that reads them only when asked (each read opens the
 * file, so a file changed meanwhile is seen changed, as a browser's File would fail). Recorded in
 * disk-ranges.ts, so the Node hash pool and transport read the file themselves.
 */
class DiskRangeBlob extends Blob {
  constructor(
    private readonly filePath: string,
    private readonly start: number,
    private readonly end: number,
    contentType: string,
  ) {
    super([], { type: contentType });
    recordDiskRange(this, { path: filePath, start, end });
  }

  override get size(): number {
    return this.end - this.start;
  }

  override slice(start = 0, end = this.size, contentType = ''): Blob {
    const { from, to } = sliceBounds(start, end, this.size);
    return new DiskRangeBlob(this.filePath, this.start + from, this.start + to, contentType);
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = new Uint8Array(this.size);
    const handle = await fsp.open(this.filePath, 'r');
    try {
      await readDiskRangeInto(handle, bytes, this.start, bytes.length, { path: this.filePath, start: this.start, end: this.end });
    } finally {
      await handle.close();
    }
    return bytes.buffer;
  }

  override stream(): ReturnType<Blob['stream']> {
    const read = () => this.arrayBuffer();
    return new ReadableStream<Uint8Array<ArrayBuffer>>({
      async pull(controller) {
        controller.enqueue(new Uint8Array(await read()));
        controller.close();
      },
    }) as ReturnType<Blob['stream']>;
  }

  override async text(): Promise<string> {
    return new TextDecoder().decode(await this.arrayBuffer());
  }
}

