import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, DatePicker, Dropdown, Row, Skeleton, Statistic, Tabs } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { ReportRequest } from '../../../common/api/endpoints/reports';
import { reportExportUrl } from '../../../common/api/paths';
import { LOGIN_CLIENT_LABELS, LOGIN_NETWORK_LABELS, REPORT_KIND_LABELS, REPORT_KINDS, REPORT_MAX_DAYS, statsDayLabel, statsDayOf, type ReportKind } from '../../../common/api/reports';
import { formatSize } from '../../../common/format/size';
import { useOnline } from '../../lib/data/online';
import { DepartmentSelect } from '../../components/DepartmentSelect';
import { useReport } from '../../lib/data/reports';
import { startDownload } from '../../lib/save-blob';
import { dailyOption, pieOption, storageBarsOption } from './chart-options';
import { EChart } from './EChart';
import { applicationRows, ApproversTable, DepartmentsTable, FileTypesTable, GrowthTable, LoginsTable, PeopleTable, SharingTable } from './report-tables';
import './reports.css';

/** Today in Beijing time (the reports' days), as a local calendar date for the picker. */
const todayLabel = () => statsDayLabel(statsDayOf(Date.now()));
const PRESETS = (today: Dayjs) => [
  { label: '近 7 天', value: [today.subtract(6, 'day'), today] as [Dayjs, Dayjs] },
  { label: '近 30 天', value: [today.subtract(29, 'day'), today] as [Dayjs, Dayjs] },
  { label: '近 90 天', value: [today.subtract(89, 'day'), today] as [Dayjs, Dayjs] },
  { label: '今年', value: [today.startOf('year'), today] as [Dayjs, Dayjs] },
];

function Totals({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <div className="rp-totals" data-testid="report-totals">
      {items.map(([title, value]) => (
        <Statistic key={title} title={title} value={value as string} />
      ))}
    </div>
  );
}

const chartCard = (title: string, child: ReactNode, span = 24) => (
  <Col xs={24} xl={span}>
    <Card size="small" title={title}>
      {child}
    </Card>
  </Col>
);

/** One report's charts and tables. */
function ReportBody({ req }: { req: ReportRequest }) {
  const q = useReport(req);
  const r = q.data;
  const body = useMemo((): ReactNode => {
    if (!r || r.kind !== req.kind) return null;
    switch (r.kind) {
      case 'storage':
        return (
          <>
            <Totals items={[['人数', r.totals.people], ['已用空间', formatSize(r.totals.used)], ['配额合计', formatSize(r.totals.quota)]]} />
            <Row gutter={[12, 12]}>
              {chartCard('部门占用（含下级）', <EChart option={storageBarsOption(r.departments.slice().sort((a, b) => b.subtree.used - a.subtree.used).slice(0, 15).map((d) => ({ label: d.name, used: d.subtree.used, quota: d.subtree.quota })))} height={320} label="部门占用" />, 12)}
              {chartCard('个人占用前十五', <EChart option={storageBarsOption(r.people.slice(0, 15).map((p) => ({ label: p.name || p.account, used: p.used, quota: p.quota })))} height={320} label="个人占用" />, 12)}
              {chartCard('按部门', <DepartmentsTable rows={r.departments} />, 12)}
              {chartCard(`按人员（占用最多的 ${r.people.length} 人，导出含全部人员）`, <PeopleTable rows={r.people} />, 12)}
            </Row>
          </>
        );
      case 'growth':
        return (
          <>
            <Totals items={[['上传文件数', r.totals.uploads], ['上传流量', formatSize(r.totals.uploadBytes)], ['下载次数', r.totals.downloads], ['下载流量', formatSize(r.totals.downloadBytes)]]} />
            <Row gutter={[12, 12]}>
              {chartCard('存储占用', <EChart option={dailyOption(r.days, [{ name: '存储占用', value: (d) => d.storedBytes, bytes: true }])} label="存储占用趋势" testId="report-chart-storage" />, 12)}
              {chartCard('活跃人数', <EChart option={dailyOption(r.days, [{ name: '活跃人数', value: (d) => d.activePeople, type: 'bar' }])} label="活跃人数" />, 12)}
              {chartCard(
                '上传与下载',
                <EChart
                  option={dailyOption(r.days, [
                    { name: '上传文件数', value: (d) => d.uploads, type: 'bar' },
                    { name: '下载次数', value: (d) => d.downloads, type: 'bar' },
                    { name: '上传流量', value: (d) => d.uploadBytes, bytes: true },
                    { name: '下载流量', value: (d) => d.downloadBytes, bytes: true },
                  ])}
                  height={300}
                  label="上传与下载"
                  testId="report-chart-transfers"
                />,
              )}
              {chartCard('按日明细', <GrowthTable rows={r.days} />)}
            </Row>
          </>
        );
      case 'fileTypes': {
        const top = r.types.slice(0, 9).map((t) => ({ name: t.ext ? `.${t.ext}` : '无扩展名', value: t.count }));
        const rest = r.types.slice(9).reduce((s, t) => s + t.count, 0);
        return (
          <>
            <Totals items={[['上传文件数', r.totals.count], ['字节数', formatSize(r.totals.bytes)]]} />
            <Row gutter={[12, 12]}>
              {chartCard('上传文件类型（按数量）', <EChart option={pieOption(rest > 0 ? [...top, { name: '其他', value: rest }] : top)} height={300} label="文件类型" testId="report-chart-types" />, 12)}
              {chartCard('按类型', <FileTypesTable rows={r.types} />, 12)}
            </Row>
          </>
        );
      }
      case 'sharing':
        return (
          <>
            <Totals items={[['共享', r.totals.shares], ['创建外链', r.totals.links], ['外链访问', r.totals.linkVisits], ['外链下载', r.totals.linkDownloads]]} />
            <Row gutter={[12, 12]}>
              {chartCard(
                '分享活动',
                <EChart
                  option={dailyOption(r.days, [
                    { name: '共享', value: (d) => d.shares, type: 'bar', stack: 's' },
                    { name: '创建外链', value: (d) => d.links, type: 'bar', stack: 's' },
                    { name: '外链访问', value: (d) => d.linkVisits },
                    { name: '外链下载', value: (d) => d.linkDownloads },
                  ])}
                  height={300}
                  label="分享活动"
                />,
              )}
              {chartCard('分享申请（按结果）', <EChart option={pieOption(applicationRows(r.applications).filter((x) => x.value > 0))} height={260} label="分享申请结果" />, 12)}
              {chartCard('按审批人', <ApproversTable rows={r.approvers} />, 12)}
              {chartCard('按日明细', <SharingTable rows={r.days} />)}
            </Row>
          </>
        );
      case 'logins':
        return (
          <>
            <Totals items={[['登录次数', r.totals.logins], ['登录失败', r.totals.failed]]} />
            <Row gutter={[12, 12]}>
              {chartCard(
                '按日登录',
                <EChart
                  option={dailyOption(r.days, [
                    { name: '网页', value: (d) => d.web, type: 'bar', stack: 'l' },
                    { name: '内网客户端（3）', value: (d) => d.client3, type: 'bar', stack: 'l' },
                    { name: '外网客户端（4）', value: (d) => d.client4, type: 'bar', stack: 'l' },
                    { name: '登录失败', value: (d) => d.failed },
                  ])}
                  height={300}
                  label="按日登录"
                />,
              )}
              {chartCard('按客户端与网络', <EChart option={pieOption(r.rows.filter((x) => x.logins > 0).map((x) => ({ name: `${LOGIN_CLIENT_LABELS[x.client]} · ${LOGIN_NETWORK_LABELS[x.network]}`, value: x.logins })))} height={260} label="登录方式" />, 12)}
              {chartCard('登录方式明细', <LoginsTable rows={r.rows} />, 12)}
            </Row>
          </>
        );
    }
  }, [r, req.kind]);
  if (q.isError && !r) return <Alert type="error" showIcon message="报表加载失败" action={<Button onClick={() => void q.refetch()}>重试</Button>} />;
  if (!body) return <Skeleton active paragraph={{ rows: 8 }} />;
  return (
    <div className="rp-page" style={{ opacity: q.isPlaceholderData ? 0.6 : 1 }} data-testid={`report-${req.kind}`}>
      {body}
    </div>
  );
}

/**
 * Spec §2 `/main/system/reportForm` (统计报表): storage by department and person, growth, file types,
 * sharing and sign-ins over a date range (Beijing days) and a department with everything under it;
 * charts and tables of server aggregates, each report exported by the server as .xlsx or .csv.
 */
export function ReportPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const asked = new URLSearchParams(search).get('kind');
  const kind: ReportKind = (REPORT_KINDS as readonly string[]).includes(asked ?? '') ? (asked as ReportKind) : 'storage';
  const today = useMemo(() => dayjs(todayLabel()), []);
  const [range, setRange] = useState<[Dayjs, Dayjs]>([today.subtract(29, 'day'), today]);
  const [departmentId, setDepartmentId] = useState<string | undefined>();
  const online = useOnline();
  const req: ReportRequest = { kind, from: range[0].format('YYYY-MM-DD'), to: range[1].format('YYYY-MM-DD'), ...(departmentId ? { departmentId } : {}) };

  const exportMenu = {
    items: [
      { key: 'xlsx', label: '导出为 Excel（.xlsx）' },
      { key: 'csv', label: '导出为 CSV（.csv）' },
    ],
    onClick: ({ key }: { key: string }) => startDownload(reportExportUrl({ ...req, format: key === 'csv' ? 'csv' : 'xlsx' })),
  };

  return (
    <Card
      title="统计报表"
      data-testid="report-page"
      extra={
        <Dropdown menu={exportMenu} disabled={!online} trigger={['click']}>
          <Button icon={<DownloadOutlined />} disabled={!online} title={online ? undefined : '离线时不可用'} data-testid="report-export">
            导出
          </Button>
        </Dropdown>
      }
    >
      <div className="rp-filters">
        <DatePicker.RangePicker
          value={range}
          allowClear={false}
          presets={PRESETS(today)}
          disabled={kind === 'storage' ? [true, true] : undefined}
          disabledDate={(d) => d.isAfter(today, 'day')}
          onChange={(v) => {
            if (!v?.[0] || !v[1]) return;
            // The server counts at most REPORT_MAX_DAYS days: a longer pick keeps its end.
            const from = v[1].diff(v[0], 'day') + 1 > REPORT_MAX_DAYS ? v[1].subtract(REPORT_MAX_DAYS - 1, 'day') : v[0];
            setRange([from, v[1]]);
          }}
          data-testid="report-range"
        />
        <DepartmentSelect value={departmentId} onChange={setDepartmentId} placeholder="全部部门（含下级）" style={{ minWidth: 200 }} data-testid="report-department" />
        {kind === 'storage' && <span className="rp-note">存储占用为当前数据，不受日期范围影响</span>}
      </div>
      <Tabs
        activeKey={kind}
        onChange={(k) => navigate(`/main/system/reportForm?kind=${k}`, { replace: true })}
        items={REPORT_KINDS.map((k) => ({ key: k, label: REPORT_KIND_LABELS[k] }))}
        data-testid="report-tabs"
      />
      <ReportBody key={kind} req={req} />
    </Card>
  );
}
