import { SyncOutlined } from '@ant-design/icons';
import { Badge, Button, Drawer } from 'antd';
import { useState } from 'react';
import { lazyWhenOpen } from '../../components/lazy-when-open';
import { desktopSync, useDesktopSyncStatus } from './use-desktop-sync';

const SyncPanel = lazyWhenOpen(() => import('./SyncPanel').then((m) => m.SyncPanel), (p) => p.open === true);

/** The header's 本机同步 button (only in the desktop shell) and its drawer. */
export function DesktopSyncButton() {
  const [open, setOpen] = useState(false);
  const status = useDesktopSyncStatus();
  if (!desktopSync()) return null;
  const failed = status?.pairs.reduce((n, p) => n + p.lists.failList.length, 0) ?? 0;
  const active = status?.pairs.some((p) => p.phase === 'syncing') ?? false;
  return (
    <>
      <Badge count={failed} size="small" offset={[-4, 4]}>
        <Button type="text" icon={<SyncOutlined spin={active && !status?.paused} />} onClick={() => setOpen(true)} data-testid="desktop-sync-button">
          本机同步
        </Button>
      </Badge>
      <Drawer title="本机同步" open={open} onClose={() => setOpen(false)} size={560} destroyOnHidden={false} data-testid="desktop-sync-drawer">
        <SyncPanel open={open} status={status} />
      </Drawer>
    </>
  );
}
