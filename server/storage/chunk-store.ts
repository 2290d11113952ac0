import { createHash } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { TempFile } from './durable-fs';

/** A received chunk held in a temp file: checked by the caller, then kept or thrown away. */
export interface ReceivedChunk {
  size: number;
  sha256: string;
  /** True when the body had more bytes than the limit (reading stopped there). */
  overflow: boolean;
  keep(): Promise<void>;
  discard(): Promise<void>;
}

/**
 * Upload chunks on local disk under `<uploadDir>/<uploadId>/<index>`. Upload ids are server-generated
 * (checked against a strict pattern), indexes are integers, so no user input reaches a path.
 */
export class LocalChunkStore {
  constructor(
    private readonly uploadDir: string,
    private readonly tmpDir: string,
  ) {}

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

  /**
   * Streams the body into a temp file while hashing it, reading at most `limit` bytes; never holds
   * the whole chunk in memory.
   */
  async receive(uploadId: string, index: number, body: Readable, limit: number): Promise<ReceivedChunk> {
    const finalPath = this.pathOf(uploadId, index);
    const temp = await TempFile.create(this.tmpDir);
    const hash = createHash('sha256');
    let size = 0;
    let overflow = false;
    try {
      for await (const piece of body as AsyncIterable<Buffer>) {
        size += piece.length;
        if (size > limit) {
          overflow = true;
          break;
        }
        hash.update(piece);
        await temp.write(piece);
      }
    } catch (err) {
      await temp.discard();
      throw err;
    }
    if (overflow) body.destroy();
    return {
      size,
      sha256: hash.digest('hex'),
      overflow,
      keep: () => temp.commit(finalPath),
      discard: () => temp.discard(),
    };
  }

  openRead(uploadId: string, index: number): Readable {
    return createReadStream(this.pathOf(uploadId, index));
  }

  async exists(uploadId: string, index: number): Promise<boolean> {
    try {
      await fsp.access(this.pathOf(uploadId, index));
      return true;
    } catch {
      return false;
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
