import { useQuery } from '@tanstack/react-query';
import { theme } from 'antd';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useState } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import type { LoginResult } from '../../../common/api/types';
import { BrandMark } from '../../components/BrandMark';
import { HelpLine } from '../../components/HelpLine';
import { beginLogin } from '../../lib/data/session';
import { systemConfigAtom } from '../../lib/system-config';
import { isBoolean, useStoredState } from '../../lib/use-stored-state';
import { useFeedback } from '../../lib/feedback/feedback';
import { readAgreement, tenantAlias } from './auth-api';
import { loginTarget } from './login-target';
import { PasswordLoginForm } from './PasswordLoginForm';
import { UserAgreement } from './UserAgreement';

type LoginMethod = 'password' | 'sms';

// Most users log in with a password: the SMS form (and its code sender) loads when its tab is chosen.
const SmsLoginForm = lazy(() => import('./SmsLoginForm').then((m) => ({ default: m.SmsLoginForm })));
const ForgotPasswordForm = lazy(() => import('./ForgotPasswordForm').then((m) => ({ default: m.ForgotPasswordForm })));

/** Accepted once on this device, the agreement stays ticked on the next visits (the server records it per login). */
const AGREEMENT_KEY = 'login.agreementAccepted';

const METHODS: { value: LoginMethod; label: string }[] = [
  { value: 'password', label: '账号登录' },
  { value: 'sms', label: '短信登录' },
];

/**
 * 账号登录 / 短信登录: a two-button tab list (arrow keys move between them). Drawn here rather than
 * with antd's Tabs or Segmented, whose menus and tooltips the first screen would otherwise load.
 */
function LoginMethodTabs({ value, onChange }: { value: LoginMethod; onChange: (method: LoginMethod) => void }) {
  const { token } = theme.useToken();
  return (
    <div role="tablist" aria-label="登录方式" style={{ display: 'flex', marginBottom: 24, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
      {METHODS.map((m) => {
        const selected = m.value === value;
        return (
          <button
            key={m.value}
            type="button"
            role="tab"
            aria-selected={selected}
            tabIndex={selected ? 0 : -1}
            data-testid={`login-tab-${m.value}`}
            onClick={() => onChange(m.value)}
            onKeyDown={(e) => {
              if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
              const next = METHODS[(METHODS.indexOf(m) + 1) % METHODS.length]!;
              onChange(next.value);
              (e.currentTarget.parentElement?.querySelector(`[data-testid="login-tab-${next.value}"]`) as HTMLElement | null)?.focus();
            }}
            style={{
              flex: 1,
              height: 44,
              border: 'none',
              borderBottom: `2px solid ${selected ? token.colorPrimary : 'transparent'}`,
              marginBottom: -1,
              background: 'none',
              cursor: 'pointer',
              fontSize: 16,
              color: selected ? token.colorPrimary : token.colorText,
            }}
          >
            {m.label}
          </button>
        );
      })}
    </div>
  );
}

const DEFAULT_BACKGROUND = 'linear-gradient(135deg, #e6f4ff 0%, #f5f5f5 100%)';

/**
 * The tenant's login background (POST /api/tenant/update): /login shows the default tenant's (from
 * the system config), /login/{id} that tenant's (by id or alias); none set → the default gradient.
 */
function useLoginBackground(tenant: string | undefined): { background: string; helpLine: string | undefined } {
  const config = useAtomValue(systemConfigAtom);
  const alias = useQuery({
    queryKey: ['public', 'tenantAlias', tenant ?? ''],
    queryFn: ({ signal }) => tenantAlias(tenant!, signal),
    enabled: Boolean(tenant),
  });
  const url = tenant ? alias.data?.loginBackground : config.loginBackground;
  // That tenant's help line on its own login page ('' until known: never the default tenant's).
  const helpLine = tenant ? (alias.data?.customerTelephone ?? '') : undefined;
  return { background: url ? `center / cover no-repeat url("${url}"), ${DEFAULT_BACKGROUND}` : DEFAULT_BACKGROUND, helpLine };
}

export function LoginPage() {
  const [, navigate] = useLocation();
  const params = useParams<{ id?: string }>();
  const { background, helpLine } = useLoginBackground(params.id);
  const search = useSearch();
  const { token } = theme.useToken();
  const [method, setMethod] = useState<LoginMethod>('password');
  const [agreed, setAgreed] = useStoredState(AGREEMENT_KEY, false, isBoolean);
  const [forgot, setForgot] = useState(false);
  const { message } = useFeedback();
  const [agreementMissing, setAgreementMissing] = useState(false);

  const mayLogin = (): boolean => {
    setAgreementMissing(!agreed);
    return agreed;
  };

  async function onLoggedIn(result: LoginResult) {
    // Another account may have used this browser: its saved menu and cached data must not reach this one.
    await beginLogin();
    // The box was ticked; record it with the new session. A failure is shown and does not block the user.
    await readAgreement().catch(() => undefined);
    navigate(loginTarget(result, search), { replace: true });
  }

  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background }} data-testid="login-background">
      {/* A plain panel rather than antd's Card, which imports Tabs (and their menus) for its tab list. */}
      <main style={{ width: 400, maxWidth: 'calc(100vw - 32px)', padding: 24, borderRadius: token.borderRadiusLG, background: token.colorBgContainer, boxShadow: '0 6px 24px rgba(0,0,0,0.08)' }}>
        <div style={{ textAlign: 'center', marginBottom: 8 }}>
          <BrandMark size={40} />
        </div>
        {forgot ? (
          <>
            <h1 style={{ fontSize: 18, fontWeight: 500, textAlign: 'center', margin: '8px 0 20px' }}>找回密码</h1>
            <Suspense fallback={<div style={{ minHeight: 420 }} aria-busy="true" />}>
              <ForgotPasswordForm
                onBack={() => setForgot(false)}
                onDone={() => {
                  message.success('密码已重置，请使用新密码登录。');
                  setMethod('password');
                  setForgot(false);
                }}
              />
            </Suspense>
          </>
        ) : (
          <>
            <LoginMethodTabs value={method} onChange={setMethod} />
            {method === 'password' ? <PasswordLoginForm mayLogin={mayLogin} onLoggedIn={onLoggedIn} /> : (
              <Suspense fallback={<div style={{ minHeight: 236 }} aria-busy="true" />}>
                <SmsLoginForm mayLogin={mayLogin} onLoggedIn={onLoggedIn} />
              </Suspense>
            )}
            <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 8 }}>
              <UserAgreement
                checked={agreed}
                onChange={(checked) => {
                  setAgreed(checked);
                  if (checked) setAgreementMissing(false);
                }}
                showError={agreementMissing}
              />
              <button type="button" onClick={() => setForgot(true)} data-testid="login-forgot" style={{ marginTop: 16, minHeight: 24, padding: 0, border: 'none', background: 'none', color: token.colorPrimary, cursor: 'pointer', fontSize: 14, flex: 'none' }}>
                忘记密码？
              </button>
            </div>
          </>
        )}
        <HelpLine style={{ marginTop: 16 }} phone={helpLine} />
      </main>
    </div>
  );
}
