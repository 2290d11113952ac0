/**
 * How a page asks for transfers without knowing the transfer engine: the transfer feature provides the
 * handler (it owns the engine worker), pages call `enqueueUploads` / `enqueueFolder` / `enqueueNewVersion`.
 */
import type { EnqueueOptions, FolderEntry, NewVersionTarget, TransferItemView, UploadTarget } from '../../common/transfer/engine-api';

export type EnqueueUploads = (files: File[], target: UploadTarget, options?: EnqueueOptions) => Promise<string[]>;

export interface TransferHandler {
  enqueueUploads: EnqueueUploads;
  /** A picked or dropped folder: its files with their paths inside it (folders are created too). */
  enqueueFolder(entries: FolderEntry<File>[], target: UploadTarget, options?: EnqueueOptions): Promise<string[]>;
  /** New content for an existing file, uploaded as its next version (the engine's newVersion policy). */
  enqueueNewVersion(file: File, target: NewVersionTarget): Promise<string>;
}

let handler: TransferHandler | null = null;

const NOT_READY = '传输服务尚未就绪，请稍后重试';

/** Returns a function that withdraws the handler. */
export function provideTransferHandler(next: TransferHandler): () => void {
  handler = next;
  return () => {
    if (handler === next) handler = null;
  };
}

export function enqueueUploads(files: File[], target: UploadTarget, options?: EnqueueOptions): Promise<string[]> {
  if (!handler) return Promise.reject(new Error(NOT_READY));
  return handler.enqueueUploads(files, target, options);
}

export function enqueueFolder(entries: FolderEntry<File>[], target: UploadTarget, options?: EnqueueOptions): Promise<string[]> {
  if (!handler) return Promise.reject(new Error(NOT_READY));
  return handler.enqueueFolder(entries, target, options);
}

export function enqueueNewVersion(file: File, target: NewVersionTarget): Promise<string> {
  if (!handler) return Promise.reject(new Error(NOT_READY));
  return handler.enqueueNewVersion(file, target);
}

/**
 * When an upload a page asked for has finished (a page that needs the created file's id, e.g. 系统配置's
 * installer): the transfer feature reports each engine snapshot here, and `watchUpload` follows one
 * item through them — no polling, no import of the transfer feature.
 */
type UploadWatch = { onChange?: (item: TransferItemView) => void; resolve: (fileId: string) => void; reject: (error: Error) => void; seen: boolean };

const watches = new Map<string, Set<UploadWatch>>();
/** The last snapshot's items, and the same by id, made only when a watch asks (most snapshots have none). */
let lastList: readonly TransferItemView[] = [];
let lastById: Map<string, TransferItemView> | null = null;

function lastItem(id: string): TransferItemView | undefined {
  lastById ??= new Map(lastList.map((i) => [i.id, i]));
  return lastById.get(id);
}

export const UPLOAD_CANCELLED = '上传已取消';
export const UPLOAD_REMOVED = '上传已从传输列表中移除';

/** Called by the transfer feature with every snapshot's items. */
export function reportTransferItems(items: readonly TransferItemView[]): void {
  lastList = items;
  lastById = null;
  for (const [id, set] of watches) for (const watch of set) settle(id, watch);
}

function settle(id: string, watch: UploadWatch): void {
  const item = lastItem(id);
  if (!item) {
    // Not in a snapshot yet (just queued) is normal; gone after being seen means it was removed.
    if (watch.seen) finish(id, watch, () => watch.reject(new Error(UPLOAD_REMOVED)));
    return;
  }
  watch.seen = true;
  watch.onChange?.(item);
  if (item.state === 'done' && item.fileId) finish(id, watch, () => watch.resolve(item.fileId!));
  else if (item.state === 'cancelled') finish(id, watch, () => watch.reject(new Error(UPLOAD_CANCELLED)));
  // 'failed' and 'held' wait: the person may retry or decide in the transfer list.
}

function finish(id: string, watch: UploadWatch, run: () => void): void {
  const set = watches.get(id);
  set?.delete(watch);
  if (set?.size === 0) watches.delete(id);
  run();
}

/**
 * Resolves with the created file's id once item `id` is done; rejects when it is cancelled or taken
 * off the list, or when `signal` aborts. `onChange` gets the item at every snapshot (progress, a
 * failure the person may still retry, a hold waiting for their decision).
 */
export function watchUpload(id: string, options: { signal?: AbortSignal; onChange?: (item: TransferItemView) => void } = {}): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) return reject(signal.reason as Error);
    const watch: UploadWatch = { onChange: options.onChange, resolve, reject, seen: false };
    const set = watches.get(id) ?? new Set();
    watches.set(id, set.add(watch));
    signal?.addEventListener('abort', () => finish(id, watch, () => reject(signal.reason as Error)), { once: true });
    settle(id, watch);
  });
}
