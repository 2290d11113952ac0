import { randomBytes } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import { addAbortSignal, Readable } from 'node:stream';
import { chunkSpans, LARGE_READ_BYTES, SpansReadStream } from './chunked-read-stream';
import type { BlobStore, BlobWriter, ChunkedLayout, StoredLayout } from './byte-store';
import { fsyncDir, TempFile } from './durable-fs';

const KEY_RE = /^[A-Za-z0-9_-]{22}$/;

/**
 * Blobs on local disk under `blobs/<xx>/<key>`: a chunked blob is its upload's directory of chunk
 * files (uploads/<uploadId>/ renamed), a one-piece blob one file written temp → fsync → rename.
 */
export class LocalDiskBlobStore implements BlobStore {
  constructor(
    private readonly blobDir: string,
    private readonly tmpDir: string,
    /** Root of the chunk store (uploads/<uploadId>/<index>); same file system, so rename works. */
    private readonly uploadDir: string,
  ) {}

  async init(): Promise<void> {
    await fsp.mkdir(this.blobDir, { recursive: true });
    await fsp.mkdir(this.tmpDir, { recursive: true });
  }

  /** Keys are 128-bit random base64url; the first two characters shard the directory. */
  private pathOf(key: string): string {
    if (!KEY_RE.test(key)) throw new Error('invalid blob key');
    return path.join(this.blobDir, key.slice(0, 2), key);
  }

  private uploadPathOf(uploadId: string): string {
    if (!KEY_RE.test(uploadId)) throw new Error('invalid upload id');
    return path.join(this.uploadDir, uploadId);
  }

  newKey(): string {
    return randomBytes(16).toString('base64url');
  }

  newKeys(count: number): string[] {
    const shard = this.newKey().slice(0, 2);
    return Array.from({ length: count }, () => shard + randomBytes(15).toString('base64url'));
  }

  async writePieces(pieces: ReadonlyArray<{ key: string; data: Uint8Array }>): Promise<void> {
    const temps: Array<TempFile | undefined> = new Array(pieces.length);
    try {
      // Concurrent fsyncs of many files share the file system's journal commits.
      await Promise.all(
        pieces.map(async ({ data }, i) => {
          const temp = await TempFile.create(this.tmpDir);
          temps[i] = temp;
          await temp.write(data);
          await temp.flush();
        }),
      );
    } catch (err) {
      await Promise.all(temps.map((t) => t?.discard()));
      throw err;
    }
    const finals = pieces.map(({ key }) => this.pathOf(key));
    const dirs = [...new Set(finals.map((f) => path.dirname(f)))];
    await Promise.all(dirs.map((d) => fsp.mkdir(d, { recursive: true })));
    await Promise.all(temps.map((t, i) => t!.moveTo(finals[i]!)));
    await Promise.all(dirs.map((d) => fsyncDir(d)));
  }

  async createWriter(): Promise<BlobWriter> {
    const temp = await TempFile.create(this.tmpDir);
    const key = this.newKey();
    const finalPath = this.pathOf(key);
    return {
      write: (data) => temp.write(data),
      commit: async () => {
        await temp.commit(finalPath);
        return key;
      },
      abort: () => temp.discard(),
    };
  }

  openRead(key: string, range?: { start: number; end: number }, layout?: ChunkedLayout | null, signal?: AbortSignal): Readable {
    const stream = this.openStream(key, range, layout);
    return signal ? addAbortSignal(signal, stream) : stream;
  }

  private openStream(key: string, range?: { start: number; end: number }, layout?: ChunkedLayout | null): Readable {
    if (!layout) return createReadStream(this.pathOf(key), { ...range, highWaterMark: LARGE_READ_BYTES });
    const start = range?.start ?? 0;
    const end = range?.end ?? layout.size - 1;
    if (end < start) return Readable.from([]);
    return new SpansReadStream(chunkSpans(this.pathOf(key), layout.chunkSize, start, end));
  }

  async remove(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { recursive: true, force: true });
  }

  /**
   * rename(2) of the whole directory, then fsync of both parents: either place, never half. The
   * directory itself is fsynced first: chunks are renamed into it without a directory fsync each
   * (their bytes are fsynced), so this is where their names become durable.
   */
  async adoptUpload(uploadId: string, key: string): Promise<void> {
    const from = this.uploadPathOf(uploadId);
    const to = this.pathOf(key);
    await fsyncDir(from);
    await fsp.mkdir(path.dirname(to), { recursive: true });
    await fsp.rename(from, to);
    await fsyncDir(path.dirname(to));
    await fsyncDir(path.dirname(from));
  }

  async returnToUpload(key: string, uploadId: string): Promise<void> {
    const from = this.pathOf(key);
    const to = this.uploadPathOf(uploadId);
    await fsp.rename(from, to);
    await fsyncDir(path.dirname(to));
    await fsyncDir(path.dirname(from));
  }

  async hasChunked(key: string): Promise<boolean> {
    try {
      return (await fsp.stat(this.pathOf(key))).isDirectory();
    } catch {
      return false;
    }
  }

  async chunkedChangedAt(key: string): Promise<number | null> {
    try {
      const stat = await fsp.stat(this.pathOf(key));
      return stat.isDirectory() ? Math.max(stat.ctimeMs, stat.mtimeMs) : null;
    } catch {
      return null;
    }
  }

  async listStored(): Promise<Map<string, StoredLayout>> {
    const keys = new Map<string, StoredLayout>();
    for (const shard of await fsp.readdir(this.blobDir, { withFileTypes: true })) {
      if (!shard.isDirectory()) continue;
      for (const entry of await fsp.readdir(path.join(this.blobDir, shard.name), { withFileTypes: true })) {
        if (!KEY_RE.test(entry.name)) continue;
        if (entry.isDirectory()) keys.set(entry.name, 'chunked');
        else if (entry.isFile()) keys.set(entry.name, 'single');
      }
    }
    return keys;
  }
}
