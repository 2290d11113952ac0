import { DesktopOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { lazyWhenOpen } from './lazy-when-open';

/** The help dialog, loaded the first time it opens. */
export const DesktopClientHelp = lazyWhenOpen(() => import('./DesktopClientHelpDialog').then((m) => m.DesktopClientHelpDialog), (p) => p.open);

/** 获取桌面客户端 as a link-style button that opens the help (where the client comes from: lib/desktop-client.ts). */
export function DesktopClientLink() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="link" icon={<DesktopOutlined />} onClick={() => setOpen(true)} data-testid="desktop-client-link">
        获取桌面客户端
      </Button>
      <DesktopClientHelp open={open} onClose={() => setOpen(false)} />
    </>
  );
}
