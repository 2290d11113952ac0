import { ERRORS } from '../../common/api/errors';
import { AppError } from '../http/app-error';
import type { DavNode, Resolved } from './context';
import { DavError } from './context';

/** Where a new entry goes, in the terms of the web app's calls: a parent folder id (or null) and a category. */
export interface DavPlace {
  parentId: string | null;
  category: number;
}

/**
 * The place for a new entry under `parent`: a personal category's root, a space's root folder, or a
 * folder. The root holds only the spaces (403); nothing is created at 共享文件's top (the entries
 * there are others'; inside a shared folder the share's rules decide, SHARE_EDIT_LIMITED).
 */
export function placeUnder(parent: DavNode): DavPlace {
  if (parent.kind === 'root') throw new DavError(403, '根目录只列出各个空间，不能在这里新建文件或文件夹');
  if (parent.kind === 'top') {
    if (parent.top.kind === 'category') return { parentId: null, category: parent.top.category };
    if (parent.top.kind === 'space') return { parentId: parent.top.space.root_id, category: 0 };
    throw new AppError(ERRORS.SHARE_EDIT_LIMITED);
  }
  if (parent.row.is_dir !== 1) throw new DavError(409, '上级路径是文件，不是文件夹');
  return { parentId: parent.row.id, category: parent.row.category };
}

/** The parent node of a missing target; 409 when the parent does not exist (RFC 4918 §9.7.1, §9.3.1). */
export function existingParent(target: Resolved): DavNode {
  if (!target.parent) throw new DavError(409, '上级文件夹不存在，请先创建它');
  return target.parent;
}

/** Finder's metadata files: AppleDouble `._name` (resource forks, extended attributes) and `.DS_Store`. */
export function isFinderMetadata(name: string): boolean {
  return name === '.DS_Store' || name.startsWith('._');
}
