import { ArrowLeftOutlined, DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Input, Result, Space, Statistic, Switch, Tag, Tooltip, Typography, Upload } from 'antd';
import { useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { IMPORT_MAX_BYTES, type ImportPreview, type ImportResult, type ImportRow } from '../../../common/api/types';
import { encryptPassword } from '../../../common/crypto/password-cipher';
import { formatSize } from '../../../common/format/size';
import { validateNewPassword } from '../../../common/validation/password';
import { OFFLINE_REASON, OnlineOnly } from '../../components/OnlineOnly';
import { VirtualRows } from '../../components/VirtualRows';
import { useOnline } from '../../lib/data/online';
import { ORG_KEYS } from '../../lib/data/org';
import { useFeedback } from '../../lib/feedback/feedback';
import { USERS_KEY } from './use-user-pages';
import { commitImport, previewImport, resultUrl, templateUrl } from './users-api';

const GRID = { display: 'grid', gridTemplateColumns: '56px 1.1fr 1fr 120px 1.3fr 80px 70px 70px 2.4fr', gap: 8, alignItems: 'center', padding: '0 8px' } as const;

function RowsTable({ rows }: { rows: ImportRow[] }) {
  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: 420, border: '1px solid #f0f0f0', borderRadius: 8 }} role="table" aria-label="导入预览">
      <div role="row" style={{ ...GRID, height: 38, background: '#fafafa', fontWeight: 500 }}>
        {['行号', '账号', '昵称', '手机号', '部门', '角色', '配额', '外网', '结果'].map((h) => (
          <span key={h} role="columnheader">
            {h}
          </span>
        ))}
      </div>
      <VirtualRows
        testId="import-rows"
        count={rows.length}
        rowHeight={40}
        renderRow={(i, style) => {
          const r = rows[i]!;
          return (
            <div key={r.row} role="row" data-testid={`import-row-${r.row}`} style={{ ...style, ...GRID, borderTop: '1px solid #f5f5f5', background: r.ok ? undefined : '#fff2f0' }}>
              <span>{r.row}</span>
              <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{r.website}</span>
              <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{r.nickName}</span>
              <span>{r.phone}</span>
              <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{r.department || '未分配'}</span>
              <span>{r.role}</span>
              <span>{r.quota}</span>
              <span>{r.outerLogin}</span>
              <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={r.reasons.join('；')} data-testid="import-verdict">
                {r.ok ? <Tag color="green">可导入</Tag> : <Typography.Text type="danger">{r.reasons.join('；')}</Typography.Text>}
              </span>
            </div>
          );
        }}
      />
    </div>
  );
}

/**
 * 批量新增用户 (/main/system/user/batchAdd): download the template, upload a filled .xlsx or .csv (read
 * by the server), see every row's verdict with the exact reason, set the initial password, import the
 * good rows in one transaction, download the result.
 */
export function BatchAddPage() {
  const [, navigate] = useLocation();
  const { message } = useFeedback();
  const client = useQueryClient();
  const online = useOnline();
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [uploading, setUploading] = useState(false);
  const [importing, setImporting] = useState(false);
  const [onlyBad, setOnlyBad] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const rows = useMemo(() => (preview ? (onlyBad ? preview.rows.filter((r) => !r.ok) : preview.rows) : []), [preview, onlyBad]);

  async function upload(file: File) {
    setFileError(null);
    setResult(null);
    if (!/\.(xlsx|csv)$/i.test(file.name)) return setFileError('只支持 .xlsx 或 .csv 文件，请使用下载的模板');
    if (file.size > IMPORT_MAX_BYTES) return setFileError(`文件超过${formatSize(IMPORT_MAX_BYTES)}，请拆分后再导入`);
    setUploading(true);
    try {
      setPreview(await previewImport(file));
    } catch {
      setPreview(null);
    } finally {
      setUploading(false);
    }
  }

  async function run() {
    if (!preview) return;
    const broken = validateNewPassword(password);
    setPasswordError(broken);
    if (broken) return;
    setImporting(true);
    try {
      const done = await commitImport({ batchId: preview.batchId, password: encryptPassword(password) });
      setResult(done);
      message.success(`已导入 ${done.imported} 个用户`);
      void client.invalidateQueries({ queryKey: USERS_KEY });
      void client.invalidateQueries({ queryKey: ORG_KEYS.all });
    } catch {
      // shown by the API client
    } finally {
      setImporting(false);
    }
  }

  const downloads = (batchId: string) => (
    <Space>
      <Button icon={<DownloadOutlined />} href={resultUrl(batchId, 'xlsx')} data-testid="import-result-xlsx">
        下载结果（.xlsx）
      </Button>
      <Button icon={<DownloadOutlined />} href={resultUrl(batchId, 'csv')}>
        下载结果（.csv）
      </Button>
    </Space>
  );

  return (
    <Card
      data-testid="batch-add"
      title={
        <Space>
          <Tooltip title="返回用户列表">
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate('/main/system/user/list')} aria-label="返回用户列表" />
          </Tooltip>
          批量新增用户
        </Space>
      }
      extra={
        <Space>
          <Button icon={<DownloadOutlined />} href={templateUrl('xlsx')} data-testid="import-template">
            下载模板（.xlsx）
          </Button>
          <Button href={templateUrl('csv')}>下载模板（.csv）</Button>
        </Space>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }} size={16}>
        <Upload.Dragger
          accept=".xlsx,.csv"
          showUploadList={false}
          disabled={uploading || importing || !online}
          beforeUpload={(file) => {
            void upload(file);
            return false;
          }}
          data-testid="import-upload"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p>{!online ? OFFLINE_REASON : uploading ? '正在读取文件…' : '点击或拖入填好的 .xlsx 或 .csv 文件'}</p>
          <p style={{ color: '#999' }}>最大 {formatSize(IMPORT_MAX_BYTES)}，最多 20000 行；先预览，确认后才导入</p>
        </Upload.Dragger>
        {fileError ? <Alert type="error" showIcon message={fileError} data-testid="import-file-error" /> : null}
        {preview && !result ? (
          <>
            <Space size={32} wrap>
              <Statistic title="文件" value={preview.fileName} valueStyle={{ fontSize: 16 }} />
              <Statistic title="总行数" value={preview.total} />
              <Statistic title="可导入" value={preview.good} valueStyle={{ color: '#389e0d' }} />
              <Statistic title="有问题" value={preview.bad} valueStyle={{ color: preview.bad ? '#cf1322' : undefined }} />
              <Space size={4}>
                <Switch size="small" checked={onlyBad} onChange={setOnlyBad} />
                只看有问题的行
              </Space>
            </Space>
            <RowsTable rows={rows} />
            <Space wrap align="start">
              <div>
                <Input.Password
                  placeholder="导入用户的初始密码"
                  maxLength={16}
                  value={password}
                  status={passwordError ? 'error' : undefined}
                  onChange={(e) => setPassword(e.target.value)}
                  onBlur={() => setPasswordError(validateNewPassword(password))}
                  style={{ width: 260 }}
                  autoComplete="new-password"
                  data-testid="import-password"
                />
                <div style={{ color: '#cf1322', minHeight: 22 }}>{passwordError}</div>
              </div>
              <OnlineOnly>
                <Button type="primary" disabled={preview.good === 0} loading={importing} onClick={() => void run()} data-testid="import-commit">
                  导入 {preview.good} 个用户
                </Button>
              </OnlineOnly>
              {downloads(preview.batchId)}
            </Space>
            <Typography.Text type="secondary">有问题的行不会导入；所有可导入的行在一次操作中导入，导入时会再次检查。用户首次登录须修改初始密码。</Typography.Text>
          </>
        ) : null}
        {result ? (
          <Result
            status={result.skipped ? 'warning' : 'success'}
            title={`已导入 ${result.imported} 个用户`}
            subTitle={result.skipped ? `${result.skipped} 行未导入，原因见结果文件` : '全部导入成功'}
            extra={
              <Space direction="vertical">
                {downloads(result.batchId)}
                <Button onClick={() => navigate('/main/system/user/list')}>返回用户列表</Button>
              </Space>
            }
            data-testid="import-done"
          />
        ) : null}
      </Space>
    </Card>
  );
}
