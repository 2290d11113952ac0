import { FileOutlined, FolderOutlined } from '@ant-design/icons';
import { Button, Input, Modal, Segmented, Space, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { FORBIDDEN_NAME_CHARS } from '../../../../common/validation/names';
import { choiceProblem, defaultChoice, type NameChoice, type NameIssue } from './upload-names';

export interface UploadNameQuestion {
  issues: NameIssue[];
  /** Files in the whole pick (the ones with good names go up as they are). */
  files: number;
}

/** null: the user cancelled the upload. */
export type UploadNameAnswer = ReadonlyMap<string, NameChoice> | null;

const FORBIDDEN = new Set<string>(FORBIDDEN_NAME_CHARS);
const RULE = FORBIDDEN_NAME_CHARS.join(' ');

/** The name with each refused character marked, so the user sees what is wrong at a glance. */
function MarkedName({ name }: { name: string }) {
  const parts: ReactNode[] = [];
  let plain = '';
  for (const ch of name) {
    if (!FORBIDDEN.has(ch)) {
      plain += ch;
      continue;
    }
    if (plain) parts.push(plain);
    plain = '';
    parts.push(
      <mark key={parts.length} style={{ background: '#fff1f0', color: '#cf1322', padding: '0 1px', borderRadius: 2 }}>
        {ch}
      </mark>,
    );
  }
  if (plain) parts.push(plain);
  return <>{parts}</>;
}

const CHOICES = [
  { value: 'replace', label: '替换' },
  { value: 'rename', label: '改名' },
  { value: 'skip', label: '跳过' },
] as const;

function IssueRow({ issue, choice, onChoice }: { issue: NameIssue; choice: NameChoice; onChoice: (choice: NameChoice) => void }) {
  const problem = choiceProblem(issue, choice);
  const options = CHOICES.map((c) => ({ ...c, disabled: c.value === 'replace' && issue.suggestion === null }));
  const pick = (kind: NameChoice['kind']): void => {
    if (kind === 'rename') onChoice({ kind, name: issue.suggestion ?? issue.name });
    else onChoice({ kind });
  };
  return (
    <li data-testid="upload-name-row" data-path={issue.path} style={{ listStyle: 'none', padding: '10px 0', borderBottom: '1px solid #f0f0f0' }}>
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 8, flexWrap: 'wrap' }}>
        <span style={{ flex: '1 1 200px', minWidth: 0, wordBreak: 'break-all' }}>
          {issue.folder ? <FolderOutlined style={{ color: '#faad14', marginInlineEnd: 6 }} /> : <FileOutlined style={{ marginInlineEnd: 6 }} />}
          <span data-testid="upload-name-original">
            <MarkedName name={issue.path} />
          </span>
          {issue.folder && <Typography.Text type="secondary"> （文件夹，其中 {issue.files} 个文件）</Typography.Text>}
        </span>
        <Segmented size="small" value={choice.kind} options={options} onChange={(v) => pick(v as NameChoice['kind'])} data-testid="upload-name-choice" />
      </div>
      <Typography.Text type="danger" style={{ fontSize: 12, display: 'block' }} data-testid="upload-name-reason">
        {issue.problem.message}
      </Typography.Text>
      {choice.kind === 'replace' && issue.suggestion !== null && (
        <div style={{ fontSize: 13, wordBreak: 'break-all' }}>
          将上传为：
          <Typography.Text strong data-testid="upload-name-suggested">
            {issue.suggestion}
          </Typography.Text>
        </div>
      )}
      {choice.kind === 'rename' && (
        <div>
          <Input
            size="small"
            value={choice.name}
            status={problem ? 'error' : undefined}
            onChange={(e) => onChoice({ kind: 'rename', name: e.target.value })}
            placeholder="请输入新名称"
            aria-label={`${issue.name} 的新名称`}
            data-testid="upload-name-input"
          />
          {problem && (
            <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="upload-name-input-problem">
              {problem}
            </Typography.Text>
          )}
        </div>
      )}
      {choice.kind === 'skip' && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {issue.folder ? `不上传该文件夹（${issue.files} 个文件）` : '不上传该文件'}
        </Typography.Text>
      )}
    </li>
  );
}

/**
 * Asks, before anything is queued, what to do with picked names the rule refuses: each is shown with
 * its refused characters marked and the reason, and offered as its full-width twin (替换, the default),
 * a name to type (改名, checked as it is typed) or left out (跳过). One click — 替换并上传 — takes the
 * twins for all; 继续上传 takes the choices made row by row.
 */
export function UploadNameDialog({ question, onAnswer }: { question: UploadNameQuestion | null; onAnswer: (answer: UploadNameAnswer) => void }) {
  return (
    <Modal open={question !== null} title="文件名不符合命名规则" footer={null} onCancel={() => onAnswer(null)} destroyOnHidden width={600}>
      {question && <UploadNameForm question={question} onAnswer={onAnswer} />}
    </Modal>
  );
}

function UploadNameForm({ question, onAnswer }: { question: UploadNameQuestion; onAnswer: (answer: UploadNameAnswer) => void }) {
  const { issues, files } = question;
  const [choices, setChoices] = useState<ReadonlyMap<string, NameChoice>>(() => new Map(issues.map((i) => [i.path, defaultChoice(i)])));
  const choiceOf = (issue: NameIssue): NameChoice => choices.get(issue.path) ?? defaultChoice(issue);
  const blocked = issues.some((i) => choiceProblem(i, choiceOf(i)) !== null);
  const allReplace = issues.every((i) => choiceOf(i).kind === 'replace');
  const allReplaceable = issues.every((i) => i.suggestion !== null);
  const affected = new Set(issues.filter((i) => !issues.some((p) => p !== i && i.path.startsWith(`${p.path}/`))).map((i) => i.path));
  const others = files - issues.filter((i) => affected.has(i.path)).reduce((n, i) => n + i.files, 0);
  const replaceAll = (): void => onAnswer(new Map(issues.map((i) => [i.path, { kind: 'replace' }])));
  return (
    <div data-testid="upload-name-dialog">
      <Typography.Paragraph>
        名称不能包含以下字符：{RULE}（也不能含不可见字符、以点号结尾或使用系统保留名）。以下 {issues.length} 个名称需要修改后才能上传，可一键替换为相近的全角字符（如 , → ，、[ ] → 【】）：
      </Typography.Paragraph>
      <ul style={{ margin: 0, padding: 0, maxHeight: '45vh', overflowY: 'auto' }} data-testid="upload-name-list">
        {issues.map((issue) => (
          <IssueRow key={issue.path} issue={issue} choice={choiceOf(issue)} onChoice={(c) => setChoices((prev) => new Map(prev).set(issue.path, c))} />
        ))}
      </ul>
      {others > 0 && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          另有 {others} 个文件名称无误，将照常上传。
        </Typography.Paragraph>
      )}
      <Space wrap style={{ width: '100%', justifyContent: 'flex-end', marginTop: 12 }}>
        <Button onClick={() => onAnswer(null)} data-testid="upload-name-cancel">
          取消上传
        </Button>
        {issues.length > 1 && allReplaceable && !allReplace && (
          <Button onClick={replaceAll} data-testid="upload-name-replace-all">
            全部替换并上传
          </Button>
        )}
        <Button type="primary" disabled={blocked} onClick={() => onAnswer(choices)} data-testid="upload-name-go">
          {allReplace ? (issues.length > 1 ? '全部替换并上传' : '替换并上传') : '继续上传'}
        </Button>
      </Space>
    </div>
  );
}
