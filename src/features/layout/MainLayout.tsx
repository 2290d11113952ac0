import { Layout } from 'antd';
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { BrandMark } from '../../components/BrandMark';
import { usePagePermissionsLoader } from '../../lib/button-permissions';
import { useMenuQuery, useUserDetailsQuery } from '../../lib/data/queries';
import { saveMenuRoutes } from '../../lib/menu-routes';
import { OfflineBanner } from '../../components/OfflineBanner';
import { SideMenu } from './SideMenu';
import { UserMenu } from './UserMenu';

const HEADER_HEIGHT = 56;

/** Header (brand, user), sidebar menu from the server, content, and an optional side panel (`aside`). */
export function MainLayout({ children, aside }: { children: ReactNode; aside?: ReactNode }) {
  const menu = useMenuQuery().data ?? null;
  const user = useUserDetailsQuery().data ?? null;
  usePagePermissionsLoader();

  const [, navigate] = useLocation();

  useEffect(() => {
    if (menu) saveMenuRoutes(menu);
  }, [menu]);

  // The server refuses everything else until an initial or expired password is changed (spec §4):
  // a user reaching the app another way (reload, bookmark) is sent to the change screen too.
  useEffect(() => {
    if (user && user.passwordChangeType !== 0) navigate(`/initialPswChange?type=${user.passwordChangeType}`, { replace: true });
  }, [user, navigate]);

  return (
    <Layout style={{ height: '100vh' }}>
      <Layout.Header
        style={{ height: HEADER_HEIGHT, lineHeight: `${HEADER_HEIGHT}px`, padding: '0 24px', display: 'flex', alignItems: 'center', justifyContent: 'space-between', background: '#fff', borderBottom: '1px solid #f0f0f0' }}
      >
        <BrandMark size={30} />
        <UserMenu user={user} />
      </Layout.Header>
      <Layout style={{ minHeight: 0 }}>
        <Layout.Sider width={208} theme="light" style={{ borderInlineEnd: '1px solid #f0f0f0', overflow: 'auto' }}>
          <SideMenu items={menu ?? []} />
        </Layout.Sider>
        <Layout.Content style={{ minWidth: 0, overflow: 'auto', padding: 16, display: 'flex', flexDirection: 'column' }}>
          <OfflineBanner />
          {children}
        </Layout.Content>
        {aside}
      </Layout>
    </Layout>
  );
}
