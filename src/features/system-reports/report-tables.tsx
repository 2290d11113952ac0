import { Table, type TableColumnsType } from 'antd';
import { TEN_A_PAGE } from '../../components/page-links';
import { formatSize } from '../../../common/format/size';
import {
  APPLY_OUTCOME_LABELS,
  LOGIN_CLIENT_LABELS,
  LOGIN_NETWORK_LABELS,
  type ApplyOutcome,
  type ApproverRow,
  type FileTypeRow,
  type GrowthDay,
  type LoginRow,
  type PersonStorage,
  type SharingDay,
  type StorageReport,
} from '../../../common/api/reports';

const size = (v: number | null) => (v === null ? '—' : formatSize(v));
const percent = (used: number, quota: number) => (quota > 0 ? `${((used / quota) * 100).toFixed(1)}%` : '—');
const small = { size: 'small' as const, scroll: { x: 'max-content' as const } };

type DeptRow = StorageReport['departments'][number];
const deptColumns: TableColumnsType<DeptRow> = [
  { title: '部门', dataIndex: 'path', render: (p: string, r) => <span title={p}>{r.name}</span> },
  { title: '人数', dataIndex: 'people', align: 'right' },
  { title: '已用', dataIndex: 'used', align: 'right', render: size, sorter: (a, b) => a.used - b.used },
  { title: '配额', dataIndex: 'quota', align: 'right', render: size },
  { title: '使用率', key: 'rate', align: 'right', render: (_, r) => percent(r.used, r.quota) },
  { title: '含下级已用', key: 'sub', align: 'right', render: (_, r) => size(r.subtree.used), sorter: (a, b) => a.subtree.used - b.subtree.used },
];
export const DepartmentsTable = ({ rows }: { rows: DeptRow[] }) => <Table<DeptRow> {...small} rowKey="id" columns={deptColumns} dataSource={rows} pagination={TEN_A_PAGE} data-testid="report-table-departments" />;

const peopleColumns: TableColumnsType<PersonStorage> = [
  { title: '姓名', dataIndex: 'name' },
  { title: '账号', dataIndex: 'account' },
  { title: '部门', dataIndex: 'departmentName' },
  { title: '已用', dataIndex: 'used', align: 'right', render: size },
  { title: '配额', dataIndex: 'quota', align: 'right', render: size },
  { title: '使用率', key: 'rate', align: 'right', render: (_, r) => percent(r.used, r.quota) },
];
export const PeopleTable = ({ rows }: { rows: PersonStorage[] }) => <Table<PersonStorage> {...small} rowKey="id" columns={peopleColumns} dataSource={rows} pagination={TEN_A_PAGE} data-testid="report-table-people" />;

const growthColumns: TableColumnsType<GrowthDay> = [
  { title: '日期', dataIndex: 'day' },
  { title: '上传文件数', dataIndex: 'uploads', align: 'right' },
  { title: '上传流量', dataIndex: 'uploadBytes', align: 'right', render: size },
  { title: '下载次数', dataIndex: 'downloads', align: 'right' },
  { title: '下载流量', dataIndex: 'downloadBytes', align: 'right', render: size },
  { title: '存储占用', dataIndex: 'storedBytes', align: 'right', render: size },
  { title: '活跃人数', dataIndex: 'activePeople', align: 'right' },
];
export const GrowthTable = ({ rows }: { rows: GrowthDay[] }) => (
  <Table<GrowthDay> {...small} rowKey="day" columns={growthColumns} dataSource={[...rows].reverse()} pagination={TEN_A_PAGE} data-testid="report-table-growth" />
);

const typeColumns: TableColumnsType<FileTypeRow> = [
  { title: '文件类型', dataIndex: 'ext', render: (e: string) => (e ? `.${e}` : '（无扩展名）') },
  { title: '上传文件数', dataIndex: 'count', align: 'right' },
  { title: '字节数', dataIndex: 'bytes', align: 'right', render: size },
];
export const FileTypesTable = ({ rows }: { rows: FileTypeRow[] }) => <Table<FileTypeRow> {...small} rowKey="ext" columns={typeColumns} dataSource={rows} pagination={TEN_A_PAGE} data-testid="report-table-types" />;

const sharingColumns: TableColumnsType<SharingDay> = [
  { title: '日期', dataIndex: 'day' },
  { title: '共享', dataIndex: 'shares', align: 'right' },
  { title: '创建外链', dataIndex: 'links', align: 'right' },
  { title: '外链访问', dataIndex: 'linkVisits', align: 'right' },
  { title: '外链下载', dataIndex: 'linkDownloads', align: 'right' },
];
export const SharingTable = ({ rows }: { rows: SharingDay[] }) => (
  <Table<SharingDay> {...small} rowKey="day" columns={sharingColumns} dataSource={[...rows].reverse()} pagination={TEN_A_PAGE} data-testid="report-table-sharing" />
);

const approverColumns: TableColumnsType<ApproverRow> = [
  { title: '审批人', dataIndex: 'name' },
  { title: '通过', dataIndex: 'approve', align: 'right' },
  { title: '驳回', dataIndex: 'reject', align: 'right' },
];
export const ApproversTable = ({ rows }: { rows: ApproverRow[] }) => <Table<ApproverRow> {...small} rowKey="id" columns={approverColumns} dataSource={rows} pagination={TEN_A_PAGE} locale={{ emptyText: '该范围内没有审批' }} />;

export const applicationRows = (a: Record<ApplyOutcome, number>) => (Object.keys(APPLY_OUTCOME_LABELS) as ApplyOutcome[]).map((o) => ({ name: APPLY_OUTCOME_LABELS[o], value: a[o] }));

const loginColumns: TableColumnsType<LoginRow> = [
  { title: '客户端', dataIndex: 'client', render: (c: LoginRow['client']) => LOGIN_CLIENT_LABELS[c] },
  { title: '网络', dataIndex: 'network', render: (n: LoginRow['network']) => LOGIN_NETWORK_LABELS[n] },
  { title: '登录次数', dataIndex: 'logins', align: 'right' },
  { title: '登录失败', dataIndex: 'failed', align: 'right' },
];
export const LoginsTable = ({ rows }: { rows: LoginRow[] }) => <Table<LoginRow> {...small} rowKey={(r) => `${r.client}|${r.network}`} columns={loginColumns} dataSource={rows} pagination={false} data-testid="report-table-logins" />;
