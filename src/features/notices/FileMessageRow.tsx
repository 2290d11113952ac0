import {
  AuditOutlined,
  CloudDownloadOutlined,
  DeleteOutlined,
  DragOutlined,
  FileSyncOutlined,
  LockOutlined,
  PieChartOutlined,
  ShareAltOutlined,
  TeamOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { Checkbox } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { FILE_MESSAGE_TYPES, type FileMessage, type FileMessageType } from '../../../common/api/notices';
import { formatDateTime } from '../../../common/format/date';
import { describeFileMessage } from '../../../common/notices/describe';

const ICONS: Record<FileMessageType, ReactNode> = {
  'share.received': <ShareAltOutlined />,
  'share.changed': <ShareAltOutlined />,
  'share.expired': <ShareAltOutlined />,
  'share.revoked': <ShareAltOutlined />,
  'apply.approved': <AuditOutlined />,
  'apply.rejected': <AuditOutlined />,
  'apply.pending': <AuditOutlined />,
  'apply.forwarded': <AuditOutlined />,
  'apply.expired': <AuditOutlined />,
  'link.downloaded': <CloudDownloadOutlined />,
  'file.version': <FileSyncOutlined />,
  'file.locked': <LockOutlined />,
  'file.moved': <DragOutlined />,
  'file.deleted': <DeleteOutlined />,
  'upload.sensitive': <WarningOutlined />,
  'quota.high': <PieChartOutlined />,
  'group.added': <TeamOutlined />,
};

/** One file message: unread dot, kind, the sentence, when; a click opens it, the box selects it. */
export function FileMessageRow({ message, style, selected, onSelect, onOpen }: {
  message: FileMessage;
  style: CSSProperties;
  selected: boolean;
  onSelect: (checked: boolean) => void;
  onOpen: () => void;
}) {
  return (
    <div
      role="row"
      className={`nt-row${message.read ? '' : ' nt-unread'}`}
      style={style}
      data-testid="file-message"
      data-message-id={message.id}
      data-read={message.read ? '1' : '0'}
      onClick={onOpen}
    >
      <span role="cell" onClick={(e) => e.stopPropagation()}>
        <Checkbox aria-label="选择消息" checked={selected} onChange={(e) => onSelect(e.target.checked)} />
      </span>
      <span role="cell" className="nt-dot" aria-label={message.read ? '已读' : '未读'} />
      <span role="cell" className="nt-icon">
        {ICONS[message.type]}
      </span>
      <span role="cell" className="nt-text">
        <span className="nt-title" title={describeFileMessage(message)}>
          {describeFileMessage(message)}
        </span>
        <span className="nt-meta">
          {FILE_MESSAGE_TYPES[message.type]} · {formatDateTime(message.createdAt)}
          {message.file && !message.file.available ? ' · 文件已不可访问' : ''}
        </span>
      </span>
    </div>
  );
}
