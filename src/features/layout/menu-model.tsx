import {
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  BellOutlined,
  CloudSyncOutlined,
  ContactsOutlined,
  DeleteOutlined,
  FileOutlined,
  FolderOutlined,
  GlobalOutlined,
  IdcardOutlined,
  SearchOutlined,
  SettingOutlined,
  ShareAltOutlined,
  StarOutlined,
  SwapOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Badge, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import type { MenuItem } from '../../../common/api/types';

const ICONS: Record<string, ReactNode> = {
  folder: <FolderOutlined />,
  file: <FileOutlined />,
  sync: <CloudSyncOutlined />,
  backups: <CloudSyncOutlined />,
  star: <StarOutlined />,
  favorite: <StarOutlined />,
  delete: <DeleteOutlined />,
  recycle: <DeleteOutlined />,
  share: <ShareAltOutlined />,
  global: <GlobalOutlined />,
  publicSpace: <GlobalOutlined />,
  team: <TeamOutlined />,
  group: <TeamOutlined />,
  safe: <AuditOutlined />,
  audit: <AuditOutlined />,
  barChart: <BarChartOutlined />,
  setting: <SettingOutlined />,
  system: <SettingOutlined />,
  notice: <BellOutlined />,
  bell: <BellOutlined />,
  user: <UserOutlined />,
  idcard: <IdcardOutlined />,
  search: <SearchOutlined />,
  swap: <SwapOutlined />,
  contacts: <ContactsOutlined />,
  addressList: <ContactsOutlined />,
  appstore: <AppstoreOutlined />,
};

type AntdItems = NonNullable<MenuProps['items']>;

/** Unread counts shown beside menu items, by item code (消息 and its pages). */
export type MenuBadges = Readonly<Record<string, number>>;

function labelOf(item: MenuItem, badges: MenuBadges): ReactNode {
  const count = badges[item.code] ?? 0;
  if (count <= 0) return item.name;
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
      {item.name}
      <Badge count={count} size="small" overflowCount={99} data-testid={`menu-badge-${item.code}`} data-count={count} />
    </span>
  );
}

/** Leaves use their url as key (so a click navigates there); groups use their code. */
export function toAntdItems(items: readonly MenuItem[], badges: MenuBadges = {}): AntdItems {
  return items.filter((item) => !item.hidden).map((item) =>
    item.children && item.children.length > 0
      ? { key: `group:${item.code}`, label: labelOf(item, badges), icon: item.icon ? ICONS[item.icon] : undefined, children: toAntdItems(item.children, badges) }
      : { key: item.url, label: labelOf(item, badges), icon: item.icon ? ICONS[item.icon] : undefined },
  );
}

/** The leaf whose url is the longest prefix of `pathname`, and the groups above it. */
export function selectedKeysFor(items: readonly MenuItem[], pathname: string): { selected: string[]; open: string[] } {
  let best: { url: string; groups: string[] } | null = null;
  const walk = (list: readonly MenuItem[], groups: string[]): void => {
    for (const item of list) {
      if (item.children && item.children.length > 0) {
        walk(item.children, [...groups, `group:${item.code}`]);
      } else if (item.url && (pathname === item.url || pathname.startsWith(item.url + '/'))) {
        if (!best || item.url.length > best.url.length) best = { url: item.url, groups };
      }
    }
  };
  walk(items, []);
  const found = best as { url: string; groups: string[] } | null;
  return found ? { selected: [found.url], open: found.groups } : { selected: [], open: [] };
}
