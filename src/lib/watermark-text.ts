import type { UserDetails } from '../../common/api/types';
import { formatDateTime } from '../../common/format/date';

/**
 * The line a preview-only view carries (shares with 预览 permission, an approver's view): who looks —
 * name and account — and when. Preview-only links carry the server's line (link-visit-service.ts),
 * pictures theirs burnt in by the server.
 */
export function viewerWatermark(user: Pick<UserDetails, 'nickName' | 'website'> | null, now: number): string {
  const who = [user?.nickName, user?.website].filter((s, i, all) => s && all.indexOf(s) === i).join(' ');
  return `${who} ${formatDateTime(now)}`.trim();
}
