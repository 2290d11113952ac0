/**
 * How a page asks for transfers without knowing the transfer engine: the transfer feature provides the
 * handler (it owns the engine worker), pages call `enqueueUploads` / `enqueueFolder` / `enqueueNewVersion`.
 */
import type { EnqueueOptions, FolderEntry, NewVersionTarget, UploadTarget } from '../../common/transfer/engine-api';

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
