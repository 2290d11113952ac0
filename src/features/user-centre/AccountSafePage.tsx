import { LockOutlined, MobileOutlined } from '@ant-design/icons';
import { Button, Card, List, Modal, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { PasswordChangeForm } from '../../components/PasswordChangeForm';
import { QUERY_KEYS } from '../../lib/data/queries';
import { useFeedback } from '../../lib/feedback/feedback';
import { BindPhoneModal } from './BindPhoneModal';
import { DevicePasswords } from './DevicePasswords';
import { GestureSetting } from './GestureSetting';
import { LoadFailed } from './LoadFailed';
import { SignedInDevices } from './SignedInDevices';
import { maskPhone, useUserDetails } from './use-user-details';

/** Spec §2 `/main/user/accountSafe` (账号安全): change the password, bind or replace the phone, the signed-in devices, the 设备密码 of WebDAV clients. */
export function AccountSafePage() {
  const { user, failed, reload } = useUserDetails();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'password' | 'phone' | null>(null);

  if (failed && !user) return <LoadFailed onRetry={reload} />;
  if (!user) return <Skeleton active paragraph={{ rows: 4 }} />;

  function passwordChanged() {
    setDialog(null);
    // This device goes on with a new session; every other one was signed out.
    message.success('密码已修改，其他设备已退出登录');
    void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.signedInDevices });
  }

  return (
    <>
      <Card title="账号安全" data-testid="account-safe">
        <List itemLayout="horizontal">
          <List.Item
            actions={[
              <Button key="change" onClick={() => setDialog('password')} data-testid="account-safe-password">
                修改密码
              </Button>,
            ]}
          >
            <List.Item.Meta avatar={<LockOutlined style={{ fontSize: 22, color: '#0958d9' }} />} title="登录密码" description="建议定期修改密码，密码须为8-16位字母、数字和符号三种组合。" />
          </List.Item>
          <List.Item
            actions={[
              <Button key="bind" onClick={() => setDialog('phone')} data-testid="account-safe-phone">
                {user.phone ? '更换手机号' : '绑定手机号'}
              </Button>,
            ]}
          >
            <List.Item.Meta
              avatar={<MobileOutlined style={{ fontSize: 22, color: '#0958d9' }} />}
              title="手机号"
              description={
                <span data-testid="account-safe-phone-value">
                  {user.phone ? `已绑定：${maskPhone(user.phone)}（可用于短信登录）` : <Typography.Text type="secondary">未绑定，绑定后可使用短信验证码登录</Typography.Text>}
                </span>
              }
            />
          </List.Item>
          <GestureSetting />
        </List>
        <Modal title="修改密码" open={dialog === 'password'} onCancel={() => setDialog(null)} footer={null} destroyOnHidden>
          <PasswordChangeForm account={user.website} onDone={passwordChanged} onBack={() => setDialog(null)} backText="取消" />
        </Modal>
        <BindPhoneModal
          open={dialog === 'phone'}
          currentPhone={user.phone}
          smsDelivery={user.smsDelivery === true}
          onClose={() => setDialog(null)}
          onBound={() => {
            setDialog(null);
            reload();
          }}
        />
      </Card>
      <SignedInDevices />
      <DevicePasswords />
    </>
  );
}
