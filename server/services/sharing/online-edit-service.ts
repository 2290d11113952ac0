import { ONLINE_EDIT_EXTENSIONS, type CanOperationResponse } from '../../../common/api/sharing';
import { spaceMayModify } from '../../../common/files/space-roles';
import { extensionOf } from '../blocked-types';
import type { Caller } from '../caller';
import type { AccessService } from '../space-access';

/**
 * The online editor is a later integration (an OnlyOffice-like server) behind this interface: given
 * a file the caller may edit, the address of an editing session. None is configured yet.
 */
export interface OnlineEditor {
  /** The editor's address for this file and user, or null when it cannot open it. */
  open(file: { id: string; name: string }, caller: Caller): Promise<string | null>;
}

/**
 * `GET /api/v2/onlyoffice/canoperationforshare?id=`: may this user open this file for online editing
 * — permission 编辑 through a share (or their own file, or a space entry they may modify) and a type
 * an editor opens (ONLINE_EDIT_EXTENSIONS). A file they cannot see answers 404 like an unknown id.
 */
export class OnlineEditService {
  constructor(
    private readonly access: AccessService,
    private readonly editor: OnlineEditor | null = null,
  ) {}

  async canOperate(caller: Caller, id: string): Promise<CanOperationResponse> {
    const e = await this.access.entry(caller, id);
    const editorAvailable = this.editor !== null;
    if (e.row.is_dir === 1) return { canEdit: false, reason: '文件夹不能在线编辑', editorAvailable };
    if (!ONLINE_EDIT_EXTENSIONS.includes(extensionOf(e.row.name))) return { canEdit: false, reason: '该文件类型不支持在线编辑', editorAvailable };
    const mayEdit = e.share
      ? e.share.permission === 'edit'
      : e.access
        ? spaceMayModify(e.access.role, caller.userId, e.row.owner_id, caller.role === 'admin')
        : e.row.owner_id === caller.userId;
    if (!mayEdit) return { canEdit: false, reason: '没有编辑权限', editorAvailable };
    if (e.row.locked_by && e.row.locked_by !== caller.userId) return { canEdit: false, reason: '文件已被他人锁定', editorAvailable };
    return { canEdit: true, reason: null, editorAvailable };
  }
}
