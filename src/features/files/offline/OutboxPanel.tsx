import { CloudSyncOutlined } from '@ant-design/icons';
import { Badge, Button } from 'antd';
import { useState } from 'react';
import { lazyWhenOpen } from '../../../components/lazy-when-open';
import { useOutboxRows } from '../../../lib/outbox/outbox';

// The list (antd's List, which brings Pagination and Select) loads when the drawer first opens.
const OutboxDrawer = lazyWhenOpen(() => import('./OutboxDrawer').then((m) => m.OutboxDrawer), (p) => p.open);

/**
 * 待同步: the changes made offline, in the order they will be sent. Shown whenever there are any;
 * a row the server refused waits here (and holds the ones behind it) until the user resolves it —
 * another name, a decision for the clash, send again, or give it up.
 */
export function OutboxPanel() {
  const rows = useOutboxRows();
  const [open, setOpen] = useState(false);
  if (rows.length === 0) return null;
  const blocked = rows.some((r) => r.state !== 'pending');
  return (
    <>
      <Badge count={rows.length} size="small" color={blocked ? '#faad14' : '#0958d9'}>
        <Button icon={<CloudSyncOutlined />} onClick={() => setOpen(true)} data-testid="outbox-button">
          待同步
        </Button>
      </Badge>
      <OutboxDrawer open={open} rows={rows} onClose={() => setOpen(false)} />
    </>
  );
}

