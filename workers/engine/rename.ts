/**
 * A failed item given another name by the user (its name was refused: holdReason 'badName'). Only the
 * name changes: the upload session, the chunks sent and the digests belong to the bytes, not to the
 * name (common/transfer/protocol.ts), so the next attempt merges what the server holds under the new
 * name. In a folder upload the file's own name (the last part of its path) is what changes.
 */
import { checkFileName, normalizeFileName } from '../../common/validation/names';
import type { UploadPatch, UploadRecord } from '../queue/types';

/** The patch that renames `record` and lets it run again; throws the Chinese reason for a bad name. */
export function renamedPatch(record: Pick<UploadRecord, 'relativePath'>, raw: string): UploadPatch {
  const problem = checkFileName(raw);
  if (problem) throw new Error(problem.message);
  const name = normalizeFileName(raw);
  const relativePath = record.relativePath === null ? null : [...record.relativePath.split('/').slice(0, -1), name].join('/');
  return { name, relativePath, attempts: 0, lastError: null, holdReason: null };
}
