import { EyeOutlined } from '@ant-design/icons';
import { Button, Descriptions, Drawer, Input, Tag, Timeline } from 'antd';
import { useState } from 'react';
import {
  APPLICATION_COMMENT_MAX,
  APPLICATION_STATE_LABELS,
  SHARE_KIND_LABELS,
  SHARE_PERMISSION_LABELS,
  SHARE_RECIPIENT_LABELS,
  type ApplicationStepKind,
  type ShareApplication,
} from '../../../common/api/sharing';
import { formatDateTime } from '../../../common/format/date';
import { FileKindIcon } from '../../components/FileKindIcon';
import { Permission } from '../../lib/button-permissions';
import { useCurrentUser } from '../../lib/current-user';
import { approveApplications, rejectApplications, useSharingChanged } from '../../lib/data/sharing';
import { useFeedback } from '../../lib/feedback/feedback';
import { usePhone } from '../../lib/use-phone';
import { ApplicationFilePreview, viewerOf } from './ApplicationFilePreview';
import { applicationColor } from './sharing-ui';

const STEP_LABELS: Record<ApplicationStepKind, string> = {
  submit: '提交申请',
  approve: '审批通过',
  reject: '驳回',
  withdraw: '撤回',
  expire: '已过期',
  created: '分享已生效',
};

/**
 * 申请详情: what an application asks for, its files (with a preview where the rules allow it:
 * ApplicationFilePreview), everything that happened to it, and — for its current approver while it
 * waits — 通过 / 驳回 with a comment the applicant is told. Shown from 我的申请 and 审批, and opened by
 * a message (`?id=`); it reads the application through the data layer, so it follows a decision
 * made elsewhere (a message's arrival refreshes it).
 */
export function ApplicationDrawer({ app, onClose }: { app: ShareApplication | null; onClose: () => void }) {
  const phone = usePhone();
  const me = useCurrentUser();
  const viewer = app && me ? viewerOf(app, me) : null;
  const [shown, setShown] = useState<string | null>(null);
  // The approver sees the first file they may view at once; anyone may pick another.
  const firstViewable = viewer?.as === 'approver' ? (app?.files.find((f) => viewer.mode(f) !== null)?.id ?? null) : null;
  const previewed = app?.files.find((f) => f.id === (shown ?? firstViewable)) ?? null;
  const close = () => {
    setShown(null);
    onClose();
  };
  return (
    <Drawer
      open={app !== null}
      title="申请详情"
      size={phone ? '100%' : 560}
      onClose={close}
      destroyOnHidden
      data-testid="application-drawer"
      footer={app && viewer?.as === 'approver' ? <Decision app={app} /> : null}
    >
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
            <Descriptions.Item label="文件">
              <div style={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="application-files">
                {app.files.map((f) => (
                  <span key={f.id} style={{ display: 'flex', alignItems: 'center', gap: 6, minWidth: 0 }}>
                    <FileKindIcon kind={f.isDir ? 'folder' : f.kind} />
                    <span style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>{f.name || '（已删除）'}</span>
                    {viewer && viewer.mode(f) !== null && (
                      <Button size="small" type="link" icon={<EyeOutlined />} onClick={() => setShown(f.id)} data-testid={`application-preview-${f.id}`}>
                        预览
                      </Button>
                    )}
                  </span>
                ))}
              </div>
            </Descriptions.Item>
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
            {app.comment && (
              <Descriptions.Item label={app.state === 'rejected' ? '驳回理由' : '审批意见'}>
                <span data-testid="application-comment">{app.comment}</span>
              </Descriptions.Item>
            )}
          </Descriptions>
          {viewer && previewed && viewer.mode(previewed) !== null && <ApplicationFilePreview key={previewed.id} file={previewed} viewer={viewer} />}
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

/** 通过 / 驳回 at the foot of the drawer: a comment (required to reject: the applicant is told why). */
function Decision({ app }: { app: ShareApplication }) {
  const { message, modal } = useFeedback();
  const changed = useSharingChanged();
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState<'approve' | 'reject' | null>(null);
  const decide = async (approve: boolean) => {
    const text = comment.trim();
    if (!approve && !text) {
      void message.warning('请填写驳回理由');
      return;
    }
    setBusy(approve ? 'approve' : 'reject');
    try {
      const r = approve ? await approveApplications({ ids: [app.id], comment: text }) : await rejectApplications([app.id], text);
      const failed = r.results.find((x) => !x.ok);
      if (failed && !failed.ok) modal.warning({ title: '未能处理', content: failed.errorMessage });
      else void message.success(approve ? '已通过' : '已驳回');
      setComment('');
      changed();
    } catch {
      // The API client has shown why.
    } finally {
      setBusy(null);
    }
  };
  return (
    <Permission code="share:approve">
      <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }} data-testid="application-decision">
        <Input.TextArea
          rows={2}
          maxLength={APPLICATION_COMMENT_MAX}
          showCount
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          placeholder="审批意见（通过时可选，驳回时必填，申请人会看到）"
          data-testid="application-comment-input"
        />
        {/* Clear of the count under the box. */}
        <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end', marginTop: 16 }}>
          <Button danger loading={busy === 'reject'} disabled={busy !== null} onClick={() => void decide(false)} data-testid="application-reject">
            驳回
          </Button>
          <Button type="primary" loading={busy === 'approve'} disabled={busy !== null} onClick={() => void decide(true)} data-testid="application-approve">
            通过
          </Button>
        </div>
      </div>
    </Permission>
  );
}
