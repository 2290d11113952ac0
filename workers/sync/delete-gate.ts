/**
 * Deletes above a threshold wait for the person (rclone bisync's --max-delete, Dropbox's "you deleted
 * many files"). Pure: the pass hands in the plan's deletes, what both sides hold and what the person
 * confirmed; the verdict says what may go now.
 *
 * Counted in files on both directions at once (local deletes sent to the cloud and cloud deletes
 * applied here; a folder counts the synced files under it), against the files both sides agreed on.
 * A pass waits when the deletes not yet confirmed
 *  - are more than `maxShare` of the synced files (default 50 %), or more than `maxCount` files
 *    (default 100): the deletes wait, everything else in the pass (uploads, downloads, moves) goes on;
 *  - meet a side that holds no file at all while the journal had at least `emptySideFrom` files (an
 *    unmounted disk, a wiped folder): the whole pass waits, because a download into an unmounted
 *    disk's mount point is no safer than a delete.
 * A confirmation names the exact deletes shown (their identities: path, file id and stat, or cloud
 * id): one planned later that was not shown is judged again on its own.
 */
import { createHash } from 'node:crypto';
import type { HeldDeleteItem } from '../../common/sync/types';
import type { JournalEntry, Op } from './model';
import { parentPath } from './names';

export interface DeleteGuard {
  /** Share of the synced files (0..1) a pass may delete without asking. */
  maxShare: number;
  /** Files a pass may delete without asking. */
  maxCount: number;
  /** A side with no file at all stops the pass when the journal had at least this many files. */
  emptySideFrom: number;
}

export const DEFAULT_DELETE_GUARD: DeleteGuard = { maxShare: 0.5, maxCount: 100, emptySideFrom: 1 };

type DeleteOp = Extract<Op, { kind: 'deleteLocal' | 'deleteRemote' }>;

export interface PlannedDelete extends HeldDeleteItem {
  /** What the confirmation names: the path key and what was there (file id and stat, or cloud id). */
  identity: string;
  op?: DeleteOp;
}

export const isDeleteOp = (op: Op): op is DeleteOp => op.kind === 'deleteLocal' || op.kind === 'deleteRemote';

/** The plan's deletes, each with the synced files it removes. */
export function plannedDeletes(ops: readonly Op[], journal: readonly JournalEntry[]): PlannedDelete[] {
  const remoteDirs = new Map<string, PlannedDelete>();
  const out: PlannedDelete[] = [];
  for (const op of ops) {
    if (op.kind === 'deleteRemote') {
      const item: PlannedDelete = { path: op.path, side: 'remote', isDir: op.isDir, files: op.isDir ? 0 : 1, identity: `R|${op.key}|${op.remoteId}`, op };
      if (op.isDir) remoteDirs.set(op.key, item);
      out.push(item);
    } else if (op.kind === 'deleteLocal') {
      const e = op.expect;
      out.push({ path: op.path, side: 'local', isDir: e.isDir, files: e.isDir ? 0 : 1, identity: `L|${op.key}|${e.fileId}|${e.size}|${e.mtimeMs}`, op });
    }
  }
  if (remoteDirs.size > 0) {
    // A cloud folder goes with its subtree: it counts the synced files under it.
    for (const j of journal) {
      if (j.isDir) continue;
      for (let k = parentPath(j.key); k !== ''; k = parentPath(k)) {
        const dir = remoteDirs.get(k);
        if (dir) {
          dir.files++;
          break;
        }
      }
    }
    for (const item of remoteDirs.values()) item.identity += `|${item.files}`;
  }
  return out;
}

/** Names a set of deletes (order-free). */
export function tokenOf(deletes: readonly PlannedDelete[]): string {
  return createHash('sha256')
    .update(deletes.map((d) => d.identity).sort().join('\n'))
    .digest('hex')
    .slice(0, 20);
}

export interface GateInput {
  deletes: readonly PlannedDelete[];
  /** Identities the person confirmed. */
  confirmed: ReadonlySet<string>;
  /** Files in the journal (both sides agreed on them). */
  syncedFiles: number;
  /** Files each side holds now (after ignore rules). */
  localFiles: number;
  remoteFiles: number;
  guard: DeleteGuard;
}

export type GateVerdict =
  | { go: true }
  | { go: false; wholePass: boolean; reason: string; held: PlannedDelete[]; localFiles: number; remoteFiles: number };

export function judgeDeletes(input: GateInput): GateVerdict {
  const pending = input.deletes.filter((d) => !input.confirmed.has(d.identity));
  if (pending.length === 0) return { go: true };
  const { guard, syncedFiles } = input;
  const localFiles = sum(pending.filter((d) => d.side === 'local'));
  const remoteFiles = sum(pending.filter((d) => d.side === 'remote'));
  const files = localFiles + remoteFiles;
  const held = (wholePass: boolean, reason: string): GateVerdict => ({ go: false, wholePass, reason, held: pending, localFiles, remoteFiles });
  if (syncedFiles >= guard.emptySideFrom && syncedFiles > 0) {
    if (input.localFiles === 0) return held(true, `本地文件夹是空的（磁盘未连接？），同步将删除云端的 ${files} 个文件：为免误删，同步已暂停，确认后才会删除`);
    if (input.remoteFiles === 0) return held(true, `云端文件夹是空的，同步将删除本机的 ${files} 个文件：为免误删，同步已暂停，确认后才会删除`);
  }
  if (files === 0) return { go: true }; // only empty folders
  const share = syncedFiles > 0 ? files / syncedFiles : 1;
  if (files > guard.maxCount || share > guard.maxShare) {
    const where = [remoteFiles > 0 && `云端 ${remoteFiles} 个`, localFiles > 0 && `本机 ${localFiles} 个`].filter(Boolean).join('、');
    return held(false, `本次同步将删除 ${where}文件（已同步的 ${syncedFiles} 个文件中的 ${Math.round(share * 100)}%），超过了${files > guard.maxCount ? ` ${guard.maxCount} 个` : ` ${Math.round(guard.maxShare * 100)}%`}：这些删除等待确认，其他变化照常同步`);
  }
  return { go: true };
}

function sum(items: readonly PlannedDelete[]): number {
  let n = 0;
  for (const d of items) n += d.files;
  return n;
}
