import { Menu } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import type { MenuItem } from '../../../common/api/types';
import { useUnreadCounts } from '../../lib/notices/notice-data';
import { selectedKeysFor, toAntdItems } from './menu-model';

export function SideMenu({ items }: { items: MenuItem[] }) {
  const [location, navigate] = useLocation();
  const counts = useUnreadCounts();
  const antdItems = useMemo(
    () => toAntdItems(items, { notice: counts.file + counts.system, 'notice-file': counts.file, 'notice-system': counts.system }),
    [items, counts.file, counts.system],
  );
  const { selected, open } = useMemo(() => selectedKeysFor(items, location), [items, location]);
  const [openKeys, setOpenKeys] = useState<string[]>(open);

  useEffect(() => {
    setOpenKeys((keys) => [...new Set([...keys, ...open])]);
  }, [open]);

  return (
    <Menu
      mode="inline"
      items={antdItems}
      selectedKeys={selected}
      openKeys={openKeys}
      onOpenChange={setOpenKeys}
      onClick={({ key }) => {
        if (key.startsWith('/')) navigate(key);
      }}
      style={{ borderInlineEnd: 'none' }}
      data-testid="side-menu"
    />
  );
}
