/**
 * One engine per local folder: a lock held for as long as an engine syncs the folder, so a second
 * engine (another `npm run sync`, the desktop app) refuses instead of uploading everything twice.
 *
 * The lock is an exclusive SQLite transaction on `.cloud-drive-sync/engine.lock` inside the folder
 * (the journal's own library): the operating system holds it (fcntl on Unix, LockFileEx on Windows)
 * and drops it when the process ends however it ends — a crash or a SIGKILL leaves no stale lock to
 * clean up, and a reused process id cannot keep one alive. Who holds it is written next to it
 * (`engine.lock.json`: process id, host, since) for the refusal's message only; it decides nothing.
 * A folder the engine cannot write into (backup mode on a read-only disk) is locked in the state
 * folder instead, by a hash of its real path.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SYNC_DIR_NAME } from './names';

export interface PairLock {
  release(): void;
}

/** Another engine holds the folder (Chinese message naming it). */
export class PairLocked extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PairLocked';
  }
}

interface Holder {
  pid: number;
  host: string;
  since: number;
}

function lockFileFor(localDir: string, stateDir: string): string {
  const area = path.join(localDir, SYNC_DIR_NAME);
  try {
    // Never creates the folder itself: a missing folder (an unmounted disk) is the pass's to report.
    if (!fs.statSync(localDir).isDirectory()) throw new Error('not a folder');
    if (!fs.existsSync(area)) fs.mkdirSync(area);
    fs.accessSync(area, fs.constants.W_OK);
    return path.join(area, 'engine.lock');
  } catch {
    let real = localDir;
    try {
      real = fs.realpathSync(localDir);
    } catch {
      // a folder that is gone: the pass says so, the lock only needs a stable name
    }
    const dir = path.join(stateDir, 'locks');
    fs.mkdirSync(dir, { recursive: true });
    return path.join(dir, `${createHash('sha256').update(real).digest('hex').slice(0, 16)}.lock`);
  }
}

/** Takes the folder's lock or throws PairLocked; `release` (or the process ending) lets it go. */
export function lockPair(localDir: string, stateDir: string, now = Date.now()): PairLock {
  const file = lockFileFor(localDir, stateDir);
  const db = new Database(file, { timeout: 0 });
  try {
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new PairLocked(lockedMessage(readHolder(file)));
    throw error;
  }
  const holder: Holder = { pid: process.pid, host: os.hostname(), since: now };
  try {
    fs.writeFileSync(`${file}.json`, JSON.stringify(holder));
  } catch {
    // only the message of a refused engine reads it
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      try {
        fs.rmSync(`${file}.json`, { force: true });
      } catch {
        // the next holder writes its own
      }
      db.close();
    },
  };
}

function readHolder(file: string): Holder | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(`${file}.json`, 'utf8')) as Partial<Holder>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.since === 'number' ? (parsed as Holder) : null;
  } catch {
    return null;
  }
}

function lockedMessage(holder: Holder | null): string {
  const who = holder ? `（进程 ${holder.pid}${holder.host === os.hostname() ? '' : `，计算机 ${holder.host}`}，${new Date(holder.since).toLocaleString('zh-CN', { hour12: false })} 起）` : '';
  return `另一个同步程序正在同步这个文件夹${who}：同一个文件夹同时只能由一个同步程序同步，请先停止另一个`;
}
