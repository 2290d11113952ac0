import { Button, Card, Typography } from 'antd';
import { useLocation, useSearch } from 'wouter';
import { BrandMark } from '../../components/BrandMark';
import { logout } from '../../lib/session';

/**
 * Placeholder of the forced password change (spec §2): the form comes in a later issue. Back logs out
 * and returns to /login.
 */
export function InitialPswChangePage() {
  const [, navigate] = useLocation();
  const type = new URLSearchParams(useSearch()).get('type');
  const reason = type === '1' ? '首次登录需要修改初始密码。' : '您的密码已过期，需要修改后才能继续使用。';

  async function back() {
    await logout();
    navigate('/login', { replace: true });
  }

  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#f5f5f5' }}>
      <Card style={{ width: 420, textAlign: 'center' }} data-testid="initial-psw-change">
        <BrandMark size={36} />
        <Typography.Title level={4} style={{ marginTop: 24 }}>
          请修改初始密码
        </Typography.Title>
        <Typography.Paragraph type="secondary">{reason}修改密码功能即将上线。</Typography.Paragraph>
        <Button onClick={back} data-testid="initial-psw-back">
          返回登录
        </Button>
      </Card>
    </div>
  );
}
