/**
 * Folder uploads: the distinct folders of the picked tree are created on the server once
 * (relativePath/dir/create, idempotent), in batches, before the files are queued into them.
 */
import { PRE_UPLOAD, type RelativePathDirCreateRequest } from '../../common/api/endpoints/pre-upload';
import type { UploadTarget } from '../../common/transfer/engine-api';
import type { ApiClient } from './api-client';

/** Paths per relativePath/dir/create call, so one request stays small whatever the tree. */
export const DIR_CREATE_BATCH = 1_000;

/** 'a/b/c.txt' → 'a/b'; '' for a file at the top of the picked folder. */
export function folderOf(relativePath: string): string {
  const parts = normalizePath(relativePath).split('/');
  return parts.slice(0, -1).join('/');
}

export function normalizePath(relativePath: string): string {
  return relativePath.split('/').filter((p) => p !== '' && p !== '.').join('/');
}

/** Every folder the files need, ancestors included, parents before children. */
export function folderPaths(relativePaths: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const path of relativePaths) {
    const parts = folderOf(path).split('/').filter(Boolean);
    for (let i = 1; i <= parts.length; i++) folders.add(parts.slice(0, i).join('/'));
  }
  return [...folders].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}

/** Creates the folders; returns folder path → folder id ('' → the target folder). */
export async function createFolders(api: ApiClient, paths: readonly string[], target: UploadTarget, signal: AbortSignal): Promise<Map<string, string | null>> {
  const ids = new Map<string, string | null>([['', target.parentId]]);
  for (let i = 0; i < paths.length; i += DIR_CREATE_BATCH) {
    const request: RelativePathDirCreateRequest = { parentId: target.parentId, category: target.category, relativePaths: paths.slice(i, i + DIR_CREATE_BATCH) };
    const response = await api.send(PRE_UPLOAD.relativePathDirCreate, request, signal);
    for (const [path, id] of Object.entries(response.dirs)) ids.set(normalizePath(path), id);
  }
  return ids;
}
