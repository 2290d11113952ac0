import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { ActionLogCheckpoint } from '../../common/api/action-log';
import { parseCheckpointFile } from '../services/action-log/checkpoint';
import { fsyncDir } from './durable-fs';

/** The day's file of checkpoints (UTC date): one JSON checkpoint per line, appended. */
export function checkpointFileName(at: number): string {
  return `audit-checkpoints-${new Date(at).toISOString().slice(0, 10)}.jsonl`;
}

/**
 * AUDIT_CHECKPOINT_DIR: where the server appends every checkpoint it signs, one file per UTC day.
 * Meant to be a mount the database's writers cannot rewrite (another machine, an append-only or
 * WORM share, a directory a log shipper reads). Each append is fsynced before it counts as written:
 * `audit:verify --checkpoint <file>` takes these files as they are.
 */
export class CheckpointDirectory {
  constructor(readonly dir: string) {}

  async append(checkpoints: readonly ActionLogCheckpoint[], at: number): Promise<string> {
    const file = path.join(this.dir, checkpointFileName(at));
    await fsp.mkdir(this.dir, { recursive: true });
    let created = false;
    const handle = await fsp.open(file, 'a', 0o640);
    try {
      created = (await handle.stat()).size === 0;
      await handle.appendFile(checkpoints.map((c) => `${JSON.stringify(c)}\n`).join(''), 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (created) await fsyncDir(this.dir);
    return file;
  }

  /**
   * What the newest day's file holds (unchecked: the caller checks the signatures), [] when there is
   * none. The server starts from it, so a head that went back across a restart is not signed either.
   */
  async newest(): Promise<unknown[]> {
    const names = await fsp.readdir(this.dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [] as string[];
      throw err;
    });
    const files = names.filter((n) => /^audit-checkpoints-\d{4}-\d{2}-\d{2}\.jsonl$/.test(n)).sort();
    const last = files[files.length - 1];
    return last ? parseCheckpointFile(await fsp.readFile(path.join(this.dir, last), 'utf8')) : [];
  }
}
