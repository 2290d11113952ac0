import { ClockCircleOutlined, DeleteOutlined, EyeOutlined, LockOutlined, StarFilled, SwapOutlined, WarningOutlined } from '@ant-design/icons';
import { NETWORK_SIDE_LABELS, SHARE_PERMISSION_LABELS, SWAP_STATE_LABELS } from '../../../../common/api/sharing';
import { Tag, Tooltip } from 'antd';
import type { FileEntry } from '../../../../common/api/types';
import { formatDateTime } from '../../../../common/format/date';

/** The spec §3 states of an entry as small tags with Chinese labels: deleted, expired, sensitive, locked. */
export function FileStateTags({ file }: { file: FileEntry }) {
  return (
    <span style={{ display: 'inline-flex', gap: 2, flex: 'none' }}>
      {file.favorite && (
        <Tooltip title="已收藏">
          <StarFilled style={{ color: '#fadb14' }} aria-label="已收藏" data-testid="state-favorite" />
        </Tooltip>
      )}
      {file.locked && (
        <Tooltip title={file.lockedBy?.nickName ? `已被 ${file.lockedBy.nickName} 锁定` : '已锁定'}>
          <Tag icon={<LockOutlined />} color="orange" data-testid="state-locked" style={{ marginInlineEnd: 0 }}>
            已锁定
          </Tag>
        </Tooltip>
      )}
      {file.sensitive && (
        <Tooltip title={file.sensitiveContent ? `文件内容含敏感词“${file.sensitiveContent.keyword}”${file.sensitiveContent.page ? `（第${file.sensitiveContent.page}页）` : ''}` : '文件名含敏感词'}>
          <Tag icon={<WarningOutlined />} color="red" data-testid="state-sensitive" style={{ marginInlineEnd: 0 }}>
            敏感
          </Tag>
        </Tooltip>
      )}
      {file.deleted && !file.expired && (
        <Tooltip title={file.expiresAt ? `将于 ${formatDateTime(file.expiresAt)} 自动清除` : undefined}>
          <Tag icon={<DeleteOutlined />} data-testid="state-deleted" style={{ marginInlineEnd: 0 }}>
            已删除
          </Tag>
        </Tooltip>
      )}
      {file.share && (
        <Tooltip title={`${file.share.sharedBy.nickName} 分享${file.share.expiresAt ? `，${formatDateTime(file.share.expiresAt)} 到期` : ''}`}>
          <Tag icon={file.share.permission === 'preview' ? <EyeOutlined /> : undefined} color={file.share.permission === 'edit' ? 'green' : file.share.permission === 'download' ? 'blue' : 'gold'} data-testid="state-share" style={{ marginInlineEnd: 0 }}>
            {file.share.permission === 'preview' ? '仅预览' : `可${SHARE_PERMISSION_LABELS[file.share.permission]}`}
          </Tag>
        </Tooltip>
      )}
      {file.exchange && (
        <Tooltip title={`从${NETWORK_SIDE_LABELS[file.exchange.side]}放入${file.exchange.reason ? `；${file.exchange.reason}` : ''}`}>
          <Tag icon={<SwapOutlined />} color={file.exchange.state === 'passed' ? 'green' : file.exchange.state === 'intercepted' ? 'red' : 'default'} data-testid="state-exchange" style={{ marginInlineEnd: 0 }}>
            {SWAP_STATE_LABELS[file.exchange.state]}
          </Tag>
        </Tooltip>
      )}
      {file.expired && (
        <Tag icon={<ClockCircleOutlined />} color="default" data-testid="state-expired" style={{ marginInlineEnd: 0 }}>
          已过期
        </Tag>
      )}
    </span>
  );
}
