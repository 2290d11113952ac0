/**
 * The one place a queue item's initial fields are written: waiting, nothing hashed, sent or
 * decided yet. The engine fills the id and its concurrency; tests build their fixtures from it, so a
 * field added to the record is added here once.
 */
import type { UploadTarget } from '../../common/transfer/engine-api';
import type { UploadRecord } from './types';

export interface NewUploadRecord {
  id: string;
  file: Blob;
  target: UploadTarget;
  createdAt: number;
  /** Path inside a picked folder, or null. */
  relativePath: string | null;
  chunkConcurrency: number;
}

export function newUploadRecord({ id, file, target, createdAt, relativePath, chunkConcurrency }: NewUploadRecord): UploadRecord {
  const fromPath = relativePath ? relativePath.split('/').pop() : undefined;
  return {
    id,
    direction: 'upload',
    name: file instanceof File && file.name ? file.name : (fromPath ?? 'untitled'),
    size: file.size,
    lastModified: file instanceof File ? file.lastModified : createdAt,
    type: file.type,
    file,
    target: { ...target },
    state: 'waiting',
    bytesDone: 0,
    chunkSize: 0,
    chunkDigests: null,
    fingerprint: null,
    uploadId: null,
    chunksDone: [],
    attempts: 0,
    lastError: null,
    fileId: null,
    createdAt,
    updatedAt: createdAt,
    relativePath,
    holdReason: null,
    via: null,
    chunkConcurrency,
    onConflict: 'fail',
    etag: null,
  };
}
