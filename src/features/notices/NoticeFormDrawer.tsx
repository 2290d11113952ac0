import { Alert, Button, Checkbox, DatePicker, Drawer, Form, Input, Radio, Space, Spin, Switch, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { NoticeSaveRequest } from '../../../common/api/endpoints/notices';
import { NOTICE_TITLE_MAX, type ManagedNotice } from '../../../common/api/notices';
import { LoadFailure } from '../../components/LoadFailure';
import { EMPTY_SELECTION, OrgPicker, type OrgSelection } from '../../components/OrgPicker';
import { useFeedback } from '../../lib/feedback/feedback';
import { retryingImport } from '../../lib/module-retry';
import type { NoticeEditor as NoticeEditorComponent } from './NoticeEditor';
import { saveNotice } from './notice-manage-api';

type EditorModule = { NoticeEditor: typeof NoticeEditorComponent };
/** The editor's chunk; once its import failed, 重试 imports it again (lib/module-retry.ts). */
const importEditor = retryingImport<EditorModule>(() => import('./NoticeEditor'), (m) => typeof m.NoticeEditor === 'function');
const loadEditor = () => lazy(async () => ({ default: (await importEditor()).NoticeEditor }));
let NoticeEditor = loadEditor();

type PublishMode = NoticeSaveRequest['publish'];

interface Draft {
  title: string;
  content: string;
  all: boolean;
  audience: OrgSelection;
  important: boolean;
  pinned: boolean;
  platform: boolean;
  publish: PublishMode;
  publishAt: Dayjs | null;
}

function draftOf(notice: ManagedNotice | null): Draft {
  if (!notice) return { title: '', content: '', all: true, audience: EMPTY_SELECTION, important: false, pinned: false, platform: false, publish: 'now', publishAt: null };
  const name = (id: string) => notice.audienceNames[id] ?? '（已不存在）';
  return {
    title: notice.title,
    content: notice.content,
    all: notice.audience.all,
    audience: {
      departments: notice.audience.departmentIds.map((id) => ({ id, name: name(id) })),
      users: notice.audience.userIds.map((id) => ({ id, nickName: name(id), website: '' })),
    },
    important: notice.important,
    pinned: notice.pinned,
    platform: notice.platform,
    publish: notice.state === 'scheduled' ? 'at' : notice.state === 'draft' ? 'draft' : 'now',
    publishAt: notice.state === 'scheduled' && notice.publishAt ? dayjs(notice.publishAt) : null,
  };
}

/** Write or change a notice: title, rich text, audience, important (pops up at login), pinned, when. */
export function NoticeFormDrawer({ open, notice, platformAdmin, onClose }: { open: boolean; notice: ManagedNotice | null; platformAdmin: boolean; onClose: () => void }) {
  const { message } = useFeedback();
  const [draft, setDraft] = useState<Draft>(() => draftOf(notice));
  const [picking, setPicking] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [editorAttempt, setEditorAttempt] = useState(0);
  useEffect(() => {
    if (open) {
      setDraft(draftOf(notice));
      setError(null);
    }
  }, [open, notice]);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const published = notice !== null && (notice.state === 'published' || notice.state === 'withdrawn');

  const problem = (): string | null => {
    if (draft.title.trim() === '') return '请输入公告标题';
    if (draft.content.replace(/<[^>]*>/g, '').trim() === '') return '请输入公告内容';
    if (!draft.all && draft.audience.departments.length + draft.audience.users.length === 0) return '请选择接收公告的部门或人员';
    if (draft.publish === 'at' && (!draft.publishAt || draft.publishAt.valueOf() <= Date.now())) return '请选择晚于当前的发布时间';
    return null;
  };

  const submit = async () => {
    const bad = problem();
    setError(bad);
    if (bad) return;
    setSaving(true);
    try {
      await saveNotice({
        ...(notice ? { id: notice.id } : {}),
        title: draft.title.trim(),
        content: draft.content,
        audience: draft.all || draft.platform
          ? { all: true, departmentIds: [], userIds: [] }
          : { all: false, departmentIds: draft.audience.departments.map((d) => d.id), userIds: draft.audience.users.map((u) => u.id) },
        important: draft.important,
        pinned: draft.pinned,
        ...(notice ? {} : { platform: draft.platform }),
        publish: draft.publish,
        ...(draft.publish === 'at' && draft.publishAt ? { publishAt: draft.publishAt.valueOf() } : {}),
      });
      void message.success(draft.publish === 'draft' ? '草稿已保存' : draft.publish === 'at' ? '已设置定时发布' : '公告已发布');
      onClose();
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : '保存失败，请稍后重试');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={760}
      title={notice ? '编辑公告' : '新建公告'}
      destroyOnHidden
      data-testid="notice-form"
      extra={
        <Space>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={saving} onClick={() => void submit()} data-testid="notice-submit">
            {draft.publish === 'draft' ? '保存草稿' : draft.publish === 'at' ? '定时发布' : notice?.state === 'published' ? '保存' : '发布'}
          </Button>
        </Space>
      }
    >
      <Form layout="vertical">
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="notice-form-error" />}
        <Form.Item label="标题" required>
          <Input value={draft.title} maxLength={NOTICE_TITLE_MAX} showCount onChange={(e) => set({ title: e.target.value })} data-testid="notice-title" />
        </Form.Item>
        <Form.Item label="内容" required>
          {/* The editor's code failed to load (or the editor failed to start): say so in its place with
              重试, and keep the drawer and what was typed. Without this boundary the error reached the
              drawer's own (lazyWhenOpen), which closes the whole drawer and loses the draft. */}
          <LoadFailure
            key={editorAttempt}
            onFailed={(e) => console.warn('notice editor failed to load', e)}
            fallback={
              <Alert
                type="error"
                showIcon
                title="编辑器加载失败，请检查网络后重试"
                action={
                  <Button
                    size="small"
                    data-testid="notice-editor-retry"
                    onClick={() => {
                      // A failed import() stays failed for that promise: ask for the chunk anew.
                      NoticeEditor = loadEditor();
                      setEditorAttempt((n) => n + 1);
                    }}
                  >
                    重试
                  </Button>
                }
                data-testid="notice-editor-failed"
              />
            }
          >
            <Suspense fallback={<Spin />}>
              <NoticeEditor value={draft.content} onChange={(content) => set({ content })} />
            </Suspense>
          </LoadFailure>
        </Form.Item>
        <Form.Item label="接收范围" required>
          {platformAdmin && !notice && (
            <Checkbox checked={draft.platform} onChange={(e) => set({ platform: e.target.checked })} style={{ marginBottom: 8 }}>
              全平台公告（所有企业的全部用户）
            </Checkbox>
          )}
          {!draft.platform && (
            <>
              <Radio.Group value={draft.all ? 'all' : 'some'} onChange={(e) => set({ all: e.target.value === 'all' })} data-testid="notice-audience">
                <Radio value="all">全体成员</Radio>
                <Radio value="some">指定部门和人员</Radio>
              </Radio.Group>
              {!draft.all && (
                <div style={{ marginTop: 8 }}>
                  {draft.audience.departments.map((d) => (
                    <Tag key={d.id} color="blue">
                      {d.name}（含下级部门）
                    </Tag>
                  ))}
                  {draft.audience.users.map((u) => (
                    <Tag key={u.id}>{u.nickName}</Tag>
                  ))}
                  <Button size="small" onClick={() => setPicking(true)} data-testid="notice-pick-audience">
                    选择部门和人员
                  </Button>
                </div>
              )}
            </>
          )}
        </Form.Item>
        <Form.Item>
          <Space size="large" wrap>
            <Space>
              <Switch checked={draft.important} onChange={(important) => set({ important })} data-testid="notice-important" />
              重要（接收者登录时弹窗提醒一次）
            </Space>
            <Space>
              <Switch checked={draft.pinned} onChange={(pinned) => set({ pinned })} />
              置顶
            </Space>
          </Space>
        </Form.Item>
        <Form.Item label="发布方式">
          <Radio.Group value={draft.publish} onChange={(e) => set({ publish: e.target.value as PublishMode })} data-testid="notice-publish-mode">
            <Radio value="now">{notice?.state === 'published' ? '保存并保持发布' : '立即发布'}</Radio>
            <Radio value="at">定时发布</Radio>
            {!published && <Radio value="draft">存为草稿</Radio>}
          </Radio.Group>
          {draft.publish === 'at' && (
            <div style={{ marginTop: 8 }}>
              <DatePicker
                showTime={{ format: 'HH:mm' }}
                format="YYYY-MM-DD HH:mm"
                value={draft.publishAt}
                disabledDate={(d) => d.isBefore(dayjs().startOf('day'))}
                onChange={(publishAt) => set({ publishAt })}
                aria-label="发布时间"
              />
            </div>
          )}
        </Form.Item>
      </Form>
      <OrgPicker
        open={picking}
        title="选择接收公告的部门和人员"
        departments
        initial={draft.audience}
        onCancel={() => setPicking(false)}
        onOk={(audience) => (set({ audience }), setPicking(false))}
      />
    </Drawer>
  );
}
