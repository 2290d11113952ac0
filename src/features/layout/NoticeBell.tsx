import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Tooltip } from 'antd';
import { useLocation } from 'wouter';
import { useUnreadCounts } from '../../lib/notices/notice-data';
import { useModuleSwitch } from '../../lib/data/static-data';
import { TOUCH_TARGET_PX } from '../../lib/use-phone';

/**
 * The header's unread badge (file + system messages), kept current across tabs and devices by the
 * notice stream; a click opens the messages that are waiting (files first). Gone while the tenant
 * turned the 消息 module off (module switch `notice`, GET /api/dict/group/get).
 */
export function NoticeBell() {
  const [, navigate] = useLocation();
  const counts = useUnreadCounts();
  const moduleOn = useModuleSwitch();
  if (!moduleOn('notice')) return null;
  const total = counts.file + counts.system;
  const label = total > 0 ? `消息：${counts.file} 条文件消息、${counts.system} 条系统消息未读` : '消息';
  return (
    <Tooltip title={label}>
      <Badge count={total} overflowCount={99} size="small" offset={[-6, 6]} data-testid="notice-badge" data-count={total}>
        <Button
          type="text"
          icon={<BellOutlined style={{ fontSize: 18 }} />}
          aria-label={label}
          style={{ width: TOUCH_TARGET_PX, height: TOUCH_TARGET_PX }}
          onClick={() => navigate(counts.file === 0 && counts.system > 0 ? '/main/notice/systemNotice' : '/main/notice/fileNotice')}
          data-testid="notice-bell"
        />
      </Badge>
    </Tooltip>
  );
}
