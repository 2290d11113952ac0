import { Descriptions, Drawer, Tag, Timeline } from 'antd';
import {
  APPLICATION_STATE_LABELS,
  SHARE_KIND_LABELS,
  SHARE_PERMISSION_LABELS,
  SHARE_RECIPIENT_LABELS,
  type ApplicationStepKind,
  type ShareApplication,
} from '../../../common/api/sharing';
import { formatDateTime } from '../../../common/format/date';
import { applicationColor } from './sharing-ui';

const STEP_LABELS: Record<ApplicationStepKind, string> = {
  submit: '提交申请',
  approve: '审批通过',
  reject: '驳回',
  withdraw: '撤回',
  expire: '已过期',
  created: '分享已生效',
};

/** What an application asks for, and everything that happened to it. */
export function ApplicationDrawer({ app, onClose }: { app: ShareApplication | null; onClose: () => void }) {
  return (
    <Drawer open={app !== null} title="申请详情" width={520} onClose={onClose} destroyOnHidden data-testid="application-drawer">
      {app && (
        <>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="状态">
              <Tag color={applicationColor(app.state)} data-testid="application-state">
                {APPLICATION_STATE_LABELS[app.state]}
              </Tag>
              {app.levels > 1 && <span style={{ color: '#999' }}>第 {app.level} / {app.levels} 级</span>}
            </Descriptions.Item>
            <Descriptions.Item label="类型">{SHARE_KIND_LABELS[app.kind]}</Descriptions.Item>
            <Descriptions.Item label="申请人">
              {app.applicant.nickName}（{app.applicant.account}）
            </Descriptions.Item>
            <Descriptions.Item label="文件">{app.files.map((f) => f.name || '（已删除）').join('、')}</Descriptions.Item>
            {app.share && (
              <>
                <Descriptions.Item label="共享对象">{app.share.recipientNames.map((r) => `${r.name}（${SHARE_RECIPIENT_LABELS[r.type]}）`).join('、')}</Descriptions.Item>
                <Descriptions.Item label="权限">{SHARE_PERMISSION_LABELS[app.share.permission]}</Descriptions.Item>
                <Descriptions.Item label="有效期">{app.share.validityDays ? `${app.share.validityDays} 天` : '永久有效'}</Descriptions.Item>
              </>
            )}
            {app.link && (
              <>
                {app.linkId && <Descriptions.Item label="用途">放宽已有链接（审批通过后原链接按此修改，地址不变）</Descriptions.Item>}
                <Descriptions.Item label="提取码">{app.link.code === null ? '无' : app.link.code || '自动生成'}</Descriptions.Item>
                <Descriptions.Item label="有效期">{app.link.validityDays ? `${app.link.validityDays} 天` : '永久有效'}</Descriptions.Item>
                <Descriptions.Item label="下载次数">{app.link.downloadLimit ?? '不限'}</Descriptions.Item>
                <Descriptions.Item label="仅预览">{app.link.previewOnly ? '是' : '否'}</Descriptions.Item>
              </>
            )}
            <Descriptions.Item label="申请理由">{app.reason}</Descriptions.Item>
            {app.state === 'pending' && <Descriptions.Item label="当前审批人">{app.approver?.nickName ?? '-'}</Descriptions.Item>}
            {app.state === 'pending' && <Descriptions.Item label="过期时间">{formatDateTime(app.expiresAt)}</Descriptions.Item>}
            {app.comment && <Descriptions.Item label={app.state === 'rejected' ? '驳回理由' : '审批意见'}>{app.comment}</Descriptions.Item>}
          </Descriptions>
          <h4 style={{ marginTop: 24 }}>处理记录</h4>
          <Timeline
            data-testid="application-history"
            items={app.history.map((h) => ({
              color: h.kind === 'reject' ? 'red' : h.kind === 'approve' || h.kind === 'created' ? 'green' : h.kind === 'submit' ? 'blue' : 'gray',
              children: (
                <div>
                  <div>
                    {STEP_LABELS[h.kind]}
                    {h.kind === 'approve' && app.levels > 1 ? `（第 ${h.level} 级）` : ''}
                    {h.actor ? ` · ${h.actor.nickName}` : ''}
                  </div>
                  <div style={{ color: '#999', fontSize: 12 }}>{formatDateTime(h.at)}</div>
                  {h.comment && h.kind !== 'submit' && <div style={{ color: 'rgba(0,0,0,0.65)' }}>{h.comment}</div>}
                </div>
              ),
            }))}
          />
        </>
      )}
    </Drawer>
  );
}
