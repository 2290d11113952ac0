/** Where opening a file message goes (FileMessageTarget → a path of the app). */
import type { FileMessageTarget } from '../../../common/api/notices';
import { folderUrl } from '../file-urls';

export function targetUrl(target: FileMessageTarget | null): string | null {
  if (!target) return null;
  switch (target.kind) {
    case 'file':
      // The folder holding the entry, with the entry selected (a folder too: it is shown where it lies).
      return folderUrl({ dir: target.parentId, category: target.category, spaceId: target.spaceId, spaceKind: target.spaceKind, select: target.fileId });
    case 'application':
      return `/main/safe/${target.page}?id=${encodeURIComponent(target.applicationId)}`;
    case 'link':
      return `/main/safe/myShare?link=${encodeURIComponent(target.linkId)}`;
    case 'page':
      return target.url.startsWith('/main/') ? target.url : null;
  }
}
