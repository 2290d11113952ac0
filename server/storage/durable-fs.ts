import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

/** fsync a directory so a rename into it survives a crash (field notes: temp → fsync → rename → fsync dir). */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * A file being written under `tmpDir`; nothing is visible at its final place until `commit`, which
 * fsyncs the data, renames it into place and fsyncs the target directory.
 */
export class TempFile {
  private constructor(
    readonly tempPath: string,
    private readonly handle: fsp.FileHandle,
  ) {}

  static async create(tmpDir: string): Promise<TempFile> {
    const tempPath = path.join(tmpDir, `${randomUUID()}.part`);
    return new TempFile(tempPath, await fsp.open(tempPath, 'wx'));
  }

  async write(data: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < data.length) {
      const { bytesWritten } = await this.handle.write(data, offset, data.length - offset);
      offset += bytesWritten;
    }
  }

  async commit(finalPath: string): Promise<void> {
    await this.flush();
    await fsp.mkdir(path.dirname(finalPath), { recursive: true });
    await this.moveTo(finalPath);
    await fsyncDir(path.dirname(finalPath));
  }

  /** fsyncs and closes the file (the first half of `commit`, for callers that group the steps). */
  async flush(): Promise<void> {
    await this.handle.sync();
    await this.handle.close();
  }

  /** Renames the flushed file to `finalPath`, whose directory exists; the caller fsyncs that directory. */
  async moveTo(finalPath: string): Promise<void> {
    await fsp.rename(this.tempPath, finalPath);
  }

  async discard(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await fsp.rm(this.tempPath, { force: true });
  }
}
