/**
 * What the sync engine needs from the outside: the local folder, the server and the journal. The
 * headless command and Electron's utility process plug in the real ones (node-fs.ts, http-remote.ts,
 * sqlite-journal.ts); the randomized simulation plugs in a simulated disk, an in-process fake of the
 * server's contract and a journal that survives the engine's crashes (tests/sync/).
 */
import type { JournalEntry, LocalEntry, RemoteEntry } from './model';

/** lstat, as the sync needs it. */
export interface LocalStat {
  isDir: boolean;
  isSymlink: boolean;
  size: number;
  mtimeMs: number;
  fileId: string;
}

/**
 * A path the scan could not take as it is. Each freezes its whole subtree for the pass (planner.ts):
 * what the scan did not see under it is not taken as deleted, on either side.
 *  - symlink: never followed, never synced (skipped list);
 *  - unreadable: listing or reading it failed (no permission, I/O error, a mount that went away):
 *    the fail list, and the pass ends with failures;
 *  - vanished: it was listed and then gone before it could be looked at (a program saving it, a
 *    folder moved in the middle of the scan): looked at again next pass, like a file being written.
 */
export interface ScanIssue {
  path: string;
  kind: 'symlink' | 'unreadable' | 'vanished';
  /** Chinese, naming the path and what the person can do. */
  reason: string;
}

export interface ScanResult {
  entries: LocalEntry[];
  issues: ScanIssue[];
}

/** The block-list digests of a file (common/transfer/protocol.ts), with the stat they were read under. */
export interface FileDigests {
  chunkSize: number;
  chunkDigests: string[];
  fingerprint: string;
}

/** Why a local operation failed (Chinese), and whether trying again later may help. */
export class LocalFsError extends Error {
  constructor(
    message: string,
    readonly code: 'exists' | 'missing' | 'busy' | 'denied' | 'other',
  ) {
    super(message);
    this.name = 'LocalFsError';
  }
}

/** What the journal holds at a path (the strings a scan entry equal to it shares). */
export interface KnownEntry {
  path: string;
  fileId: string;
}

/** A local folder. Paths are inside it, '/'-separated; '' is the folder itself. */
export interface LocalFs {
  /**
   * Every file and folder (not following links), plus what could not be read. An entry `skip` says
   * yes to is listed with `ignored: true` and, if a folder, not entered. `known` gives what the
   * journal holds at a path: an entry equal to it takes its strings (one copy of each path and file
   * id alive, not two: 100,000 of them are ~10 MB a copy).
   */
  scan(skip: (path: string, isDir: boolean) => boolean, signal: AbortSignal, known?: (path: string) => KnownEntry | undefined): Promise<ScanResult>;
  /** null when nothing is there. */
  stat(path: string): Promise<LocalStat | null>;
  /** Digests of a file's current bytes (reads the whole file). */
  digest(path: string, chunkSize: number, signal: AbortSignal): Promise<FileDigests>;
  /** The file's bytes as a lazily read Blob (uploads read ranges of it). */
  openBlob(path: string): Promise<Blob>;
  mkdir(path: string): Promise<void>;
  /** Renames, refusing (code 'exists') when `to` exists: never replaces anything. */
  renameNoReplace(from: string, to: string): Promise<void>;
  /** Removes a file (not a folder). */
  unlink(path: string): Promise<void>;
  /** Removes an empty folder ('exists' when it is not empty). */
  rmdir(path: string): Promise<void>;
  /** Writes `body` to a new temporary file inside the folder's sync area; returns its path. */
  writeTemp(body: AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<string>;
  /** A fresh path in the sync area's trash for the file at `originalPath` (replaced or deleted files pass there). */
  trashPath(originalPath: string): string;
  /** What an earlier run left in the trash (it crashed between taking a file aside and deciding about it). */
  listTrash(): Promise<Array<{ trashPath: string; originalPath: string }>>;
  /** Removes temporary downloads an earlier run left. */
  cleanTemp(): Promise<void>;
  /**
   * Where a file deleted here by deletion event `eventId` is kept, so restoring the event can bring it
   * back (the folder for the event is created). Absent: deleted files are removed for good.
   */
  keptPath?(eventId: string, originalPath: string): string;
  /** Removes what deletion event `eventId` kept (it expired, or was restored). */
  dropKept?(eventId: string): Promise<void>;
}

/** How the server treats a file before it is uploaded (the tenant's rules). */
export interface PolicyVerdict {
  key: string;
  verdict: 'ok' | 'intercepted' | 'sensitive' | 'secret';
  reason: string | null;
}

export interface RemoteListing {
  /** Opaque: changes whenever anything in the subtree changes. */
  token: string;
  /** null: unchanged since the token that was given. */
  entries: RemoteEntry[] | null;
  /**
   * Folders (paths as in `entries`) whose contents the listing could not give: what is missing under
   * them is not taken as deleted in the cloud (their subtrees are frozen for the pass).
   */
  unreadable?: Array<{ path: string; reason: string }>;
}

export interface UploadTarget {
  parentId: string;
  name: string;
  /** The existing file this content becomes the next version of, and the fingerprint it must still have (null: any). */
  replace: { id: string; ifMatch: string | null } | null;
}

/** One small file of a batch upload: its bytes as read for it, and where it goes. */
export interface BatchFile {
  bytes: Uint8Array;
  target: UploadTarget;
}

/** What became of one file of a batch: stored, or refused on its own (the kinds of RemoteError). */
export type BatchFileOutcome = { id: string; fingerprint: string } | { error: RemoteError };

/** One upload's link to the engine: progress, and its resume state across crashes (journal). */
export interface UploadSession {
  /** Bytes the server holds so far. */
  bytesDone(bytes: number): void;
  /** What an earlier attempt at this same file (same size, time and id) left: its server session and digests. */
  resume: InflightUpload | null;
  /** Keeps the attempt's state so a restart continues it instead of starting over. */
  save(state: Pick<InflightUpload, 'uploadId' | 'chunkSize' | 'chunkDigests' | 'fingerprint' | 'streamingSession' | 'clientKey'>): Promise<void>;
}

/** What the server says an upload or a move ran into (the executor reacts per kind). */
export class RemoteError extends Error {
  constructor(
    message: string,
    readonly kind:
      /** No answer, 5xx, 429: try again later; the pass stops here. */
      | 'transient'
      /** The session is gone: nothing works until the user logs in again. */
      | 'unauthorized'
      /** The name is taken, or the file is not at the version the plan expected: re-plan. */
      | 'conflict'
      /** The entry (or its parent) is gone: re-plan. */
      | 'notFound'
      /** Refused for good (name, type, lock, quota...): into the fail list with the message. */
      | 'refused',
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'RemoteError';
  }
}

export interface RemoteApi {
  /** The account conflict copies are named after. */
  account(): Promise<string>;
  /** The id of the cloud folder at `path` inside 同步文件, created (with its parents) when missing. */
  ensureRoot(path: string, signal: AbortSignal): Promise<string>;
  /** The whole subtree of `rootId` as one consistent snapshot, or null entries when `token` is still current. */
  listTree(rootId: string, token: string | null, signal: AbortSignal): Promise<RemoteListing>;
  /** Creates a folder; a folder already there under that name is returned instead. */
  mkdir(parentId: string, name: string, signal: AbortSignal): Promise<RemoteEntry>;
  /** Uploads `source` (digests when already known); returns the file as stored. */
  upload(source: Blob, target: UploadTarget, digests: FileDigests | null, session: UploadSession, signal: AbortSignal): Promise<{ id: string; fingerprint: string }>;
  /**
   * Small files (each at most BATCH_FILE_MAX_BYTES, common/transfer/batch-upload.ts) in one request,
   * the web app's batch upload: each file checked, deduplicated and stored or refused on its own; one
   * outcome per file, in order. Throws only when the request as a whole fails.
   */
  uploadBatch(files: readonly BatchFile[], signal: AbortSignal): Promise<BatchFileOutcome[]>;
  /** The file's current bytes, and the fingerprint they must have. */
  download(id: string, signal: AbortSignal): Promise<AsyncIterable<Uint8Array>>;
  /** Moves an entry into another folder and/or renames it (name taken → 'conflict'). */
  move(id: string, parentId: string, name: string, signal: AbortSignal): Promise<void>;
  /**
   * To the recycle bin, each entry only if its subtree still has the digest given (common/sync/tree-digest.ts,
   * computed from the listing): returns the ids left alone because they changed since.
   */
  remove(items: ReadonlyArray<{ id: string; digest: string }>, signal: AbortSignal): Promise<{ changed: string[] }>;
  /** The tenant's verdict on files about to be uploaded. */
  check(items: ReadonlyArray<{ key: string; name: string; size: number }>, signal: AbortSignal): Promise<PolicyVerdict[]>;
  /** The chunk size fingerprints are computed with. */
  chunkSize(signal: AbortSignal): Promise<number>;
  /**
   * Brings entries this account sent to the recycle bin back to where they were (a name taken
   * meanwhile: the restored one is renamed). Returns the ids that could not come back (purged).
   */
  restore?(ids: readonly string[], signal: AbortSignal): Promise<{ missing: string[] }>;
}

/** A resumable upload in flight, kept across a crash (its server session and digests). */
export interface InflightUpload {
  key: string;
  size: number;
  mtimeMs: number;
  fileId: string;
  uploadId: string | null;
  chunkSize: number;
  chunkDigests: string[] | null;
  fingerprint: string | null;
  streamingSession: boolean;
  /**
   * The upload's client key (the server's "finished uploads"): a restart sends the same one, so a merge
   * that went through before the crash is answered with its file instead of a clash. Absent in rows
   * written before it existed.
   */
  clientKey?: string;
}

export interface Journal {
  all(): Promise<JournalEntry[]>;
  /** The rows by key (the same map until the next write: do not change it). */
  index(): Promise<ReadonlyMap<string, JournalEntry>>;
  upsert(entry: JournalEntry): Promise<void>;
  /** Many rows in one transaction (the journal-only records at the end of a plan). */
  upsertMany(entries: readonly JournalEntry[]): Promise<void>;
  forget(key: string): Promise<void>;
  /** Forgets `key` and every row under it. */
  forgetTree(key: string): Promise<void>;
  /** Moves the row at `fromKey` and its subtree to `toKey`, respelling paths under `toPath`. */
  rebase(fromKey: string, toKey: string, toPath: string): Promise<void>;
  getMeta(name: string): Promise<string | null>;
  setMeta(name: string, value: string | null): Promise<void>;
  getInflight(key: string): Promise<InflightUpload | null>;
  putInflight(upload: InflightUpload): Promise<void>;
  dropInflight(key: string): Promise<void>;
  close(): Promise<void>;
}
