/**
 * What a new file message makes stale (issue 44): the data-layer caches of the things it talks
 * about, so a page showing them follows at once — 我的申请 says 已通过 as the approval message comes,
 * the 审批 badge counts a new application, 共享文件 lists what was just shared, 群组空间 the group one
 * was added to. Only queries on screen are asked again; the rest when next shown.
 */
import type { FileMessageType } from '../../../common/api/notices';
import { SHARING_KEYS } from '../data/sharing';

/** Every file listing (and the group list) of the file pages lives under this key. */
const FILE_LISTINGS = ['files'] as const;

export function cachesAbout(type: FileMessageType): ReadonlyArray<readonly unknown[]> {
  switch (type) {
    case 'apply.pending':
    case 'apply.approved':
    case 'apply.rejected':
    case 'apply.forwarded':
    case 'apply.expired':
      // Applications, their count and, once one is approved, the share or link it made (passed on to
      // the next level or expired: 我的申请 says so at once, not 待审批).
      return [SHARING_KEYS.all];
    case 'share.received':
    case 'share.changed':
    case 'share.expired':
    case 'share.revoked':
      return [FILE_LISTINGS, SHARING_KEYS.sharers];
    case 'link.downloaded':
      return [SHARING_KEYS.all];
    case 'group.added':
      return [FILE_LISTINGS, SHARING_KEYS.groups];
    default:
      return [];
  }
}
