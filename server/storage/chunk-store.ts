import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { BodySource } from './body-source';
import { partialIndexOf, PARTIAL_SUFFIX, type BodyEnd, type ChunkStore, type PartialChunk } from './byte-store';
import { CoalescingWriter } from './coalescing-writer';
import { HashThreads, type StreamHasher } from './hash-threads';

/**
 * A chunk being received into `<uploadDir>/<uploadId>/<index>.part` (opened by
 * {@link LocalChunkStore.openPartial}): the bytes already there are hashed, the body is appended and
 * hashed, then the caller keeps it (digest and flush, then install as `<index>`), retains it (a cut body: fsync and leave the
 * partial for a resume) or discards it.
 */
export class PartialChunkFile implements PartialChunk {
  private closed = false;

  constructor(
    private readonly handle: fsp.FileHandle,
    private readonly partPath: string,
    private readonly finalPath: string,
    /** SHA-256 of the partial so far, computed off the event loop (hash-threads.ts). */
    private readonly hash: StreamHasher,
    /** Bytes of the chunk in the partial (the offset, then growing with the body). */
    public size: number,
  ) {}

  /**
   * Appends the body, reading at most `limit` more bytes; `onBytes` sees every piece read (kept or
   * not). Never holds the whole chunk in memory. A body that errors or closes before its end is 'cut'
   * (what arrived stays written); the stream error is not rethrown.
   */
  async append(body: BodySource, limit: number, onBytes: (n: number) => void): Promise<BodyEnd> {
    let received = 0;
    // Hashed as it is written: each gathered buffer goes to the hash thread once on its way to disk.
    const writer = new CoalescingWriter(this.handle, this.size, (written) => this.hash.update(written));
    try {
      // Leaving the loop early must not destroy the request: that would close the socket before the
      // 400 is written (a chunked body running past its length got no answer at all).
      for await (const piece of body.pieces()) {
        onBytes(piece.length);
        received += piece.length;
        if (received > limit) return 'overflow';
        await writer.write(piece);
        this.size += piece.length;
      }
      await writer.flush();
    } catch {
      // What arrived is kept for a resume: write what is gathered (a failing disk fails the retain).
      await writer.flush().catch(() => undefined);
      return 'cut';
    } finally {
      writer.release();
    }
    return body.complete() ? 'complete' : 'cut';
  }

  /**
   * A complete body, step 1 (call once, after `append`): the fsync and the digest run together, so the
   * bytes go to disk while the hash thread finishes the last of them (a chunk's answer waits for both).
   * Resolves with the hex SHA-256 of every byte of the partial once it is durable and closed. Needs no
   * lock (the partial is this writer's alone), so chunks of one upload reach the disk in parallel. A
   * wrong digest means the caller discards the partial: its fsync was wasted, nothing else.
   */
  async digestAndFlush(): Promise<string> {
    const durable = this.handle.sync().then(() => this.close());
    durable.catch(() => undefined); // awaited below, after the digest
    const digest = await this.hash.digest();
    await durable;
    return digest;
  }

  /**
   * Step 2, after {@link digestAndFlush}: rename `<index>.part` → `<index>`. The directory is not fsynced
   * here (it measured 6 ms a chunk, forcing a journal commit): the merge fsyncs it once before the
   * chunks become a blob. If power fails first, the rename may be lost: the full-length `.part` is
   * then removed at startup and its recorded row forgotten (services/recovery.ts), so chunk/exist
   * no longer lists the chunk and the client sends it again. Never a record of missing bytes.
   */
  async install(): Promise<void> {
    await fsp.rename(this.partPath, this.finalPath);
  }

  /** The body was cut: make what arrived durable and leave the partial for a resume. */
  async retain(): Promise<boolean> {
    this.hash.dispose();
    try {
      await this.handle.sync();
    } finally {
      await this.close();
    }
    return true;
  }

  /** Wrong bytes (or the upload is gone): the partial goes, the next attempt starts at offset 0. */
  async discard(): Promise<void> {
    this.hash.dispose();
    await this.close().catch(() => undefined);
    await fsp.rm(this.partPath, { force: true });
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }
}

/**
 * Opens `file` for writing (truncated), creating its directory only when the open says it is missing:
 * every chunk but an upload's first finds it there, so the common case costs one syscall, not a
 * recursive mkdir per chunk (measured ~5 % of the server's main thread during a 1 GiB upload).
 */
async function openCreatingDir(file: string): Promise<fsp.FileHandle> {
  try {
    return await fsp.open(file, 'w');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await fsp.mkdir(path.dirname(file), { recursive: true });
    return fsp.open(file, 'w');
  }
}

/**
 * Upload chunks on local disk under `<uploadDir>/<uploadId>/<index>`, and chunks being received (or
 * cut mid-body) as `<index>.part` next to them. Upload ids are server-generated (checked against a
 * strict pattern), indexes are integers, so no user input reaches a path.
 */
export class LocalChunkStore implements ChunkStore {
  private readonly hashThreads = new HashThreads();

  constructor(
    private readonly uploadDir: string,
    private readonly tmpDir: string,
  ) {}

  /** Stops the hash threads (app close). */
  async close(): Promise<void> {
    await this.hashThreads.close();
  }

  async init(): Promise<void> {
    await fsp.mkdir(this.uploadDir, { recursive: true });
    await fsp.mkdir(this.tmpDir, { recursive: true });
  }

  private dirOf(uploadId: string): string {
    if (!/^[A-Za-z0-9_-]{22}$/.test(uploadId)) throw new Error('invalid upload id');
    return path.join(this.uploadDir, uploadId);
  }

  private pathOf(uploadId: string, index: number): string {
    if (!Number.isSafeInteger(index) || index < 0) throw new Error('invalid chunk index');
    return path.join(this.dirOf(uploadId), String(index));
  }

  private partPathOf(uploadId: string, index: number): string {
    return this.pathOf(uploadId, index) + PARTIAL_SUFFIX;
  }

  /**
   * Stores chunk `index` of `length` zero bytes without receiving it: a file of that length that is
   * one hole (common/files/sparse.ts), made durable and put in place as a received chunk would be.
   */
  async storeZeroChunk(uploadId: string, index: number, length: number): Promise<void> {
    const partPath = this.partPathOf(uploadId, index);
    const handle = await openCreatingDir(partPath);
    try {
      await handle.truncate(length);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(partPath, this.pathOf(uploadId, index));
  }

  /**
   * Opens the partial of chunk `index` to continue at `offset`. 0: a fresh (truncated) partial. > 0:
   * the partial must hold at least `offset` bytes; it is truncated to `offset` and those bytes are
   * hashed (read 1 MiB at a time, on the hash threads). Null when it is missing or shorter (offset mismatch).
   */
  async openPartial(uploadId: string, index: number, offset: number): Promise<PartialChunkFile | null> {
    const partPath = this.partPathOf(uploadId, index);
    const finalPath = this.pathOf(uploadId, index);
    const hash = this.hashThreads.create();
    if (offset === 0) return new PartialChunkFile(await openCreatingDir(partPath), partPath, finalPath, hash, 0);
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(partPath, 'r+');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      if ((await handle.stat()).size < offset) {
        await handle.close();
        return null;
      }
      await handle.truncate(offset);
      for (let position = 0; position < offset; ) {
        // A buffer of its own per read: the hasher moves it to its thread.
        const buffer = Buffer.allocUnsafeSlow(Math.min(offset - position, 1024 * 1024));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) throw new Error('partial chunk shrank while being read');
        hash.update(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
        position += bytesRead;
      }
    } catch (err) {
      hash.dispose();
      await handle.close().catch(() => undefined);
      throw err;
    }
    return new PartialChunkFile(handle, partPath, finalPath, hash, offset);
  }

  /** Byte length of every partial file of one upload, by file name (recovery). */
  async partialFileSizes(uploadId: string): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    for (const name of await this.listFiles(uploadId)) {
      if (partialIndexOf(name) === null) continue;
      sizes.set(name, (await fsp.stat(path.join(this.dirOf(uploadId), name))).size);
    }
    return sizes;
  }

  /**
   * Byte counts of the partials of one upload among `indexes` (one readdir, one stat per partial).
   * Entries of 0 bytes are left out; the caller drops those not shorter than their chunk.
   */
  async partialSizes(uploadId: string, indexes: ReadonlySet<number>): Promise<Map<number, number>> {
    const sizes = new Map<number, number>();
    for (const name of await this.listFiles(uploadId)) {
      const index = partialIndexOf(name);
      if (index === null || !indexes.has(index)) continue;
      try {
        const { size } = await fsp.stat(path.join(this.dirOf(uploadId), name));
        if (size > 0) sizes.set(index, size);
      } catch {
        // removed meanwhile
      }
    }
    return sizes;
  }

  /** The first `bytes` bytes of an upload (its chunk 0), for content checks before a merge. */
  async readHead(uploadId: string, bytes: number): Promise<Uint8Array> {
    const handle = await fsp.open(this.pathOf(uploadId, 0), 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async removeUpload(uploadId: string): Promise<void> {
    await fsp.rm(this.dirOf(uploadId), { recursive: true, force: true });
  }

  /** Upload ids that have a chunk directory (recovery). */
  async listUploadIds(): Promise<string[]> {
    const entries = await fsp.readdir(this.uploadDir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory() && /^[A-Za-z0-9_-]{22}$/.test(e.name)).map((e) => e.name);
  }

  /** Names of the files in one upload's directory ([] when it has none). */
  async listFiles(uploadId: string): Promise<string[]> {
    try {
      return await fsp.readdir(this.dirOf(uploadId));
    } catch {
      return [];
    }
  }

  /** Removes one entry of an upload directory by its name as listed (recovery of unrecorded chunks). */
  async removeFile(uploadId: string, name: string): Promise<void> {
    if (!/^[0-9]+$/.test(name) && !/^[A-Za-z0-9._-]+$/.test(name)) throw new Error('invalid chunk file name');
    await fsp.rm(path.join(this.dirOf(uploadId), name), { recursive: true, force: true });
  }
}
