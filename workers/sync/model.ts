/**
 * The three trees a pass compares — local, journal (what both sides last agreed on), remote — and
 * the operations a plan is made of. Paths are inside the pair, '/'-separated; keys are pathKey(path)
 * (NFC, lower case), the identity two spellings of one entry share.
 */
import type { SyncMode } from '../../common/sync/types';
import type { LocalPlatform } from './names';
import type { ClashKind } from './name-clash';

export interface LocalEntry {
  /** As spelled on disk. */
  path: string;
  isDir: boolean;
  /** Bytes (0 for folders). */
  size: number;
  /** Milliseconds; 0 for folders (their time changes with every child: never compared). */
  mtimeMs: number;
  /** The file system's id of the file (`dev:ino`), kept by renames: how a local move is recognised. */
  fileId: string;
  /**
   * Block-list fingerprint (common/transfer/protocol.ts) read this pass; undefined when the file was
   * not read (its size, time and id match the journal), or is too large to read before uploading.
   */
  fingerprint?: string;
  /** An ignored name (temporary file, user pattern): reported, never synced, its folder not entered. */
  ignored?: boolean;
  /**
   * Holds holes (fewer blocks allocated than its size): read before it uploads even when large, so
   * the server learns which chunks are all zeros and stores them without receiving them (docs/sync.md).
   */
  sparse?: boolean;
}

export interface RemoteEntry {
  /** As spelled on the server (NFC). */
  path: string;
  id: string;
  /** The folder holding it (the pair's root folder for a top-level entry). */
  parentId: string;
  isDir: boolean;
  size: number;
  updatedAt: number;
  /** Fingerprint of the current content; null for folders. */
  fingerprint: string | null;
  /** Locked by another user: it cannot be changed from here. */
  lockedByOther?: boolean;
}

/** What both sides last agreed on, per path: the merge base. */
export interface JournalEntry {
  key: string;
  /** The agreed spelling (the server's). */
  path: string;
  isDir: boolean;
  size: number;
  mtimeMs: number;
  fileId: string;
  /** null for folders. */
  fingerprint: string | null;
  remoteId: string;
  /**
   * The file's time was not recent when it was recorded, so an equal size, time and id mean equal
   * content. A file recorded within MTIME_TRUST_MS of its last change is read again next pass: a
   * second write in the same clock tick and of the same size would otherwise go unseen.
   */
  trusted: boolean;
}

/** A file changed this recently (ms) may still change within the same time stamp: not trusted. */
export const MTIME_TRUST_MS = 2_000;

/** Where a local entry's content stands at planning time (what an operation expects to find). */
export type Expect = Pick<LocalEntry, 'size' | 'mtimeMs' | 'fileId' | 'isDir'>;

export type Op =
  /** Folders: parents before children. */
  | { kind: 'mkdirRemote'; key: string; path: string; local: LocalEntry }
  | { kind: 'mkdirLocal'; key: string; path: string; remote: RemoteEntry }
  /**
   * `replace`: the remote file this content becomes the next version of; `ifMatch` its fingerprint as
   * planned (refused when someone changed it meanwhile: no silent overwrite). null: a new file.
   */
  | { kind: 'upload'; key: string; path: string; remotePath: string; local: LocalEntry; replace: { id: string; ifMatch: string | null } | null }
  /** `expect` null: nothing may be at the local path; else exactly that file. */
  | { kind: 'download'; key: string; path: string; remote: RemoteEntry; expect: Expect | null }
  /** The whole remote subtree goes to the recycle bin. */
  | { kind: 'deleteRemote'; key: string; path: string; remoteId: string; isDir: boolean }
  /** Files and then (empty) folders, children first. */
  | { kind: 'deleteLocal'; key: string; path: string; expect: Expect }
  /** Moves and renames (case-only ones too) of a remote entry; the journal subtree follows. */
  | { kind: 'moveRemote'; fromKey: string; toKey: string; remoteId: string; fromPath: string; toPath: string; isDir: boolean; journalKey: string }
  /** `journalPath`: the agreed (server) spelling the journal row takes at the new place. */
  | { kind: 'moveLocal'; fromKey: string; toKey: string; fromPath: string; toPath: string; expect: Expect; journalPath: string }
  /**
   * Both sides changed: the local entry steps aside under its conflict-copy name (and is uploaded as
   * such). `clash`: a case or NFC/NFD twin of a kept name steps aside under its clash name (name-clash.ts).
   */
  | { kind: 'conflictLocal'; key: string; path: string; toPath: string; expect: Expect; clash?: ClashKind }
  /** Journal only: both sides agree (adopted, or a file touched without a content change). */
  | { kind: 'record'; entry: JournalEntry }
  /** Journal only: the entry is gone from both sides (or backup mode lets the cloud copy be). */
  | { kind: 'forget'; key: string }
  /** Journal only: the entry moved on both sides alike. */
  | { kind: 'rebase'; fromKey: string; toKey: string; toPath: string };

/** A path the pass will not touch, and why (Chinese): shown in the fail list. */
export interface PlanProblem {
  path: string;
  side: 'local' | 'remote';
  reason: string;
}

export interface PlanInput {
  mode: SyncMode;
  /** backup: a local delete sends the cloud copy to the recycle bin. */
  deleteRemote: boolean;
  /** Conflict copies are named after this account. */
  account: string;
  now: number;
  platform: LocalPlatform;
  local: readonly LocalEntry[];
  remote: readonly RemoteEntry[];
  journal: readonly JournalEntry[];
  /** Local paths (as spelled) to leave alone this pass (still being written, unreadable, held by policy), with why. */
  frozen: ReadonlyMap<string, string>;
  /** Frozen paths held back only by the tenant's rules: such a file still steps aside when a cloud folder takes its name. */
  heldByPolicy?: ReadonlySet<string>;
  /** Ignore rules (temporary names, the user's patterns), applied to both sides. */
  isIgnored(path: string, isDir: boolean): boolean;
  /** Journal keys whose move failed before: planned as a delete plus an add instead. */
  noMove?: ReadonlySet<string>;
  /**
   * Subtrees a side could not read this pass (a folder the scan could not list, a file it could not
   * look at, a cloud folder the listing could not give): each is frozen with everything under it, on
   * both sides — what the failed read did not see is not taken as deleted, moved or changed.
   */
  unreadable?: ReadonlyArray<{ path: string; side: 'local' | 'remote' }>;
}

export interface Plan {
  ops: Op[];
  problems: PlanProblem[];
}
