import { DownOutlined, IdcardOutlined, LockOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Dropdown } from 'antd';
import { useLocation } from 'wouter';
import type { UserDetails } from '../../../common/api/types';
import { logout } from '../../lib/session';

export function UserMenu({ user }: { user: UserDetails | null }) {
  const [, navigate] = useLocation();
  return (
    <Dropdown
      menu={{
        items: [
          { key: '/main/user/userInfo', icon: <IdcardOutlined />, label: '基本信息' },
          { key: '/main/user/accountSafe', icon: <LockOutlined />, label: '账号安全' },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: '退出登录' },
        ],
        onClick: async ({ key }) => {
          if (key.startsWith('/')) return navigate(key);
          if (key !== 'logout') return;
          await logout();
          navigate('/login', { replace: true });
        },
      }}
      trigger={['click', 'hover']}
    >
      <button type="button" data-testid="user-menu" style={{ display: 'inline-flex', alignItems: 'center', gap: 8, cursor: 'pointer', background: 'none', border: 'none', color: 'inherit', padding: 0 }}>
        <Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined />} />
        <span data-testid="user-nickname">{user?.nickName ?? ''}</span>
        <DownOutlined style={{ fontSize: 10 }} />
      </button>
    </Dropdown>
  );
}
