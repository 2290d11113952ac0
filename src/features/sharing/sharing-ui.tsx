import { Button } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { shareLinkPath, SHARE_STATE_LABELS, type ApplicationState, type LinkInfo } from '../../../common/api/sharing';

export const LINK_STATE_LABELS: Record<LinkInfo['state'], string> = { ...SHARE_STATE_LABELS, exhausted: '次数已用完' };

export function stateColor(state: string): string {
  switch (state) {
    case 'active':
    case 'approved':
      return 'green';
    case 'pending':
      return 'blue';
    case 'rejected':
      return 'red';
    case 'exhausted':
      return 'orange';
    default:
      return 'default';
  }
}

export const applicationColor = (state: ApplicationState): string => stateColor(state);

/** Copies a link's address and code (the text a sharer passes on). */
export function copyLink(link: Pick<LinkInfo, 'token' | 'code'>, message: MessageInstance): void {
  const url = `${window.location.origin}${shareLinkPath(link.token)}`;
  const text = link.code ? `链接：${url} 提取码：${link.code}` : `链接：${url}`;
  void navigator.clipboard?.writeText(text).then(
    () => message.success('已复制链接和提取码'),
    () => message.info(text, 8),
  );
}

/** The next keyset page of a list, on demand. */
export function MoreRows({ list }: { list: { hasMore: boolean; fetchingMore: boolean; loadMore: () => void } }) {
  if (!list.hasMore) return null;
  return (
    <div style={{ textAlign: 'center' }}>
      <Button loading={list.fetchingMore} onClick={list.loadMore}>
        加载更多
      </Button>
    </div>
  );
}
