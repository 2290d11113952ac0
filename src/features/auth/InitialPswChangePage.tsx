import { useLocation, useSearch } from 'wouter';
import type { TenantConfig } from '../../../common/api/types';
import { useTenantConfigQuery } from '../../lib/data/queries';
import { logout } from '../../lib/session';
import { PasswordChangeScreen } from './PasswordChangeScreen';

/**
 * The tip names the tenant and its password lifetime (tenant/get) once known; before that, or when
 * the tenant's passwords never expire, the plain sentence.
 */
export function tipOf(initial: boolean, tenant: TenantConfig | undefined): string {
  const days = tenant?.passwordExpiryDays ?? 0;
  const every = days > 0 ? `密码有效期为 ${days} 天，` : '';
  if (initial) return tenant ? `${tenant.tenantName}要求首次登录修改初始密码。${every}修改成功后即可开始使用。` : '首次登录需要修改初始密码，修改成功后即可开始使用。';
  if (!tenant) return '您的密码已过期，请修改密码后继续使用。';
  return days > 0 ? `您的密码已超过 ${days} 天未修改（${tenant.tenantName}的密码有效期为 ${days} 天），请修改密码后继续使用。` : '您的密码已过期，请修改密码后继续使用。';
}

/** Spec §2 `/initialPswChange?type=1` (initial password) or another type (expired): forced after login. */
export function InitialPswChangePage() {
  const [, navigate] = useLocation();
  const initial = new URLSearchParams(useSearch()).get('type') === '1';
  const tenant = useTenantConfigQuery();

  async function back() {
    await logout();
    navigate('/login', { replace: true });
  }

  return <PasswordChangeScreen title={initial ? '修改初始密码' : '密码已过期'} tip={tipOf(initial, tenant.data)} onBack={back} backText="返回" />;
}
