/**
 * What every path that creates a file from uploaded bytes shares (chunked merge, second upload, the
 * small-file batch): the file row it drafts, how a refused commit answers, how a stored blob is laid
 * out, and the answer to a client that repeats an upload that already finished.
 */
import { ERRORS } from '../../common/api/errors';
import { nameSortKey } from '../../common/files/name-sort-key';
import type { FileEntry } from '../../common/api/types';
import type { BlobsTable, FilesTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import type { CommitFailure, UploadRepository } from '../repositories/upload-repository';
import type { ChunkedLayout } from '../storage/byte-store';
import type { Caller } from './caller';
import { nameKeyOf, toFileEntry } from './file-service';

/** The row of a new file owned by the caller; `blob_id` is filled in by the commit. */
export function draftFile(caller: Caller, name: string, parentId: string | null, category: number, size: number, now: number): FilesTable {
  return {
    id: newId(),
    tenant_id: caller.tenantId,
    owner_id: caller.userId,
    parent_id: parentId,
    category,
    name,
    name_key: nameKeyOf(name),
    sort_key: nameSortKey(name),
    is_dir: 0,
    size,
    blob_id: null,
    created_at: now,
    updated_at: now,
  };
}

/** The coded error of a commit that did not happen. */
export function commitError(reason: CommitFailure): AppError {
  switch (reason) {
    case 'quota':
      return new AppError(ERRORS.QUOTA_EXCEEDED);
    case 'nameConflict':
      return new AppError(ERRORS.NAME_CONFLICT);
    case 'locked':
      return new AppError(ERRORS.FILE_LOCKED);
    case 'forbidden':
      return new AppError(ERRORS.FORBIDDEN);
    case 'changed':
      return new AppError(ERRORS.SYNC_CHANGED);
    default:
      return new AppError(ERRORS.UPLOAD_NOT_FOUND);
  }
}

export function layoutOf(blob: Pick<BlobsTable, 'chunk_size' | 'chunk_count' | 'size'>): ChunkedLayout | null {
  return blob.chunk_size ? { chunkSize: blob.chunk_size, chunkCount: blob.chunk_count ?? 0, size: Number(blob.size) } : null;
}

/**
 * The file an earlier request with the caller's `clientKey` created (protocol.ts, "Finished
 * uploads"), or undefined: no key, never finished, forgotten, or the file purged since.
 */
export async function finishedEntry(uploads: UploadRepository, caller: Caller, clientKey: string | undefined): Promise<FileEntry | undefined> {
  if (clientKey === undefined) return undefined;
  const file = await uploads.findFinished(caller.userId, caller.tenantId, clientKey);
  return file ? toFileEntry(file) : undefined;
}
