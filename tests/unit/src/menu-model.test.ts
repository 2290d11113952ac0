import { describe, expect, it } from 'vitest';
import type { MenuItem } from '../../../common/api/types';
import { toAntdItems } from '../../../src/features/layout/menu-model';
import { menuRoutesOf } from '../../../src/lib/menu-routes';
import { isRouteAllowed } from '../../../src/app/route-access';

const MENU: MenuItem[] = [
  {
    code: 'file',
    name: '文件',
    url: '/main/file/personal',
    children: [
      { code: 'file-personal', name: '个人文件', url: '/main/file/personal' },
      { code: 'file-search', name: '搜索', url: '/main/file/search', hidden: true },
    ],
  },
];

describe('hidden menu items', () => {
  it('are granted to the route guard but not drawn in the sidebar', () => {
    const routes = menuRoutesOf(MENU);
    expect(routes).toContain('/main/file/search');
    expect(isRouteAllowed('/main/file/search?keyword=a', routes)).toBe(true);

    const items = toAntdItems(MENU) as { key: string; children?: { key: string }[] }[];
    expect(items[0]!.children!.map((c) => c.key)).toEqual(['/main/file/personal']);
  });
});

describe('the server menu', () => {
  it('names only icons the sidebar can draw, so no item is left without one', async () => {
    const { ConfigService } = await import('../../../server/services/config-service');
    const service = new ConfigService({ tenants: null as never, blobs: null as never, passwordExpiryDays: 0 });
    const menu = await service.menu({ role: 'admin', tenantId: 't', userId: 'u' } as never);
    const missing: string[] = [];
    type Drawn = { key: string; icon?: unknown; children?: Drawn[] };
    const walk = (items: MenuItem[], drawn: Drawn[]): void =>
      items.filter((i) => !i.hidden).forEach((item, i) => {
        if (!drawn[i]?.icon) missing.push(item.name);
        if (item.children) walk(item.children, drawn[i]?.children ?? []);
      });
    walk(menu, toAntdItems(menu) as Drawn[]);
    expect(missing).toEqual([]);
    expect(JSON.stringify(menu)).toContain('"name":"交换区"');
    expect(JSON.stringify(menu)).not.toContain('"name":"其他"');
  });
});
