import { CloudDownloadOutlined, DesktopOutlined, DownOutlined, IdcardOutlined, LockOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Dropdown } from 'antd';
import { useState } from 'react';
import { useLocation } from 'wouter';
import type { UserDetails } from '../../../common/api/types';
import { clearOutboxOfCurrentAccount, pendingOutboxCount } from '../../lib/outbox/outbox';
import { promptInstall, useInstallOffer } from '../../lib/pwa-install';
import { logout } from '../../lib/session';
import { useFeedback } from '../../lib/feedback/feedback';
import { DesktopClientHelp } from '../../components/DesktopClientLink';
import { inDesktopShell } from '../../lib/desktop-client';

export function UserMenu({ user }: { user: UserDetails | null }) {
  const [, navigate] = useLocation();
  const { modal } = useFeedback();
  const installable = useInstallOffer();
  const [clientHelp, setClientHelp] = useState(false);
  return (
    <>
      <Dropdown
        menu={{
          items: [
            { key: '/main/user/userInfo', icon: <IdcardOutlined />, label: '基本信息' },
            { key: '/main/user/accountSafe', icon: <LockOutlined />, label: '账号安全' },
            ...(installable ? [{ key: 'install', icon: <DesktopOutlined />, label: '安装到桌面', 'data-testid': 'menu-install' }] : []),
            // Where the sync client comes from (lib/desktop-client.ts); not inside the client itself.
            ...(inDesktopShell() ? [] : [{ key: 'desktopClient', icon: <CloudDownloadOutlined />, label: '获取桌面客户端', 'data-testid': 'menu-desktop-client' }]),
            { type: 'divider' },
            { key: 'logout', icon: <LogoutOutlined />, label: '退出登录' },
          ],
          onClick: async ({ key }) => {
            if (key.startsWith('/')) return navigate(key);
            if (key === 'install') return void promptInstall();
            if (key === 'desktopClient') return setClientHelp(true);
            if (key !== 'logout') return;
            const unsent = await pendingOutboxCount();
            const leave = async (): Promise<void> => {
              await clearOutboxOfCurrentAccount();
              await logout();
              navigate('/login', { replace: true });
            };
            if (unsent === 0) return leave();
            modal.confirm({
              title: '还有离线修改未同步',
              content: `有 ${unsent} 项离线时做的修改还没有同步到服务器，退出登录将丢弃它们。`,
              okText: '丢弃并退出',
              okButtonProps: { danger: true },
              cancelText: '取消',
              onOk: leave,
            });
          },
        }}
        trigger={['click', 'hover']}
      >
        {/* A long name (one with a post in it) is cut to a third of a phone's width; the whole of it is the title. */}
        <button type="button" data-testid="user-menu" title={user?.nickName} style={{ display: 'inline-flex', alignItems: 'center', gap: 8, minWidth: 0, cursor: 'pointer', background: 'none', border: 'none', color: 'inherit', padding: 0 }}>
          <Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined />} style={{ flexShrink: 0 }} />
          <span data-testid="user-nickname" style={{ maxWidth: 'min(12em, 30vw)', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {user?.nickName ?? ''}
          </span>
          <DownOutlined style={{ fontSize: 10, flexShrink: 0 }} />
        </button>
      </Dropdown>
      <DesktopClientHelp open={clientHelp} onClose={() => setClientHelp(false)} />
    </>
  );
}
