/** Where opening a file message goes (FileMessageTarget → a path of the app). */
import type { FileMessageTarget } from '../../../common/api/notices';
import { DIR_QUERY_PARAM, folderUrl, SELECT_QUERY_PARAM, SPACE_QUERY_PARAM } from '../file-urls';
import { withTransfersOpen } from '../transfer-open';

export function targetUrl(target: FileMessageTarget | null): string | null {
  if (!target) return null;
  switch (target.kind) {
    case 'file':
      // The folder holding the entry, with the entry selected (a folder too: it is shown where it lies).
      return folderUrl({ dir: target.parentId, category: target.category, spaceId: target.spaceId, spaceKind: target.spaceKind, select: target.fileId });
    case 'shared': {
      // 共享文件 › 共享给我的, in the folder holding the entry (the top when it is the shared one), the entry selected.
      const params = new URLSearchParams();
      if (target.parentId) params.set(DIR_QUERY_PARAM, target.parentId);
      params.set(SELECT_QUERY_PARAM, target.fileId);
      return `/main/file/share?${params.toString()}`;
    }
    case 'group':
      return `/main/group?${SPACE_QUERY_PARAM}=${encodeURIComponent(target.spaceId)}`;
    case 'application':
      return `/main/safe/${target.page}?id=${encodeURIComponent(target.applicationId)}`;
    case 'link':
      return `/main/safe/myShare?link=${encodeURIComponent(target.linkId)}`;
    case 'page':
      return target.url.startsWith('/main/') ? target.url : null;
    case 'heldUpload':
      // The folder the upload was for, with the transfer list open (where a held upload is decided).
      return withTransfersOpen(folderUrl({ dir: target.dir, category: target.category, spaceId: target.spaceId, spaceKind: target.spaceKind }));
  }
}
