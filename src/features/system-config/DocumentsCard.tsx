import { Alert, Button, Card, Col, Row, Space, Statistic, Table, Typography } from 'antd';
import type { DocumentFailure } from '../../../common/api/endpoints/documents';
import { formatDateTime } from '../../../common/format/date';
import { formatSize } from '../../../common/format/size';
import { useDocumentPipeline, useRetryDocuments } from '../../lib/data/documents';
import { useOnline } from '../../lib/data/online';
import { useFeedback } from '../../lib/feedback/feedback';

const ISOLATION_LABELS = { netns: '独立网络命名空间（无网络）', 'user-netns': '独立用户与网络命名空间（无网络）', 'no-proxy': '仅去除代理设置（未能隔离网络）' } as const;

/**
 * 文档预览 (issue 41): how the tenant's Office, PDF and text files are being converted for previews,
 * thumbnails and search — counts by state, the failures with their reasons and 重试 — and whether
 * LibreOffice is installed on the server (what is missing when it is not). In 系统配置 because it is the
 * server's capability an admin checks when previews do not appear.
 */
export function DocumentsCard() {
  const status = useDocumentPipeline();
  const retry = useRetryDocuments();
  const online = useOnline();
  const { message } = useFeedback();
  const data = status.data;

  const retryJobs = (jobIds?: string[]) =>
    retry.mutate(jobIds ? { jobIds } : {}, {
      onSuccess: ({ retried }) => void message.success(retried > 0 ? `已重新排队 ${retried} 个文件` : '没有需要重试的文件'),
    });

  return (
    <Card title="文档预览" loading={status.isPending && !data} data-testid="documents-card">
      <Typography.Paragraph type="secondary">
        Word、Excel、PowerPoint 文件上传后在后台用 LibreOffice 转换为 PDF 供在线预览；PDF 与文本文件提取文字供全文搜索，并生成首页缩略图。每个文件内容只转换一次。
      </Typography.Paragraph>
      {status.isError && !data && <Alert type="error" showIcon message="文档预览状态加载失败" />}
      {data && !data.converter.installed && (
        <Alert
          type="warning"
          showIcon
          data-testid="documents-missing"
          message="LibreOffice 未安装"
          description={`服务器缺少：${data.converter.missing.join('、')}。安装前 Office 文件无法预览（显示「该文件类型暂不支持预览」），已上传的文件在安装并重启服务后自动转换。`}
          style={{ marginBottom: 16 }}
        />
      )}
      {data && (
        <>
          <Row gutter={16} style={{ marginBottom: 16 }}>
            <Col span={6} data-testid="documents-queued"><Statistic title="排队中" value={data.counts.queued} /></Col>
            <Col span={6} data-testid="documents-running"><Statistic title="转换中" value={data.counts.running} /></Col>
            <Col span={6} data-testid="documents-done"><Statistic title="已完成" value={data.counts.done} /></Col>
            <Col span={6} data-testid="documents-failed">
              <Statistic title="失败" value={data.counts.failed} valueStyle={data.counts.failed > 0 ? { color: '#cf1322' } : undefined} />
            </Col>
          </Row>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
            每个服务进程同时转换 {data.converter.workers} 个文件，单个文件限时 {Math.round(data.converter.timeLimitMs / 1000)} 秒、大小上限 {formatSize(data.converter.maxBytes)}；网络隔离：{ISOLATION_LABELS[data.converter.isolation]}。
          </Typography.Paragraph>
          {data.failures.length > 0 && (
            <>
              <Space style={{ marginBottom: 8 }}>
                <Typography.Text strong>转换失败的文件</Typography.Text>
                <Button size="small" disabled={!online} loading={retry.isPending} onClick={() => retryJobs()} data-testid="documents-retry-all">
                  全部重试
                </Button>
              </Space>
              <Table<DocumentFailure>
                size="small"
                rowKey="jobId"
                pagination={false}
                dataSource={data.failures}
                data-testid="documents-failures"
                columns={[
                  { title: '文件名', dataIndex: 'name', ellipsis: true },
                  { title: '原因', dataIndex: 'error' },
                  { title: '时间', dataIndex: 'failedAt', width: 170, render: (at: number | null) => (at == null ? '' : formatDateTime(at)) },
                  {
                    title: '操作',
                    width: 80,
                    render: (_: unknown, row) => (
                      <Button type="link" size="small" disabled={!online || retry.isPending} onClick={() => retryJobs([row.jobId])}>
                        重试
                      </Button>
                    ),
                  },
                ]}
              />
            </>
          )}
        </>
      )}
    </Card>
  );
}
