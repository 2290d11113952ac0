import { EditOutlined } from '@ant-design/icons';
import { Typography } from 'antd';
import { ONLINE_EDIT_EXTENSIONS } from '../../../../common/api/sharing';
import type { FileEntry } from '../../../../common/api/types';
import { extensionOf } from '../../../../common/files/extension';
import { useCanOperate } from '../../../lib/data/sharing';

/**
 * 在线编辑 for a file shared with the caller (spec §7 onlyoffice/canoperationforshare): the server's
 * answer as one line in the preview — why it cannot be edited online (a preview or download share,
 * a lock), or that it may be edited once the server has an online editor (none is configured on
 * ours yet, and the answer says so). Nothing for files that are not shared, or of a type no editor opens.
 */
export function OnlineEditNote({ file }: { file: FileEntry }) {
  const asked = file.share !== null && file.share !== undefined && !file.isDir && ONLINE_EDIT_EXTENSIONS.includes(extensionOf(file.name));
  const answer = useCanOperate(asked ? file.id : null).data;
  if (!asked || !answer) return null;
  const text = !answer.canEdit ? `不能在线编辑：${answer.reason ?? '没有编辑权限'}` : answer.editorAvailable ? '可在线编辑' : '您有编辑权限；服务器尚未配置在线编辑服务，请下载后编辑并上传新版本';
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="preview-online-edit">
      <EditOutlined style={{ marginInlineEnd: 4 }} />
      {text}
    </Typography.Text>
  );
}
