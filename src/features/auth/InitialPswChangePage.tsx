import { useLocation, useSearch } from 'wouter';
import { logout } from '../../lib/session';
import { PasswordChangeScreen } from './PasswordChangeScreen';

const TIPS = {
  initial: '首次登录需要修改初始密码，修改成功后即可开始使用。',
  expired: '您的密码已过期，请修改密码后继续使用。',
};

/** Spec §2 `/initialPswChange?type=1` (initial password) or another type (expired): forced after login. */
export function InitialPswChangePage() {
  const [, navigate] = useLocation();
  const initial = new URLSearchParams(useSearch()).get('type') === '1';

  async function back() {
    await logout();
    navigate('/login', { replace: true });
  }

  return <PasswordChangeScreen title={initial ? '修改初始密码' : '密码已过期'} tip={initial ? TIPS.initial : TIPS.expired} onBack={back} backText="返回" />;
}
