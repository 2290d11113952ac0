import { ERRORS } from '../../../common/api/errors';
import type { ReportRequest } from '../../../common/api/endpoints/reports';
import {
  REPORT_MAX_DAYS,
  REPORT_PEOPLE_ROWS,
  statsDayLabel,
  statsDayOf,
  statsDayOfLabel,
  type ApplyOutcome,
  type DepartmentStorage,
  type DeskSummary,
  type DesktopVersionInUse,
  type FileTypesReport,
  type GrowthReport,
  type LoginClient,
  type LoginNetwork,
  type LoginsReport,
  type PersonStorage,
  type Report,
  type SharingReport,
  type StorageFigure,
  type StorageReport,
} from '../../../common/api/reports';
import { AppError } from '../../http/app-error';
import type { DaySum, DeptScope, ReportRepository, UserStorageRow } from '../../repositories/report-repository';
import type { UsageStatsRepository } from '../../repositories/usage-stats-repository';
import type { Caller } from '../caller';
import { desktopVersionOf } from './desktop-version';

const DESK_DAYS = 30;
const TOP_ROWS = 10;
/** A tenant's storage snapshot is taken again on a read at most this often (the sweeper takes one each pass too). */
const SNAPSHOT_EVERY_MS = 10 * 60_000;

interface DepartmentNode {
  id: string;
  parent_id: string | null;
  name: string;
  sort_order: number;
}

/** The tenant's departments, as a tree the reports walk (names, paths, subtrees). */
class DepartmentTree {
  private readonly byId: Map<string, DepartmentNode>;
  private readonly children = new Map<string | null, DepartmentNode[]>();

  constructor(rows: readonly DepartmentNode[]) {
    this.byId = new Map(rows.map((r) => [r.id, r]));
    for (const r of rows) {
      const parent = r.parent_id !== null && this.byId.has(r.parent_id) ? r.parent_id : null;
      this.children.set(parent, [...(this.children.get(parent) ?? []), r]);
    }
    for (const list of this.children.values()) list.sort((a, b) => a.sort_order - b.sort_order || (a.id < b.id ? -1 : 1));
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  name(id: string | null): string {
    return id ? (this.byId.get(id)?.name ?? '') : '';
  }

  path(id: string): string {
    const names: string[] = [];
    for (let at = this.byId.get(id); at && names.length < 64; at = at.parent_id ? this.byId.get(at.parent_id) : undefined) names.unshift(at.name);
    return names.join(' / ');
  }

  /** The department and everything under it, depth first in the tree's order. */
  subtree(id: string | null): string[] {
    const out: string[] = [];
    const walk = (parent: string | null) => {
      for (const c of this.children.get(parent) ?? []) {
        out.push(c.id);
        walk(c.id);
      }
    };
    if (id === null) walk(null);
    else {
      out.push(id);
      walk(id);
    }
    return out;
  }
}

function dayRange(fromDay: number, toDay: number): number[] {
  const out: number[] = [];
  for (let d = fromDay; d <= toDay; d++) out.push(d);
  return out;
}

function byDayMap(rows: readonly DaySum[]): Map<number, DaySum> {
  return new Map(rows.map((r) => [r.day, r]));
}

function person(row: UserStorageRow, tree: DepartmentTree): PersonStorage {
  return { id: row.id, account: row.username, name: row.nick_name, departmentName: tree.name(row.department_id), used: row.used_size, quota: row.quota };
}

export interface ReportServiceDeps {
  reports: ReportRepository;
  usage: UsageStatsRepository;
}

/** 工作台's summary and 统计报表's reports of the caller's tenant (admins: the route's access says so). */
export class ReportService {
  private readonly snapshots = new Map<string, number>();

  constructor(private readonly deps: ReportServiceDeps) {}

  /** Today's storage snapshot of the tenant, unless one was taken lately. */
  private async freshSnapshot(tenantId: string, now: number): Promise<void> {
    const last = this.snapshots.get(tenantId);
    if (last !== undefined && now - last < SNAPSHOT_EVERY_MS && statsDayOf(last) === statsDayOf(now)) return;
    await this.deps.usage.snapshotStorage(tenantId, now);
    this.snapshots.set(tenantId, now);
  }

  async desk(caller: Caller, now = Date.now()): Promise<DeskSummary> {
    const { reports } = this.deps;
    const tenantId = caller.tenantId;
    const today = statsDayOf(now);
    const from = today - DESK_DAYS + 1;
    const tree = new DepartmentTree(await reports.departments(tenantId));
    const byDept = await reports.storageByDepartment(tenantId);
    const storage = byDept.reduce<StorageFigure>((t, d) => ({ used: t.used + d.used, quota: t.quota + d.quota, people: t.people + d.people }), { used: 0, quota: 0, people: 0 });
    const topDepartments: DepartmentStorage[] = byDept
      .filter((d) => d.department_id !== null)
      .sort((a, b) => b.used - a.used)
      .slice(0, TOP_ROWS)
      .map((d) => ({ id: d.department_id!, name: tree.name(d.department_id), used: d.used, quota: d.quota, people: d.people }));
    const topPeople = (await reports.peopleByStorage(tenantId, null, TOP_ROWS)).map((r) => person(r, tree));
    const active = await reports.activeSince(tenantId, [today, today - 6, today - 29]);
    const uploads = byDayMap(await reports.byDay(tenantId, 'upload', from, today, null));
    const downloads = byDayMap(await reports.byDay(tenantId, 'download', from, today, null));
    return {
      today: statsDayLabel(today),
      storage,
      topDepartments,
      topPeople,
      active: { today: active.since[0]!, days7: active.since[1]!, days30: active.since[2]!, people: active.people },
      transfers: dayRange(from, today).map((d) => ({
        day: statsDayLabel(d),
        uploads: uploads.get(d)?.count ?? 0,
        uploadBytes: uploads.get(d)?.bytes ?? 0,
        downloads: downloads.get(d)?.count ?? 0,
        downloadBytes: downloads.get(d)?.bytes ?? 0,
      })),
      pendingApplications: await reports.pendingApplications(tenantId),
      intercepted: await reports.interceptedWaiting(tenantId),
      lockedAccounts: await reports.lockedAccounts(tenantId),
      failedLogins24h: await reports.failedLoginsSince(tenantId, now - 24 * 3_600_000),
      desktopVersions: await this.desktopVersions(tenantId, now),
    };
  }

  private async desktopVersions(tenantId: string, now: number): Promise<DesktopVersionInUse[]> {
    const groups = new Map<string, { v: DesktopVersionInUse; people: Set<string> }>();
    for (const s of await this.deps.reports.desktopSessions(tenantId, now)) {
      const version = desktopVersionOf(s.user_agent);
      if (version === null) continue;
      const clientType = s.network_env === 'public' ? 4 : 3;
      const key = `${clientType}|${version}`;
      const g = groups.get(key) ?? { v: { clientType, version, sessions: 0, people: 0 }, people: new Set<string>() };
      g.v.sessions++;
      g.people.add(s.user_id);
      groups.set(key, g);
    }
    return [...groups.values()].map((g) => ({ ...g.v, people: g.people.size })).sort((a, b) => b.sessions - a.sessions || a.clientType - b.clientType);
  }

  /** The days of a request (REPORT_RANGE_INVALID when backwards or too long) and its department scope. */
  async scopeOf(caller: Caller, req: Pick<ReportRequest, 'from' | 'to' | 'departmentId'>): Promise<{ fromDay: number; toDay: number; tree: DepartmentTree; scope: DeptScope }> {
    const fromDay = statsDayOfLabel(req.from);
    const toDay = statsDayOfLabel(req.to);
    if (fromDay === null || toDay === null || fromDay > toDay || toDay - fromDay + 1 > REPORT_MAX_DAYS) throw new AppError(ERRORS.REPORT_RANGE_INVALID);
    const tree = new DepartmentTree(await this.deps.reports.departments(caller.tenantId));
    if (req.departmentId === undefined) return { fromDay, toDay, tree, scope: null };
    // Another tenant's department is unknown here.
    if (!tree.has(req.departmentId)) throw new AppError(ERRORS.DEPT_NOT_FOUND);
    return { fromDay, toDay, tree, scope: tree.subtree(req.departmentId) };
  }

  async report(caller: Caller, req: ReportRequest, now = Date.now()): Promise<Report> {
    const s = await this.scopeOf(caller, req);
    switch (req.kind) {
      case 'storage':
        return this.storage(caller.tenantId, s.tree, s.scope, REPORT_PEOPLE_ROWS);
      case 'growth':
        return this.growth(caller.tenantId, s.fromDay, s.toDay, s.scope, now);
      case 'fileTypes':
        return this.fileTypes(caller.tenantId, s.fromDay, s.toDay, s.scope);
      case 'sharing':
        return this.sharing(caller.tenantId, s.fromDay, s.toDay, s.scope);
      case 'logins':
        return this.logins(caller.tenantId, s.fromDay, s.toDay, s.scope);
    }
  }

  /** Storage now: each department of the scope (own people, and with its subtree), the people by used bytes. */
  async storage(tenantId: string, tree: DepartmentTree, scope: DeptScope, peopleLimit: number | null): Promise<StorageReport> {
    const own = new Map((await this.deps.reports.storageByDepartment(tenantId)).map((d) => [d.department_id, d]));
    const zero = (): StorageFigure => ({ used: 0, quota: 0, people: 0 });
    const figure = (id: string | null): StorageFigure => {
      const d = own.get(id);
      return d ? { used: d.used, quota: d.quota, people: d.people } : zero();
    };
    const add = (a: StorageFigure, b: StorageFigure): StorageFigure => ({ used: a.used + b.used, quota: a.quota + b.quota, people: a.people + b.people });
    const ids = scope ?? tree.subtree(null);
    const departments = ids.map((id) => ({
      id,
      name: tree.name(id),
      path: tree.path(id),
      ...figure(id),
      subtree: tree.subtree(id).reduce((t, sub) => add(t, figure(sub)), zero()),
    }));
    // The whole tenant also counts people without a department.
    const totals = scope === null ? [...own.values()].reduce<StorageFigure>((t, d) => add(t, d), zero()) : departments.reduce<StorageFigure>((t, d) => add(t, d), zero());
    const people = (await this.deps.reports.peopleByStorage(tenantId, scope, peopleLimit)).map((r) => person(r, tree));
    return { kind: 'storage', totals, departments, people };
  }

  async growth(tenantId: string, fromDay: number, toDay: number, scope: DeptScope, now: number): Promise<GrowthReport> {
    const { reports } = this.deps;
    if (toDay >= statsDayOf(now)) await this.freshSnapshot(tenantId, now);
    const uploads = byDayMap(await reports.byDay(tenantId, 'upload', fromDay, toDay, scope));
    const downloads = byDayMap(await reports.byDay(tenantId, 'download', fromDay, toDay, scope));
    const stored = byDayMap(await reports.byDay(tenantId, 'storage', fromDay, toDay, scope));
    const active = byDayMap(await reports.byDay(tenantId, 'active', fromDay, toDay, scope));
    const days = dayRange(fromDay, toDay).map((d) => ({
      day: statsDayLabel(d),
      uploads: uploads.get(d)?.count ?? 0,
      uploadBytes: uploads.get(d)?.bytes ?? 0,
      downloads: downloads.get(d)?.count ?? 0,
      downloadBytes: downloads.get(d)?.bytes ?? 0,
      storedBytes: stored.get(d)?.bytes ?? null,
      activePeople: active.get(d)?.count ?? 0,
    }));
    const totals = days.reduce(
      (t, d) => ({ uploads: t.uploads + d.uploads, uploadBytes: t.uploadBytes + d.uploadBytes, downloads: t.downloads + d.downloads, downloadBytes: t.downloadBytes + d.downloadBytes }),
      { uploads: 0, uploadBytes: 0, downloads: 0, downloadBytes: 0 },
    );
    return { kind: 'growth', days, totals };
  }

  async fileTypes(tenantId: string, fromDay: number, toDay: number, scope: DeptScope): Promise<FileTypesReport> {
    const rows = await this.deps.reports.byDim(tenantId, 'uploadType', fromDay, toDay, scope);
    const types = rows.map((r) => ({ ext: r.dim, count: r.count, bytes: r.bytes })).sort((a, b) => b.count - a.count || b.bytes - a.bytes || (a.ext < b.ext ? -1 : 1));
    return { kind: 'fileTypes', types, totals: types.reduce((t, r) => ({ count: t.count + r.count, bytes: t.bytes + r.bytes }), { count: 0, bytes: 0 }) };
  }

  async sharing(tenantId: string, fromDay: number, toDay: number, scope: DeptScope): Promise<SharingReport> {
    const { reports } = this.deps;
    const read = async (metric: 'shareCreate' | 'linkCreate' | 'linkVisit' | 'linkDownload') => byDayMap(await reports.byDay(tenantId, metric, fromDay, toDay, scope));
    const [shares, links, visits, downloads] = [await read('shareCreate'), await read('linkCreate'), await read('linkVisit'), await read('linkDownload')];
    const days = dayRange(fromDay, toDay).map((d) => ({
      day: statsDayLabel(d),
      shares: shares.get(d)?.count ?? 0,
      links: links.get(d)?.count ?? 0,
      linkVisits: visits.get(d)?.count ?? 0,
      linkDownloads: downloads.get(d)?.count ?? 0,
    }));
    const totals = days.reduce((t, d) => ({ shares: t.shares + d.shares, links: t.links + d.links, linkVisits: t.linkVisits + d.linkVisits, linkDownloads: t.linkDownloads + d.linkDownloads }), {
      shares: 0,
      links: 0,
      linkVisits: 0,
      linkDownloads: 0,
    });
    const applications: Record<ApplyOutcome, number> = { submit: 0, approve: 0, reject: 0, withdraw: 0, expire: 0 };
    const byApprover = new Map<string, { approve: number; reject: number }>();
    for (const r of await reports.byDim(tenantId, 'apply', fromDay, toDay, scope)) {
      const bar = r.dim.indexOf('|');
      const outcome = r.dim.slice(0, bar) as ApplyOutcome;
      const approver = r.dim.slice(bar + 1);
      if (outcome in applications) applications[outcome] += r.count;
      if ((outcome === 'approve' || outcome === 'reject') && approver) {
        const a = byApprover.get(approver) ?? { approve: 0, reject: 0 };
        a[outcome] += r.count;
        byApprover.set(approver, a);
      }
    }
    const names = await reports.userNames(tenantId, [...byApprover.keys()]);
    const approvers = [...byApprover.entries()]
      .map(([id, a]) => ({ id, name: names.get(id) ?? '（已删除的账号）', ...a }))
      .sort((a, b) => b.approve + b.reject - (a.approve + a.reject) || (a.id < b.id ? -1 : 1));
    return { kind: 'sharing', days, totals, applications, approvers };
  }

  async logins(tenantId: string, fromDay: number, toDay: number, scope: DeptScope): Promise<LoginsReport> {
    const { reports } = this.deps;
    const ok = await reports.byDayDim(tenantId, 'login', fromDay, toDay, scope);
    const failed = await reports.byDayDim(tenantId, 'loginFailed', fromDay, toDay, scope);
    const clients: LoginClient[] = ['web', '3', '4'];
    const networks: LoginNetwork[] = ['internal', 'public'];
    const rows = clients.flatMap((client) => networks.map((network) => ({ client, network, logins: 0, failed: 0 })));
    const dayRows = new Map(dayRange(fromDay, toDay).map((d) => [d, { day: statsDayLabel(d), web: 0, client3: 0, client4: 0, failed: 0 }]));
    for (const [list, field] of [[ok, 'logins'], [failed, 'failed']] as const) {
      for (const r of list) {
        const [client, network] = r.dim.split('|') as [LoginClient, LoginNetwork];
        const row = rows.find((x) => x.client === client && x.network === network);
        if (row) row[field] += r.count;
        const day = dayRows.get(r.day);
        if (!day) continue;
        if (field === 'failed') day.failed += r.count;
        else if (client === '3') day.client3 += r.count;
        else if (client === '4') day.client4 += r.count;
        else day.web += r.count;
      }
    }
    const totals = rows.reduce((t, r) => ({ logins: t.logins + r.logins, failed: t.failed + r.failed }), { logins: 0, failed: 0 });
    return { kind: 'logins', rows, days: [...dayRows.values()], totals };
  }
}
