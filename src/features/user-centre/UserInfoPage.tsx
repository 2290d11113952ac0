import { Card, Descriptions, Progress, Skeleton, Typography } from 'antd';
import { formatSize } from '../../../common/format/size';
import { HelpLine } from '../../components/HelpLine';
import { LoadFailed } from './LoadFailed';
import { AvatarEditor, NicknameEditor, useProfileSaved } from './ProfileEditor';
import { maskPhone, quotaPercent, useUserDetails } from './use-user-details';

/** Spec §2 `/main/user/userInfo` (基本信息): avatar and nickname (both editable), account, phone, quota used of total. */
export function UserInfoPage() {
  const { user, failed, reload } = useUserDetails();
  const saved = useProfileSaved();
  if (failed && !user) return <LoadFailed onRetry={reload} />;
  if (!user) return <Skeleton active avatar paragraph={{ rows: 4 }} />;
  const percent = quotaPercent(user.usedSize, user.quota);
  return (
    <Card title="基本信息" data-testid="user-info">
      <div style={{ display: 'flex', gap: 24, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <AvatarEditor user={user} onSaved={saved} />
        <Descriptions column={1} style={{ flex: 1, minWidth: 280 }} styles={{ label: { width: 100 } }}>
          <Descriptions.Item label="昵称">
            <NicknameEditor user={user} onSaved={saved} />
          </Descriptions.Item>
          <Descriptions.Item label="账号">
            <span data-testid="user-info-account">{user.website}</span>
          </Descriptions.Item>
          <Descriptions.Item label="手机号">
            <span data-testid="user-info-phone">{user.phone ? maskPhone(user.phone) : <Typography.Text type="secondary">未绑定</Typography.Text>}</span>
          </Descriptions.Item>
          <Descriptions.Item label="存储空间">
            <div style={{ width: '100%', maxWidth: 360 }}>
              <Progress percent={percent} status={percent >= 90 ? 'exception' : 'normal'} showInfo={false} data-testid="user-info-quota-bar" aria-valuenow={percent} aria-label="已用空间" />
              <span data-testid="user-info-quota">
                已使用 {formatSize(user.usedSize)} / 共 {formatSize(user.quota)}（{percent}%）
              </span>
            </div>
          </Descriptions.Item>
        </Descriptions>
      </div>
      <HelpLine style={{ marginTop: 16, textAlign: 'left' }} />
    </Card>
  );
}
