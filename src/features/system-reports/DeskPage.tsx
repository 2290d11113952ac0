import { ReloadOutlined, RightOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Empty, Row, Skeleton, Statistic, Tooltip, Typography } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { Link } from 'wouter';
import { formatSize } from '../../../common/format/size';
import { useDeskSummary } from '../../lib/data/reports';
import { quotaRingOption, storageBarsOption, transfersOption, versionsOption } from './chart-options';
import { EChart } from './EChart';
import './reports.css';

/** A figure that leads to the page that acts on it. */
function Tile({ title, href, action, children, testId, alert }: { title: string; href: string; action: string; children: ReactNode; testId: string; alert?: boolean }) {
  return (
    <Link href={href} className={`rp-tile${alert ? ' rp-tile-alert' : ''}`} data-testid={testId}>
      <div className="rp-tile-title">{title}</div>
      <div className="rp-tile-body">{children}</div>
      <div className="rp-tile-action">
        {action} <RightOutlined />
      </div>
    </Link>
  );
}

/**
 * Spec §2 `/main/system/desk` (工作台, where 系统管理 lands): the tenant at a glance — storage against
 * quota, active people, 30 days of uploads and downloads, what waits for someone (applications,
 * intercepted files, locked accounts, failed sign-ins), the desktop client versions in use. Every
 * figure is a server aggregate; each tile opens the page that acts on it.
 */
export function DeskPage() {
  const desk = useDeskSummary();
  const d = desk.data;
  const transfers = useMemo(() => (d ? transfersOption(d.transfers) : null), [d]);
  const ring = useMemo(() => (d ? quotaRingOption(d.storage.used, d.storage.quota) : null), [d]);
  const depts = useMemo(() => (d ? storageBarsOption(d.topDepartments.map((x) => ({ ...x, label: x.name || '（未命名）' }))) : null), [d]);
  const people = useMemo(() => (d ? storageBarsOption(d.topPeople.map((x) => ({ ...x, label: x.name || x.account }))) : null), [d]);
  const versions = useMemo(() => (d && d.desktopVersions.length > 0 ? versionsOption(d.desktopVersions) : null), [d]);

  if (!d) {
    return (
      <Card title="工作台" data-testid="desk-page">
        {desk.isError ? <Alert type="error" showIcon message="工作台数据加载失败" action={<Button onClick={() => void desk.refetch()}>重试</Button>} /> : <Skeleton active paragraph={{ rows: 8 }} />}
      </Card>
    );
  }
  const today = d.transfers.at(-1)!;
  return (
    <div className="rp-page" data-testid="desk-page">
      <div className="rp-head">
        <Typography.Title level={4} style={{ margin: 0 }}>
          工作台
        </Typography.Title>
        <span className="rp-sub">
          统计日 {d.today}（北京时间）
          <Tooltip title="刷新">
            <Button type="text" size="small" icon={<ReloadOutlined />} loading={desk.isFetching} onClick={() => void desk.refetch()} aria-label="刷新" />
          </Tooltip>
        </span>
      </div>
      <Row gutter={[12, 12]}>
        <Col xs={12} md={8} xl={4}>
          <Tile title="存储空间" href="/main/system/reportForm" action="统计报表" testId="desk-tile-storage">
            <Statistic value={formatSize(d.storage.used)} />
            <div className="rp-note">配额共 {formatSize(d.storage.quota)} · {d.storage.people} 人</div>
          </Tile>
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Tile title="活跃人数（今日）" href="/main/system/reportForm" action="统计报表" testId="desk-tile-active">
            <Statistic value={d.active.today} suffix={`/ ${d.active.people}`} />
            <div className="rp-note">
              近 7 天 {d.active.days7} · 近 30 天 {d.active.days30}
            </div>
          </Tile>
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Tile title="今日上传" href="/main/system/actionLog" action="操作日志" testId="desk-tile-uploads">
            <Statistic value={today.uploads} suffix="个" />
            <div className="rp-note">
              {formatSize(today.uploadBytes)} · 下载 {today.downloads} 次
            </div>
          </Tile>
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Tile title="待审批申请" href="/main/safe/dealApply" action="审批申请" testId="desk-tile-applications" alert={d.pendingApplications > 0}>
            <Statistic value={d.pendingApplications} suffix="条" />
            <div className="rp-note">外链与共享申请</div>
          </Tile>
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Tile title="拦截待处理" href="/main/system/fileSecurity" action="文件安全" testId="desk-tile-intercepted" alert={d.intercepted.total > 0}>
            <Statistic value={d.intercepted.total} suffix="个" />
            <div className="rp-note">其中含敏感词 {d.intercepted.sensitive} 个</div>
          </Tile>
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Tile title="账号安全" href="/main/system/user/list" action="用户管理" testId="desk-tile-security" alert={d.lockedAccounts > 0 || d.failedLogins24h > 0}>
            <Statistic value={d.lockedAccounts} suffix="个锁定" />
            <div className="rp-note">24 小时内登录失败 {d.failedLogins24h} 次</div>
          </Tile>
        </Col>
      </Row>
      <Row gutter={[12, 12]}>
        <Col xs={24} xl={16}>
          <Card size="small" title="近 30 天上传与下载" extra={<Link href="/main/system/reportForm">更多</Link>}>
            <EChart option={transfers!} height={280} label={`近30天上传与下载，今日上传 ${today.uploads} 个文件`} testId="desk-chart-transfers" />
          </Card>
        </Col>
        <Col xs={24} md={12} xl={8}>
          <Card size="small" title="存储使用" extra={<Link href="/main/system/user/list">调整配额</Link>}>
            <EChart option={ring!} height={280} label={`已用 ${formatSize(d.storage.used)}，配额 ${formatSize(d.storage.quota)}`} testId="desk-chart-quota" />
          </Card>
        </Col>
        <Col xs={24} md={12} xl={8}>
          <Card size="small" title="部门占用前十" extra={<Link href="/main/system/department">部门管理</Link>}>
            {d.topDepartments.length > 0 ? <EChart option={depts!} height={280} label="部门存储占用前十" /> : <Empty description="还没有部门" />}
          </Card>
        </Col>
        <Col xs={24} md={12} xl={8}>
          <Card size="small" title="个人占用前十" extra={<Link href="/main/system/user/list">用户管理</Link>}>
            <EChart option={people!} height={280} label="个人存储占用前十" />
          </Card>
        </Col>
        <Col xs={24} md={12} xl={8}>
          <Card size="small" title="在用的桌面客户端版本" extra={<Link href="/main/system/systemConfig">客户端版本</Link>}>
            {versions ? (
              <EChart option={versions} height={280} label="在用的桌面客户端版本" testId="desk-chart-versions" />
            ) : (
              <Empty description="当前没有桌面客户端登录" style={{ height: 248, paddingTop: 60 }} />
            )}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
