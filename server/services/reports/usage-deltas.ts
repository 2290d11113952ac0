import type { ActionTarget } from '../../../common/api/action-codes';
import { ALL_DEPARTMENTS, statsDayOf, type UsageMetric } from '../../../common/api/reports';
import type { ActionLogTable } from '../../db/schema';

/** What a recorded action adds to usage_daily (the row is written once per department and once for ALL_DEPARTMENTS). */
export interface UsageDelta {
  tenantId: string;
  day: number;
  metric: UsageMetric;
  deptId: string;
  dim: string;
  count: number;
  bytes: number;
}

/** The fields of an action row the aggregates read. */
export type CountedRow = Pick<ActionLogTable, 'tenant_id' | 'at' | 'actor_id' | 'dept_id' | 'action' | 'targets' | 'detail' | 'outcome' | 'client_type' | 'network_env' | 'platform'>;

const DOWNLOADS: ReadonlySet<string> = new Set(['file.download', 'file.zip', 'file.versionDownload']);
const APPLY_OUTCOMES: Record<string, string> = { 'apply.submit': 'submit', 'apply.approve': 'approve', 'apply.reject': 'reject', 'apply.withdraw': 'withdraw', 'apply.expire': 'expire' };
const PLAIN: Record<string, UsageMetric> = { 'share.create': 'shareCreate', 'link.create': 'linkCreate', 'link.open': 'linkVisit', 'link.download': 'linkDownload' };

/** The lower-case extension of a file name ('' without one; at most 16 characters, else ''). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return '';
  const ext = name.slice(dot + 1).toLowerCase();
  return ext.length <= 16 && /^[\p{L}\p{N}_-]+$/u.test(ext) ? ext : '';
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/** The login's client: 3 / 4 from the desktop client's type, web otherwise; the network it claimed. */
function loginDim(row: CountedRow): string {
  const client = row.platform === 'desktop' && (row.client_type === 3 || row.client_type === 4) ? String(row.client_type) : 'web';
  const network = row.network_env === 'public' ? 'public' : 'internal';
  return `${client}|${network}`;
}

/**
 * The deltas of one recorded action (before the per-department copy). Only actions done count
 * (outcome ok), except sign-ins, whose refusals are counted as loginFailed. The active metric is
 * not derived here: it is the first action of a person's day (UsageStatsRepository.touchActive).
 */
export function deltasOfRow(row: CountedRow): Array<Omit<UsageDelta, 'tenantId' | 'day' | 'deptId'>> {
  if (row.tenant_id === '') return [];
  const { action } = row;
  if (action === 'auth.login' || action === 'auth.smsLogin') {
    return [{ metric: row.outcome === 'ok' ? 'login' : 'loginFailed', dim: loginDim(row), count: 1, bytes: 0 }];
  }
  if (row.outcome !== 'ok') return [];
  const detail = (row.detail ? JSON.parse(row.detail) : {}) as Record<string, unknown>;
  if (action === 'file.upload' || action === 'file.versionNew') {
    const targets = JSON.parse(row.targets) as ActionTarget[];
    // Each file twice: in the day's total (what the daily series read) and by its type.
    const uploaded = (name: string, bytes: number) => [
      { metric: 'upload' as const, dim: '', count: 1, bytes },
      { metric: 'uploadType' as const, dim: extensionOf(name), count: 1, bytes },
    ];
    if (detail.method !== 'batch') return uploaded(targets[0]?.name ?? '', num(detail.size));
    // A batch: one action of many files; sizes one by one where the detail kept them (the first 100).
    const sizes = Array.isArray(detail.sizes) ? detail.sizes.map(num) : [];
    const rest = Math.max(0, num(detail.bytes) - sizes.reduce((a, b) => a + b, 0));
    const unsized = Math.max(0, targets.length - sizes.length);
    return targets.flatMap((t, i) => uploaded(t.name, i < sizes.length ? sizes[i]! : Math.floor(rest / unsized)));
  }
  if (DOWNLOADS.has(action)) return [{ metric: 'download', dim: '', count: 1, bytes: num(action === 'file.zip' ? detail.bytes : detail.size) }];
  const apply = APPLY_OUTCOMES[action];
  if (apply) {
    const approver = apply === 'approve' || apply === 'reject' ? (row.actor_id ?? '') : '';
    return [{ metric: 'apply', dim: `${apply}|${approver}`, count: 1, bytes: 0 }];
  }
  const plain = PLAIN[action];
  return plain ? [{ metric: plain, dim: '', count: 1, bytes: 0 }] : [];
}

function keyOf(d: UsageDelta): string {
  return `${d.tenantId}\u0000${d.metric}\u0000${d.deptId}\u0000${String(d.day).padStart(8, '0')}\u0000${d.dim}`;
}

/** Adds deltas up by key, in a stable order (the upserts then take their row locks in the same order). */
export class DeltaSum {
  private readonly sums = new Map<string, UsageDelta>();

  add(d: UsageDelta): void {
    for (const deptId of d.deptId === ALL_DEPARTMENTS ? [ALL_DEPARTMENTS] : [d.deptId, ALL_DEPARTMENTS]) {
      const one = { ...d, deptId };
      const key = keyOf(one);
      const have = this.sums.get(key);
      if (have) {
        have.count += one.count;
        have.bytes += one.bytes;
      } else this.sums.set(key, one);
    }
  }

  addRow(row: CountedRow): void {
    const base = { tenantId: row.tenant_id, day: statsDayOf(Number(row.at)), deptId: row.dept_id ?? '' };
    for (const d of deltasOfRow(row)) this.add({ ...base, ...d });
  }

  get size(): number {
    return this.sums.size;
  }

  sorted(): UsageDelta[] {
    return [...this.sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, d]) => d);
  }
}
