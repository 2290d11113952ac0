import { Menu } from 'antd';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import type { MenuItem } from '../../../common/api/types';
import { useUnreadCounts } from '../../lib/notices/notice-data';
import { APPROVAL_GROUP, APPROVAL_ITEM, useApprovalBadge } from './approval-badge';
import { selectedKeysFor, toAntdItems } from './menu-model';

/**
 * The menu is the shell's largest part (~200 antd components). It renders again only when its items,
 * selection or open groups change, and the unread counts (which come after the page has shown) are
 * applied in a deferred render, which React does in slices (Lighthouse: total blocking time).
 */
export function SideMenu({ items }: { items: MenuItem[] }) {
  const [location, navigate] = useLocation();
  const counts = useDeferredValue(useUnreadCounts());
  // 审批 and its group show how many applications wait for the caller (asked only by who has 审批).
  const approvals = useDeferredValue(useApprovalBadge(items));
  const antdItems = useMemo(
    () =>
      toAntdItems(items, {
        notice: counts.file + counts.system,
        'notice-file': counts.file,
        'notice-system': counts.system,
        [APPROVAL_GROUP]: approvals,
        [APPROVAL_ITEM]: approvals,
      }),
    [items, counts.file, counts.system, approvals],
  );
  const { selected, open } = useMemo(() => selectedKeysFor(items, location), [items, location]);
  const [openKeys, setOpenKeys] = useState<string[]>(open);

  useEffect(() => {
    // The same array when nothing opens, so the menu does not render again for nothing.
    setOpenKeys((keys) => (open.every((k) => keys.includes(k)) ? keys : [...new Set([...keys, ...open])]));
  }, [open]);

  return useMemo(
    () => (
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
        // The menu is inline and never collapsed, so antd's per-item tooltip (shown only when collapsed)
        // never opens; without it each item is not wrapped in a Tooltip (a Trigger with its motion and
        // layout effects): the menu's mount was the longest task after the shell's first commit.
        tooltip={false}
        data-testid="side-menu"
      />
    ),
    [antdItems, selected, openKeys, navigate],
  );
}
