import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { MenuItem, PagePermission, TenantConfig } from '../../common/api/types';
import { Client, startServer, startServerAsAdmin, type TestServer } from './helpers';

let server: TestServer;
let admin: Client;
beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
});
afterAll(async () => {
  await server.close();
});

const urlsOf = (items: MenuItem[]): string[] => items.flatMap((i) => [i.url, ...urlsOf(i.children ?? [])]);

describe('menu and config', () => {
  it('gives admins the full sidebar including system management', async () => {
    const res = await admin.get<{ data: MenuItem[] }>(API.menu);
    expect(res.status).toBe(200);
    const urls = urlsOf(res.body.data);
    for (const url of [
      '/main/file/personal',
      '/main/file/backups',
      '/main/file/favorite',
      '/main/file/publicSpace',
      '/main/file/recycle',
      '/main/group',
      '/main/notice',
      '/main/user/userInfo',
      '/main/user/accountSafe',
      '/main/system',
    ]) {
      expect(urls).toContain(url);
    }
    const file = res.body.data.find((i) => i.name === '文件');
    const shown = file?.children?.filter((c) => !c.hidden);
    expect(shown?.map((c) => c.name)).toEqual(['个人文件', '同步文件', '共享文件', '交换区', '我的收藏', '公共空间', '回收站']);
    // The keyword search page opens from the toolbar: granted to the route guard, not in the sidebar.
    expect(file?.children?.find((c) => c.hidden)?.url).toBe('/main/file/search');
  });

  it('lists page permissions and the home url', async () => {
    const perms = await admin.get<{ data: PagePermission[] }>(API.pagePermissions);
    expect(perms.body.data.map((p) => p.code)).toEqual(expect.arrayContaining(['file:upload', 'file:mkdir', 'file:rename', 'file:download']));
    const home = await admin.get<{ data: string }>(API.homeUrl);
    expect(home.body).toEqual({ data: '/main/file/personal' });
  });

  it('returns the tenant config', async () => {
    const res = await admin.get<{ data: TenantConfig }>(API.tenantConfig);
    expect(res.status).toBe(200);
    expect(res.body.data.tenantName).toBe('演示企业');
    expect(res.body.data.tenantId).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('answers 404 JSON for unknown API paths (with a session)', async () => {
    const res = await admin.get('/api/does/not/exist');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ errorCode: 'REQ-2004' });
  });
});

describe('desktop update check', () => {
  it('offers no release until one is configured, then the configured one to both client types, without a session', async () => {
    const none = await new Client(server.baseUrl).get(`${API.clientVersion}?clientType=3`);
    expect(none.body).toEqual({ data: { isForce: false, versionName: '', versionDesc: '' } });
    expect((await new Client(server.baseUrl).get(`${API.clientVersion}?clientType=9`)).status).toBe(400);

    const release = { isForce: true, versionName: '1.2.0', versionDesc: '修复若干问题' };
    const withRelease = await startServer({ desktopRelease: release });
    try {
      for (const clientType of [3, 4]) {
        const res = await new Client(withRelease.baseUrl).get(`${API.clientVersion}?clientType=${clientType}`);
        expect(res.body).toEqual({ data: release });
      }
    } finally {
      await withRelease.close();
    }
  });
});
