import { CameraOutlined, EditOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Input, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { ERRORS } from '../../../common/api/errors';
import type { UserDetails } from '../../../common/api/types';
import { NICKNAME_MAX_LENGTH, nicknameProblem } from '../../../common/org/account';
import { updateProfile } from '../../lib/account-api';
import { ApiCallError } from '../../lib/api-client';
import { QUERY_KEYS } from '../../lib/data/queries';
import { useFeedback } from '../../lib/feedback/feedback';

const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** The server's refusal of a field, to show under it; anything else was shown by the API client. */
function fieldError(e: unknown): string | null {
  return e instanceof ApiCallError && e.failure.kind === 'badRequest' ? e.failure.errorMessage : null;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/** The avatar with 更换头像: PNG, JPG, WebP or GIF up to 2 MB, checked here before it is sent. */
export function AvatarEditor({ user, onSaved }: { user: UserDetails; onSaved: (next: UserDetails) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { message } = useFeedback();

  async function picked(file: File | undefined) {
    if (!file) return;
    if (!AVATAR_TYPES.includes(file.type)) return setError('请选择 PNG、JPG、WebP 或 GIF 图片');
    if (file.size > AVATAR_MAX_BYTES) return setError('头像图片不能超过 2MB');
    setError(null);
    setBusy(true);
    try {
      onSaved(await updateProfile({ avatar: await readAsDataUrl(file) }, [ERRORS.TENANT_IMAGE_INVALID.code, ERRORS.TENANT_IMAGE_TOO_LARGE.code]));
      message.success('头像已更新');
    } catch (e) {
      setError(fieldError(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 8, width: 120 }}>
      <Avatar size={80} src={user.avatar || undefined} icon={<UserOutlined />} alt={`${user.nickName}的头像`} data-testid="user-info-avatar" />
      <input
        ref={input}
        type="file"
        accept={AVATAR_TYPES.join(',')}
        hidden
        data-testid="avatar-input"
        onChange={(e) => {
          void picked(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <Button size="small" icon={<CameraOutlined />} loading={busy} onClick={() => input.current?.click()} data-testid="avatar-change">
        更换头像
      </Button>
      {error && (
        <Typography.Text type="danger" style={{ fontSize: 12, textAlign: 'center' }} role="alert" data-testid="avatar-error">
          {error}
        </Typography.Text>
      )}
    </div>
  );
}

/** The nickname, with 修改 turning it into a field (Enter saves, Esc cancels; errors under the field). */
export function NicknameEditor({ user, onSaved }: { user: UserDetails; onSaved: (next: UserDetails) => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { message } = useFeedback();

  async function save() {
    if (draft === null) return;
    const broken = nicknameProblem(draft);
    if (broken) return setError(broken);
    if (draft.trim() === user.nickName) return setDraft(null);
    setBusy(true);
    try {
      onSaved(await updateProfile({ nickName: draft }, [ERRORS.NICKNAME_INVALID.code]));
      setDraft(null);
      message.success('昵称已更新');
    } catch (e) {
      setError(fieldError(e));
    } finally {
      setBusy(false);
    }
  }

  if (draft === null) {
    return (
      <Space size={4}>
        <span data-testid="user-info-nickname">{user.nickName || '-'}</span>
        <Button type="link" size="small" icon={<EditOutlined />} onClick={() => (setError(null), setDraft(user.nickName))} data-testid="nickname-edit">
          修改
        </Button>
      </Space>
    );
  }
  return (
    <div style={{ width: '100%', maxWidth: 360 }}>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          autoFocus
          value={draft}
          maxLength={NICKNAME_MAX_LENGTH}
          status={error ? 'error' : undefined}
          aria-label="昵称"
          aria-invalid={error ? true : undefined}
          onChange={(e) => setDraft(e.target.value)}
          onPressEnter={() => void save()}
          onKeyDown={(e) => e.key === 'Escape' && setDraft(null)}
          data-testid="nickname-input"
        />
        <Button type="primary" loading={busy} onClick={() => void save()} data-testid="nickname-save">
          保存
        </Button>
        <Button onClick={() => setDraft(null)}>取消</Button>
      </Space.Compact>
      {error && (
        <Typography.Text type="danger" style={{ fontSize: 12 }} role="alert" data-testid="nickname-error">
          {error}
        </Typography.Text>
      )}
    </div>
  );
}

/** Puts the server's answer into the data layer, so the header and every page show it at once. */
export function useProfileSaved(): (next: UserDetails) => void {
  const client = useQueryClient();
  return (next) => client.setQueryData(QUERY_KEYS.userDetails, next);
}
