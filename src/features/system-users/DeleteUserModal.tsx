import { Alert, Button, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { ERRORS } from '../../../common/api/errors';
import type { UserRow } from '../../../common/api/types';
import { formatSize } from '../../../common/format/size';
import { OrgPicker, type OrgSelection } from '../../components/OrgPicker';
import { ApiCallError } from '../../lib/api-client';
import { useFeedback } from '../../lib/feedback/feedback';
import { deleteUser, handOverFiles } from './users-api';

/**
 * Deleting an account: refused by the server while it owns files (USER_HAS_FILES, with how many);
 * then this offers to hand them to another person first (one transaction, quota moved with them).
 */
export function DeleteUserModal({ user, onClose, onDone }: { user: UserRow | null; onClose: () => void; onDone: () => void }) {
  const { message } = useFeedback();
  const [busy, setBusy] = useState(false);
  const [hasFiles, setHasFiles] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);

  const close = () => {
    setHasFiles(null);
    onClose();
  };

  async function remove() {
    if (!user) return;
    setBusy(true);
    try {
      await deleteUser(user.id, [ERRORS.USER_HAS_FILES.code]);
      message.success(`已删除账号 ${user.website}`);
      onDone();
      close();
    } catch (err) {
      if (err instanceof ApiCallError && err.failure.kind === 'badRequest' && err.failure.errorCode === ERRORS.USER_HAS_FILES.code) setHasFiles(err.failure.errorMessage);
    } finally {
      setBusy(false);
    }
  }

  async function handOver(selection: OrgSelection) {
    const to = selection.users[0];
    setPicking(false);
    if (!user || !to) return;
    setBusy(true);
    try {
      const moved = await handOverFiles(user.id, to.id);
      message.success(`已将 ${moved.entries} 个文件和文件夹（${formatSize(moved.bytes)}）转移给 ${to.nickName}`);
      setHasFiles(null);
      onDone();
    } catch {
      // the API client has shown why
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Modal
        open={user !== null}
        title={`删除账号 ${user?.website ?? ''}`}
        onCancel={close}
        footer={
          <Space>
            <Button onClick={close}>取消</Button>
            {hasFiles ? (
              <Button type="primary" loading={busy} onClick={() => setPicking(true)} data-testid="user-hand-over">
                转移文件给…
              </Button>
            ) : null}
            <Button danger type="primary" loading={busy} onClick={() => void remove()} data-testid="user-delete-confirm">
              删除
            </Button>
          </Space>
        }
      >
        <Typography.Paragraph>
          删除后该账号无法再登录，账号名和手机号可重新使用；其群组成员身份、收藏和未完成的上传一并结束，操作记录仍保留。
        </Typography.Paragraph>
        {hasFiles ? <Alert type="warning" showIcon message={hasFiles} description="请先将其文件转移给其他用户（在同一事务中完成，占用空间随文件一起转移），再删除账号。" /> : null}
      </Modal>
      <OrgPicker open={picking} single required="请选择接收文件的用户" exclude={user ? [user.id] : undefined} title={`选择接收 ${user?.nickName ?? ''} 的文件的用户`} onCancel={() => setPicking(false)} onOk={(s) => void handOver(s)} />
    </>
  );
}
