import { Card, Tabs } from 'antd';
import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { LoginResult } from '../../../common/api/types';
import { BrandMark } from '../../components/BrandMark';
import { beginLogin } from '../../lib/data/session';
import { readAgreement } from './auth-api';
import { loginTarget } from './login-target';
import { PasswordLoginForm } from './PasswordLoginForm';
import { SmsLoginForm } from './SmsLoginForm';
import { UserAgreement } from './UserAgreement';

export function LoginPage() {
  const [, navigate] = useLocation();
  const search = useSearch();
  const [agreed, setAgreed] = useState(false);
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
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: 'linear-gradient(135deg, #e6f4ff 0%, #f5f5f5 100%)' }}>
      <Card style={{ width: 400, boxShadow: '0 6px 24px rgba(0,0,0,0.08)' }}>
        <div style={{ textAlign: 'center', marginBottom: 8 }}>
          <BrandMark size={40} />
        </div>
        <Tabs
          centered
          destroyOnHidden
          items={[
            { key: 'password', label: '账号登录', children: <PasswordLoginForm mayLogin={mayLogin} onLoggedIn={onLoggedIn} /> },
            { key: 'sms', label: <span data-testid="login-tab-sms">短信登录</span>, children: <SmsLoginForm mayLogin={mayLogin} onLoggedIn={onLoggedIn} /> },
          ]}
        />
        <UserAgreement
          checked={agreed}
          onChange={(checked) => {
            setAgreed(checked);
            if (checked) setAgreementMissing(false);
          }}
          showError={agreementMissing}
        />
      </Card>
    </div>
  );
}
