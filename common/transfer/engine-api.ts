/**
 * The transfer engine's interface as the UI sees it over Comlink. The UI only reads snapshots and
 * sends commands; every byte is moved by the engine worker.
 */
import type { ClientPlatform, NetworkEnv } from '../api/client-env';
import type { FileCategory } from '../api/types';
import type { TransferState } from './states';

export interface UploadTarget {
  parentId: string | null;
  category: FileCategory;
}

export interface TransferItemView {
  id: string;
  direction: 'upload' | 'download';
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
export interface EngineApi<TFile = unknown> {
  /** Queues files for upload into the target folder; returns the new item ids. */
  enqueueUploads(files: TFile[], target: UploadTarget): Promise<string[]>;
  pause(id: string): Promise<void>;
  resume(id: string): Promise<void>;
  cancel(id: string): Promise<void>;
  retry(id: string): Promise<void>;
  /** Removes finished (done / cancelled) items from the list. */
  clearFinished(): Promise<void>;
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
