/**
 * How a page asks for uploads without knowing the transfer engine: the transfer feature provides the
 * handler (it owns the engine worker), pages call `enqueueUploads`.
 */
import type { UploadTarget } from '../../common/transfer/engine-api';

export type EnqueueUploads = (files: File[], target: UploadTarget) => Promise<string[]>;

let handler: EnqueueUploads | null = null;

/** Returns a function that withdraws the handler. */
export function provideUploadHandler(next: EnqueueUploads): () => void {
  handler = next;
  return () => {
    if (handler === next) handler = null;
  };
}

export function enqueueUploads(files: File[], target: UploadTarget): Promise<string[]> {
  if (!handler) return Promise.reject(new Error('传输服务尚未就绪，请稍后重试'));
  return handler(files, target);
}
