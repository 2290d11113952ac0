import { DownloadOutlined, ReloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Dropdown, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import type { ActionLogEntry, ActionLogFilter } from '../../../common/api/action-log';
import { formatDateTime } from '../../../common/format/date';
import { Permission } from '../../lib/button-permissions';
import { useOnline } from '../../lib/data/online';
import { useFeedback } from '../../lib/feedback/feedback';
import { startDownload } from '../../lib/save-blob';
import { downloadCheckpoint, exportHref } from './action-log-api';
import { ActionLogDetail } from './ActionLogDetail';
import { ActionLogFilters } from './ActionLogFilters';
import { ActionLogTable } from './ActionLogTable';
import { useActionLog } from './use-action-log';

/** The button permission of the export (admins hold it; server: ALL_PERMISSIONS). */
const EXPORT = 'system:actionLog';

/**
 * Spec §2 `/main/system/actionLog` (admins): who did what to what, from where, when and with what
 * outcome; filtered, keyset-paged and virtualised (a million-row log scrolls like a short one), each
 * record opened in a drawer, the filtered set exported as .xlsx or .csv by the server (streamed),
 * and a signed checkpoint of the chain's head downloaded to keep off the server (校验点).
 */
export function ActionLogPage() {
  const online = useOnline();
  const [filter, setFilter] = useState<ActionLogFilter>({});
  const [open, setOpen] = useState<ActionLogEntry | null>(null);
  const log = useActionLog(filter);
  const { message } = useFeedback();
  const [signing, setSigning] = useState(false);
  const checkpoint = () => {
    setSigning(true);
    downloadCheckpoint().then(
      (c) => {
        message.success(`已下载校验点（第 ${c.seq} 条），请保存在服务器之外`);
        // The download is itself on record: the list shows it.
        log.reload();
      },
      // The API client has shown the refusal's message.
      () => undefined,
    ).finally(() => setSigning(false));
  };

  const footer = log.loading ? (
    <div className="al-footer">
      <Spin size="small" /> 加载中…
    </div>
  ) : log.hasMore ? (
    <div className="al-footer" data-testid="action-log-more">
      {log.scannedTo !== null ? `已检索至 ${formatDateTime(log.scannedTo)}，继续检索更早的记录…` : '加载更多…'}
    </div>
  ) : (
    <div className="al-footer" data-testid="action-log-end">
      {log.items.length === 0 ? '没有符合条件的操作记录' : `共 ${log.items.length} 条，已全部加载`}
    </div>
  );

  const exportMenu = {
    items: [
      { key: 'xlsx', label: '导出为 Excel（.xlsx）' },
      { key: 'csv', label: '导出为 CSV（.csv）' },
    ],
    onClick: ({ key }: { key: string }) => startDownload(exportHref(filter, key === 'csv' ? 'csv' : 'xlsx')),
  };

  return (
    <Card
      title="操作日志"
      data-testid="action-log-page"
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: 12, height: 'calc(100vh - 190px)', minHeight: 420 } }}
      extra={
        <Space>
          <Button icon={<ReloadOutlined />} onClick={log.reload} disabled={!online}>
            刷新
          </Button>
          <Permission code={EXPORT}>
            <Dropdown menu={exportMenu} disabled={!online} trigger={['click']}>
              <Button icon={<DownloadOutlined />} disabled={!online} title={online ? undefined : '离线时不可用'} data-testid="action-log-export">
                导出
              </Button>
            </Dropdown>
          </Permission>
          <Permission code={EXPORT}>
            <Button
              icon={<SafetyCertificateOutlined />}
              onClick={checkpoint}
              loading={signing}
              disabled={!online}
              title={online ? '下载已签名的日志链校验点，保存在服务器之外，日后可核对日志未被截断或改动' : '离线时不可用'}
              data-testid="action-log-checkpoint"
            >
              下载校验点
            </Button>
          </Permission>
        </Space>
      }
    >
      <ActionLogFilters onApply={setFilter} disabled={!online} />
      {log.error && <Alert type="error" showIcon title="操作日志加载失败，请稍后重试" />}
      <ActionLogTable items={log.items} hasMore={log.hasMore} loadMore={log.loadMore} onOpen={setOpen} footer={footer} />
      {log.head && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="action-log-head">
          日志链当前位置：第 {log.head.seq} 条 · 哈希 {log.head.hash.slice(0, 16)}…（下载校验点并保存在服务器之外，日后可核对日志未被截断或改动）
        </Typography.Text>
      )}
      <ActionLogDetail entry={open} onClose={() => setOpen(null)} />
    </Card>
  );
}
