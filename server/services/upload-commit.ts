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
import type { CommitFailure } from '../repositories/upload-commit-tx';
import type { UploadRepository } from '../repositories/upload-repository';
import type { ChunkedLayout } from '../storage/byte-store';
import type { Caller } from './caller';
import { nameKeyOf, toFileEntry, validName, type FileService } from './file-service';

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
    case 'fileGone':
      return new AppError(ERRORS.NOT_FOUND);
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

/** Where an upload's file goes: name, folder and category, and the file it replaces when addressed by id. */
export interface UploadPlace {
  name: string;
  parentId: string | null;
  category: number;
  /** 上传新版本 by id: the file whose next version the upload becomes (null: by name in parentId). */
  versionOf: string | null;
}

/**
 * The place of an upload request (chunk/exist, merge, second upload). With `versionOf` (上传新版本 by
 * id, common/api/schemas.ts VersionOf): the file's own name and place, after the one modify decision
 * (FileService.versionTarget), wherever it sits — a share's file at its owner's top level included,
 * which parentId null cannot name; onConflict must then be 'newVersion' or absent. Without: the
 * request's, its folder checked by requireParent (`byName`: a new version by name, which a share with
 * 编辑 lets into a folder of another's).
 */
export async function uploadPlace(
  files: FileService,
  caller: Caller,
  req: { name: string; parentId: string | null; category: number; onConflict?: string; versionOf?: string },
  byName: boolean,
): Promise<UploadPlace> {
  if (req.versionOf !== undefined) {
    if (req.onConflict !== undefined && req.onConflict !== 'newVersion') throw new AppError(ERRORS.VALIDATION, '按文件上传新版本时，冲突策略只能是新版本');
    const file = await files.versionTarget(caller, req.versionOf);
    return { name: file.name, parentId: file.parent_id, category: file.category, versionOf: file.id };
  }
  const name = validName(req.name);
  await files.requireParent(caller, req.parentId, req.category, byName ? name : undefined);
  return { name, parentId: req.parentId, category: req.category, versionOf: null };
}
