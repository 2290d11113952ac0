/**
 * The sync engine's face to everything outside it (the desktop UI over the bridge, the headless
 * command's JSON line): folder pairs, the lists of spec §3 and the pass summary. Pure data.
 */

/**
 * backup: local → cloud only. A local delete leaves the cloud copy (unless `deleteRemote` is on, then
 * it goes to the recycle bin); a cloud-side change is overwritten by the local content as a new
 * version (the cloud's content stays in the file's versions). Nothing is ever downloaded.
 * two-way: changes go both ways; both sides changed → both kept (the local one as a conflict copy).
 */
export type SyncMode = 'backup' | 'two-way';

export interface SyncPairConfig {
  /** Stable id of the pair (its journal is keyed by it). */
  id: string;
  /** Absolute path of the local folder. */
  localDir: string;
  /** Path of the cloud folder inside 同步文件, '/'-separated, e.g. '/笔记本/文档'. */
  remotePath: string;
  mode: SyncMode;
  /** backup only: a local delete moves the cloud copy to the recycle bin. */
  deleteRemote: boolean;
  /** Extra ignore patterns (globs on the path inside the pair: `*.tmp`, `build/`, `**\/node_modules`). */
  ignore: string[];
  /** Paused pairs do not scan or transfer. */
  paused: boolean;
}

/** Where an entry of a list stands. */
export type SyncItemState =
  /** Waiting or in flight this pass. */
  | 'pending'
  | 'uploading'
  | 'downloading'
  /** Still being written by another program (size or time changed while reading): retried later. */
  | 'unstable'
  | 'done'
  | 'failed';

export type SyncDirection = 'up' | 'down' | 'local' | 'remote';

export interface SyncListItem {
  /** Path inside the pair, '/'-separated, as spelled locally. */
  path: string;
  /** What happened or happens to it, Chinese: 上传, 下载, 移动, 删除, 冲突副本... */
  action: string;
  state: SyncItemState;
  /** Bytes of the file (0 for folders and deletes). */
  size: number;
  /** Bytes moved so far (transfers in flight). */
  bytesDone: number;
  /** Why it failed or was intercepted, Chinese. */
  reason: string | null;
  /** Milliseconds since the epoch of the last change of this row. */
  at: number;
}

/** The lists of spec §3, per pair. */
export interface SyncLists {
  /** What this pass is doing or about to do (and files still being written). */
  syncList: SyncListItem[];
  /** What could not be synced, with the reason (names the server refuses, locked files, no permission...). */
  failList: SyncListItem[];
  /** What was synced lately (most recent first, bounded). */
  successList: SyncListItem[];
  /** Files of a type the tenant blocks: never uploaded. */
  interceptList: SyncListItem[];
  /** Files whose name holds one of the tenant's sensitive keywords: held back, not uploaded. */
  sensitiveList: SyncListItem[];
  /** Files marked as classified (密级标志): never uploaded. */
  secretList: SyncListItem[];
  /** Ours: skipped on purpose, not failures (symbolic links). */
  skippedList: SyncListItem[];
  /** Number of file paths the pair holds (local side, after ignore rules). */
  allFilepathsLength: number;
}

/** What one pass did: the headless command prints it as its JSON line. */
export interface SyncPassSummary {
  uploaded: number;
  downloaded: number;
  moved: number;
  deleted: number;
  conflicts: number;
  failed: number;
  intercepted: number;
}

export const EMPTY_SUMMARY: SyncPassSummary = { uploaded: 0, downloaded: 0, moved: 0, deleted: 0, conflicts: 0, failed: 0, intercepted: 0 };

export type SyncPhase = 'idle' | 'scanning' | 'syncing' | 'paused' | 'offline' | 'error';

/**
 * Why the last pass of a pair stopped short, for callers that act on it (the headless command's exit
 * code, the desktop's 确认删除): the message says it in Chinese.
 */
export type SyncStopCode =
  /** Deletes above the threshold wait for the person (heldDeletes lists them). */
  | 'deletesHeld'
  /** Another engine syncs this folder. */
  | 'locked'
  /** The server could not be reached. */
  | 'unreachable'
  /** The session is gone. */
  | 'unauthorized'
  /** A refusal the person must look at (the cloud folder vanished, the local folder is missing...). */
  | 'refused'
  | 'error';

/** One delete a pass holds back (a folder counts the files under it). */
export interface HeldDeleteItem {
  path: string;
  /** Where the delete would happen: 'remote' = the cloud copy goes to the recycle bin. */
  side: 'local' | 'remote';
  isDir: boolean;
  files: number;
}

/** Deletes held back until the person confirms exactly these (token) with 确认删除 / --confirm-deletes. */
export interface HeldDeletes {
  /** Names this exact set: a confirmation carries it, and a set that changed since is not confirmed by it. */
  token: string;
  /** Chinese: why they wait (the threshold crossed). */
  reason: string;
  /** Files the deletes would remove, on each side. */
  localFiles: number;
  remoteFiles: number;
  /** Files both sides agreed on before (the share is counted against it). */
  syncedFiles: number;
  /** true: the whole pass waited (a side is empty: nothing at all was done); false: only the deletes. */
  wholePass: boolean;
  at: number;
  /** The deletes (the status carries the first HELD_ITEMS_SHOWN). */
  items: HeldDeleteItem[];
}

/** Deletes of one pass, restorable in one action (recycle bin for the cloud, the sync's own trash locally). */
export interface DeletionEvent {
  id: string;
  at: number;
  /** Entries deleted locally (kept in `.cloud-drive-sync/deleted/`) and in the cloud (recycle bin). */
  local: number;
  remote: number;
  /** The first entries (the status carries at most DELETION_ITEMS_SHOWN). */
  items: Array<{ path: string; side: 'local' | 'remote'; isDir: boolean }>;
}

/** What restoring a deletion event did. */
export interface RestoreOutcome {
  restored: number;
  /** Chinese, per entry that could not come back (purged from the recycle bin, say). */
  failed: Array<{ path: string; reason: string }>;
}

export const HELD_ITEMS_SHOWN = 200;
export const DELETION_ITEMS_SHOWN = 50;

export interface SyncPairStatus {
  pair: SyncPairConfig;
  phase: SyncPhase;
  /** Chinese: why the pair is offline or in error. */
  message: string | null;
  /** Why the last pass stopped short (null: it did not). */
  code?: SyncStopCode | null;
  /** Deletes waiting for 确认删除 (null: none). */
  heldDeletes?: HeldDeletes | null;
  /** Recent deletion events, newest first (restorable). */
  deletions?: DeletionEvent[];
  lastPassAt: number | null;
  lastSummary: SyncPassSummary | null;
  lists: SyncLists;
  /** Bytes per second now (smoothed), up and down. */
  upSpeed: number;
  downSpeed: number;
}

export interface SyncSettings {
  /** Bytes per second, 0 = unlimited. */
  uploadLimit: number;
  downloadLimit: number;
  /** Milliseconds between full passes (the safety net under the file watcher); from the admin's syncTime. */
  intervalMs: number;
  /** Start the desktop client when the user logs in to the computer. */
  startAtLogin: boolean;
}

export interface SyncStatus {
  pairs: SyncPairStatus[];
  settings: SyncSettings;
  /** Everything paused by the user. */
  paused: boolean;
}
