import { useLocation } from 'wouter';
import { PasswordChangeScreen } from './PasswordChangeScreen';

/** Spec §2 `/passwordChage`: a voluntary change. Back returns to where the user came from, still logged in. */
export function PasswordChangePage() {
  const [, navigate] = useLocation();
  const back = () => (window.history.length > 1 ? window.history.back() : navigate('/', { replace: true }));
  return <PasswordChangeScreen title="修改密码" tip="修改成功后，其他设备上的登录将退出。" onBack={back} />;
}
