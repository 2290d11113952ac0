import { MenuOutlined } from '@ant-design/icons';
import { Badge, Button, Drawer, Layout } from 'antd';
import type { ReactNode } from 'react';
import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import type { MenuItem } from '../../../common/api/types';
import { AfterCommits } from '../../components/AfterCommits';
import { BrandMark } from '../../components/BrandMark';
import { useMenuQuery, usePagePermissionsQuery, useUserDetailsQuery } from '../../lib/data/queries';
import { saveMenuRoutes } from '../../lib/menu-routes';
import { useTransfersOpenRequest } from '../../lib/transfer-open';
import { PHONE_FLOAT_BOTTOM, PHONE_FLOAT_CLEARANCE, PHONE_FLOAT_EDGE_PX, TOUCH_TARGET_PX, usePhone } from '../../lib/use-phone';
import { OfflineBanner } from '../../components/OfflineBanner';
import { useApprovalBadge } from './approval-badge';
import { NoticeBell } from './NoticeBell';
import { SideMenu } from './SideMenu';
import { UserMenu } from './UserMenu';
import { contentStyle, headerStyle, SIDER_STYLE, SIDER_WIDTH } from './shell-frame';

/** One empty list while the menu loads, so the menu does not render again with every layout render. */
const NO_MENU_ITEMS: MenuItem[] = [];

/**
 * Header (brand, user), sidebar menu from the server, content, and a side panel (`aside`: the
 * transfer list). On a phone the menu is a drawer behind the header's menu button, and the side
 * panel a bottom sheet behind a floating button (`asideButton` shows its badge); the panel stays
 * mounted either way (it owns the transfer engine's connection).
 */
export function MainLayout({
  children,
  aside,
  asideButton,
  headerExtra,
}: {
  children: ReactNode;
  aside?: ReactNode;
  asideButton?: ReactNode;
  /** Beside the user menu (the desktop shell's 本机同步). */
  headerExtra?: ReactNode;
}) {
  const menu = useMenuQuery().data ?? null;
  const user = useUserDetailsQuery().data ?? null;
  // Keeps the button permissions observed (refreshed) on every page; what is read re-renders nothing here.
  usePagePermissionsQuery();
  const phone = usePhone();
  // On a phone the menu (with the 审批 badge) is folded away: its button shows a dot meanwhile.
  const approvals = useApprovalBadge(menu ?? NO_MENU_ITEMS);
  const [menuOpen, setMenuOpen] = useState(false);
  const [sheetOpen, setSheetOpen] = useState(false);
  // A link that asks for the transfer list (a held upload's message): on a phone it is this sheet.
  useTransfersOpenRequest(phone, useCallback(() => setSheetOpen(true), []));

  const [location, navigate] = useLocation();

  useEffect(() => {
    if (menu) saveMenuRoutes(menu);
  }, [menu]);

  // The drawer closes once the user has picked a page.
  useEffect(() => setMenuOpen(false), [location]);

  // The server refuses everything else until an initial or expired password is changed (spec §4):
  // a user reaching the app another way (reload, bookmark) is sent to the change screen too.
  useEffect(() => {
    if (user && user.passwordChangeType !== 0) navigate(`/initialPswChange?type=${user.passwordChangeType}`, { replace: true });
  }, [user, navigate]);

  // A cold load commits the shell in stages (AfterCommits), each a task of its own: first the page
  // itself; then the header's buttons and the transfer panel's content; then this menu (the sider
  // keeps its width meanwhile, so nothing moves); last the background work of AccountGate.
  const sideMenu = (
    <AfterCommits stage={2}>
      <SideMenu items={menu ?? NO_MENU_ITEMS} />
    </AfterCommits>
  );
  return (
    <Layout style={{ height: '100dvh' }}>
      <Layout.Header style={headerStyle(phone)}>
        {phone && (
          <Badge dot={approvals > 0} offset={[-10, 10]} data-testid="open-menu-badge" data-count={approvals}>
            <Button
              type="text"
              icon={<MenuOutlined />}
              aria-label={approvals > 0 ? `打开菜单（${approvals} 个申请待审批）` : '打开菜单'}
              title="打开菜单"
              onClick={() => setMenuOpen(true)}
              style={{ width: TOUCH_TARGET_PX, height: TOUCH_TARGET_PX }}
              data-testid="open-menu"
            />
          </Badge>
        )}
        <div style={{ flex: 1, minWidth: 0 }}>
          <BrandMark size={30} />
        </div>
        <AfterCommits>
          {headerExtra}
          <NoticeBell />
          <UserMenu user={user} />
        </AfterCommits>
      </Layout.Header>
      {/* hasSider said, not found by antd in an effect: the first commit is laid out as a row already. */}
      <Layout style={{ minHeight: 0 }} hasSider={!phone}>
        {phone ? (
          <Drawer placement="left" open={menuOpen} onClose={() => setMenuOpen(false)} size={260} title="菜单" styles={{ body: { padding: 0 } }} data-testid="menu-drawer">
            {/* A page picked (even the one shown) closes the drawer; opening a group does not. */}
            <div onClick={(e) => (e.target as HTMLElement).closest('.ant-menu-item') && setMenuOpen(false)}>{sideMenu}</div>
          </Drawer>
        ) : (
          <Layout.Sider width={SIDER_WIDTH} theme="light" style={SIDER_STYLE}>
            {sideMenu}
          </Layout.Sider>
        )}
        {/* On a phone the floating transfer button stands over the content's bottom: the content ends
            clear of it (PHONE_FLOAT_CLEARANCE), so the last row of any page scrolls above it. */}
        <Layout.Content
          style={contentStyle(phone, phone && aside ? PHONE_FLOAT_CLEARANCE : undefined)}
          data-testid="main-content"
        >
          <OfflineBanner />
          {children}
        </Layout.Content>
        {!phone && aside}
      </Layout>
      {phone && aside && (
        <>
          <div style={{ position: 'fixed', right: PHONE_FLOAT_EDGE_PX, bottom: PHONE_FLOAT_BOTTOM, zIndex: 10 }} onClick={() => setSheetOpen(true)}>
            {asideButton}
          </div>
          <Drawer placement="bottom" open={sheetOpen} onClose={() => setSheetOpen(false)} size="75%" title="传输列表" forceRender styles={{ body: { padding: 0, display: 'flex' } }} data-testid="transfer-sheet">
            {aside}
          </Drawer>
        </>
      )}
    </Layout>
  );
}
