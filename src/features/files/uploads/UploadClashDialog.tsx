import { Button, Modal, Space, Typography } from 'antd';
import type { ClashChoice } from './upload-clash';

export interface UploadClashQuestion {
  folderName: string;
  names: string[];
  /** How many of them cannot become a new version (a folder, another member's file). */
  notReplaceable: number;
}

const SHOWN = 8;

/**
 * Asks, before anything is queued, what to do with picked files whose names already exist in the
 * folder: upload them as new versions, keep both (a free name), skip them, or cancel the upload.
 */
export function UploadClashDialog({ question, onAnswer }: { question: UploadClashQuestion | null; onAnswer: (choice: ClashChoice) => void }) {
  const names = question?.names ?? [];
  const allLocked = question !== null && question.notReplaceable === names.length;
  return (
    <Modal open={question !== null} title="上传的文件与已有文件同名" footer={null} onCancel={() => onAnswer('cancel')} destroyOnHidden>
      {question && (
        <div data-testid="upload-clash-dialog">
          <Typography.Paragraph>
            「<Typography.Text strong>{question.folderName}</Typography.Text>」中已有 {names.length} 个同名的文件或文件夹：
          </Typography.Paragraph>
          <ul style={{ margin: '0 0 12px', paddingInlineStart: 20, maxHeight: 180, overflow: 'auto' }} data-testid="upload-clash-names">
            {names.slice(0, SHOWN).map((n) => (
              <li key={n}>{n}</li>
            ))}
            {names.length > SHOWN && <li>……等 {names.length} 个</li>}
          </ul>
          {question.notReplaceable > 0 && (
            <Typography.Paragraph type="secondary">其中 {question.notReplaceable} 个是文件夹或他人的文件，不能覆盖为新版本，将保留两者。</Typography.Paragraph>
          )}
          <Space wrap style={{ width: '100%', justifyContent: 'flex-end' }}>
            <Button onClick={() => onAnswer('cancel')} data-testid="upload-clash-cancel">
              取消上传
            </Button>
            <Button onClick={() => onAnswer('skip')} data-testid="upload-clash-skip">
              跳过同名文件
            </Button>
            <Button onClick={() => onAnswer('rename')} data-testid="upload-clash-rename">
              保留两者
            </Button>
            <Button type="primary" disabled={allLocked} onClick={() => onAnswer('newVersion')} data-testid="upload-clash-new-version">
              覆盖为新版本
            </Button>
          </Space>
        </div>
      )}
    </Modal>
  );
}
