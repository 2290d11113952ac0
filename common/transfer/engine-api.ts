/**
 * The transfer engine's interface as the UI sees it over Comlink. The UI only reads snapshots and
 * sends commands; every byte is moved by the engine worker.
 */
import type { ClientPlatform, NetworkEnv } from '../api/client-env';
import type { FileCategory } from '../api/types';
import type { HoldReason, MultipleFileCheckResult } from './checks';
import type { TransferState } from './states';

export interface UploadTarget {
  parentId: string | null;
  category: FileCategory;
}

export interface TransferItemView {
  id: string;
  /** Always 'upload': files are downloaded by the browser itself, not by the engine. */
  direction: 'upload';
  name: string;
  size: number;
  bytesDone: number;
  state: TransferState;
  /** Smoothed bytes per second while active, else 0. */
  speed: number;
  /** Seconds left, or null when unknown. */
  etaSeconds: number | null;
  /** Chinese, user-facing. */
  lastError: string | null;
  target: UploadTarget;
  /** Id of the created file once done. */
  fileId: string | null;
  createdAt: number;
  /** Bytes digested so far while the state is 'hashing' (progress of the hashing phase), else absent. */
  hashedBytes?: number;
  /** For folder uploads: the path inside the picked folder, '/'-separated, e.g. 'photos/2024/a.jpg'. */
  relativePath?: string;
  /**
   * Why the item waits for the user (state 'held'), or why it failed for good (state 'failed'):
   * 'blockedType' for a file whose type the tenant blocks (the intercepted list: it is never
   * uploaded), 'badName' for a name the server refuses (the name rule of common/validation/names.ts:
   * 重试 cannot help, `rename` can).
   */
  holdReason?: HoldReason | FailReason | null;
  /** 'instant' when the server already had the content (second upload: zero chunk bytes sent). */
  via?: 'chunks' | 'instant';
}

/** Why an item failed for good, not waiting for a decision (see TransferItemView.holdReason). */
export type FailReason = 'blockedType' | 'badName' | 'versionGone';

/** A file from a picked or dropped folder, with its path inside that folder. */
export interface FolderEntry<TFile> {
  file: TFile;
  /** '/'-separated, includes the file name: 'photos/2024/a.jpg'. */
  relativePath: string;
}

/** What the user decided for a held item. */
export type HeldDecision = 'newVersion' | 'rename' | 'giveUp';

/**
 * 上传新版本 of an existing file: the picked content is uploaded under the file's own name into its
 * folder with the 'newVersion' conflict policy, so it becomes that file's next version (the old content
 * stays in its history). A lock held by someone else still holds the item (the server refuses it).
 */
export interface NewVersionTarget {
  fileId: string;
  name: string;
  parentId: string | null;
  category: FileCategory;
}

export interface TransferSnapshot {
  items: TransferItemView[];
  totalBytes: number;
  doneBytes: number;
  speed: number;
}

/**
 * `TFile` is the environment's file type: `File` in the browser, a path-backed source under Node.
 * (common/ has no environment, so it cannot name `File` itself.)
 */
/**
 * How new items meet a file of the same name, decided by the user before they are queued (the files
 * page asks in a dialog): as its new version, or under a free name. Without it a clash is held in
 * the transfer list for a decision there.
 */
export interface EnqueueOptions {
  onConflict?: 'newVersion' | 'rename';
  /**
   * Why the files go up, sent with every request that opens, feeds or merges their uploads
   * (common/api/endpoints/uploads.ts UploadPurpose): 'clientInstaller' for 系统配置 → 客户端版本, which the
   * server lets past the tenant's blocked types only for an admin who may set client releases.
   */
  purpose?: 'clientInstaller';
  /**
   * multipleFile/check's answer for each file, in the files' order, asked by the page just before it
   * queues them (it asks first, to put a clash to the user): the engine takes these instead of asking
   * the same question again (issue 43: one check per pick). A file without one is asked as usual.
   */
  checked?: ReadonlyArray<MultipleFileCheckResult | undefined>;
}

export interface EngineApi<TFile = unknown> {
  /** Queues files for upload into the target folder; returns the new item ids. */
  enqueueUploads(files: TFile[], target: UploadTarget, options?: EnqueueOptions): Promise<string[]>;
  /** Queues a picked or dropped folder: creates its folders (relativePath/dir/create), keeps the tree. */
  enqueueFolder(entries: FolderEntry<TFile>[], target: UploadTarget, options?: EnqueueOptions): Promise<string[]>;
  /** Queues new content for an existing file as its next version; returns the item id. */
  enqueueNewVersion(file: TFile, target: NewVersionTarget): Promise<string>;
  pause(id: string): Promise<void>;
  resume(id: string): Promise<void>;
  cancel(id: string): Promise<void>;
  retry(id: string): Promise<void>;
  pauseAll(): Promise<void>;
  resumeAll(): Promise<void>;
  cancelAll(): Promise<void>;
  retryAll(): Promise<void>;
  /**
   * Sends again what waits only for access (held with holdReason 'unauthorized': the session had
   * expired, or its 手势密码 lock was up). Called when access is back (an unlock, a new sign-in); an
   * item the server still refuses is held again, nothing is marked failed.
   */
  resumeAccessHolds(): Promise<void>;
  /**
   * Gives a failed item whose name the server refused (holdReason 'badName') another name and queues
   * it again: what was sent already is kept (the upload session is not tied to the name). Rejects
   * with the Chinese reason when `name` breaks the rule too.
   */
  rename(id: string, name: string): Promise<void>;
  /** Takes an item off the list whatever its state (stopping it first). */
  remove(id: string): Promise<void>;
  /** Applies the user's decision to a held item (name conflict, sensitive content). */
  decide(id: string, decision: HeldDecision): Promise<void>;
  /**
   * Gives a held item whose file the browser no longer holds its file again. Resolves false (and
   * changes nothing) when the picked file's fingerprint differs from the one recorded.
   */
  reattach(id: string, file: TFile): Promise<boolean>;
  /** The queue as JSON, for testers to replay (`npm run replay`). */
  exportQueue(): Promise<QueueExport>;
  /** Removes finished (done / cancelled) items from the list; failed ones stay (to retry or rename). */
  clearFinished(): Promise<void>;
  /** Removes every failed item (as `remove` each: a refusal the server holds is answered 放弃). */
  clearFailed(): Promise<void>;
  getSnapshot(): Promise<TransferSnapshot>;
  /** `listener` must be wrapped with Comlink.proxy by the caller. Returns a subscription id. */
  subscribe(listener: (snapshot: TransferSnapshot) => void): Promise<number>;
  unsubscribe(subscriptionId: number): Promise<void>;
  /**
   * Optional to call, but call it first: sets where and as whom the engine talks to the server.
   * Without it the engine uses {@link DEFAULT_ENGINE_CONFIG}. The engine starts working (loads the
   * persisted queue, resumes interrupted items) on the first call of any method, so calling
   * `configure` first makes even resumed requests carry the right headers.
   */
  configure(config: EngineConfig): Promise<void>;
}

/** How the engine reaches the server. */
export interface EngineConfig {
  /** Prefix of every API path; '' = same origin. */
  apiBase: string;
  platform: ClientPlatform;
  networkEnv: NetworkEnv;
}

export const DEFAULT_ENGINE_CONFIG: EngineConfig = { apiBase: '', platform: 'web', networkEnv: 'internal' };

/** The queue as exported for replay (version 1). Bytes are not included: the replayer finds files by path. */
export interface QueueExport {
  format: 'cloud-drive-queue';
  version: 1;
  exportedAt: number;
  items: Array<{
    id: string;
    /** Exports written before downloads left the engine may hold 'download' items (the replay skips them). */
    direction: 'upload' | 'download';
    name: string;
    size: number;
    /** Path inside a picked folder, or absent. */
    relativePath?: string;
    /** The created file, once done. */
    fileId?: string | null;
    target: UploadTarget;
    state: TransferState;
    lastModified?: number;
    fingerprint?: string | null;
    chunkSize?: number;
    chunksDone?: number[];
    attempts?: number;
    lastError?: string | null;
  }>;
}
