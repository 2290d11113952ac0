import { Card, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { BrandMark } from '../../components/BrandMark';
import { PasswordChangeForm } from '../../components/PasswordChangeForm';
import { useQueryClient } from '@tanstack/react-query';
import { fetchUserDetails } from '../../lib/account-api';
import { fetchUserDetailsQuery, QUERY_KEYS } from '../../lib/data/queries';
import { DEFAULT_HOME_URL, fetchHomeUrl } from '../../lib/session';
import { useFeedback } from '../../lib/feedback/feedback';

/**
 * The full-page password change of spec §2: brand, tip, the form. Finish: the server ended every
 * other session and gave this device a new one (issue 44: no second login with a new captcha), so
 * the app goes on at the home page with the user details asked again (the change is no longer owed).
 * `onBack` decides what Back does (forced change: log out).
 */
export function PasswordChangeScreen({ title, tip, onBack, backText }: { title: string; tip: string; onBack: () => void; backText?: string }) {
  const { message } = useFeedback();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [account, setAccount] = useState<string | null>(null);

  useEffect(() => {
    let alive = true;
    // A 401 here (no session) is sent to /login by the API client.
    fetchUserDetails().then(
      (user) => alive && setAccount(user.website),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, []);

  async function done() {
    // The main layout sends a user who still owes the change back here: its cached details must be the new ones.
    queryClient.setQueryData(QUERY_KEYS.userDetails, await fetchUserDetailsQuery());
    message.success('密码修改成功，其他设备上的登录已退出');
    navigate(await fetchHomeUrl().catch(() => DEFAULT_HOME_URL), { replace: true });
  }

  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#f5f5f5', padding: 16 }}>
      <Card style={{ width: 440 }} data-testid="password-change">
        <div style={{ textAlign: 'center' }}>
          <BrandMark size={36} />
          <Typography.Title level={4} style={{ marginTop: 20 }}>
            {title}
          </Typography.Title>
          <Typography.Paragraph type="secondary" data-testid="password-change-tip">
            {tip}
          </Typography.Paragraph>
        </div>
        {account === null ? <Skeleton active paragraph={{ rows: 6 }} /> : <PasswordChangeForm account={account} onDone={done} onBack={onBack} backText={backText} />}
      </Card>
    </div>
  );
}
