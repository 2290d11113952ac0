import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { ActionLogCheckpoint } from '../../common/api/action-log';
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
}
