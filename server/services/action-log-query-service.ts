import type { ActionLogListRequest } from '../../common/api/endpoints/action-log';
import { isActionCode } from '../../common/api/action-codes';
import {
  ACTION_LOG_DEFAULT_PAGE_SIZE,
  ACTION_LOG_MAX_PAGE_SIZE,
  ACTION_LOG_SCAN_WINDOW,
  type ActionLogEntry,
  type ActionLogFilter,
  type ActionLogListResponse,
} from '../../common/api/action-log';
import { ERRORS } from '../../common/api/errors';
import type { ActionLogTable } from '../db/schema';
import { AppError } from '../http/app-error';
import type { ActionLogRepository, IndexedFilter, LogPosition, ScannedFilter } from '../repositories/action-log-repository';
import { GENESIS_HASH } from './action-log/chain';
import type { Caller } from './caller';

/** A department of the tenant and every department below it; null when the tenant has no such department. */
export type DepartmentSubtree = (tenantId: string, departmentId: string) => Promise<string[] | null>;

export interface LogPage {
  rows: ActionLogTable[];
  next: LogPosition | null;
  scannedTo: number | null;
}

/** A filter split into what an index orders and what is checked row by row inside a window. */
export interface PlannedFilter {
  indexed: IndexedFilter;
  scanned: ScannedFilter;
}

function encodeCursor(p: LogPosition): string {
  return Buffer.from(JSON.stringify([p.at, p.seq])).toString('base64url');
}

function decodeCursor(cursor: string): LogPosition {
  try {
    const d = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(d) && Number.isSafeInteger(d[0]) && Number.isSafeInteger(d[1])) return { at: d[0] as number, seq: d[1] as number };
  } catch {
    // any undecodable cursor is a bad request
  }
  throw new AppError(ERRORS.VALIDATION, '分页游标无效');
}

export function toEntry(row: ActionLogTable): ActionLogEntry {
  return {
    seq: Number(row.seq),
    at: Number(row.at),
    actor: { id: row.actor_id, account: row.actor_account, name: row.actor_name, role: row.actor_role, departmentId: row.dept_id },
    action: row.action,
    targets: JSON.parse(row.targets) as ActionLogEntry['targets'],
    detail: row.detail ? (JSON.parse(row.detail) as Record<string, unknown>) : null,
    outcome: row.outcome,
    errorCode: row.error_code,
    address: row.address,
    clientType: row.client_type === 3 || row.client_type === 4 ? row.client_type : null,
    networkEnv: row.network_env,
    platform: row.platform,
    userAgent: row.user_agent,
    hash: row.hash,
  };
}

/**
 * Reads of the action log: keyset pages in (at, seq) descending order and the walk an export makes.
 *
 * One equality filter (in this order of preference: refusals, operator, a single action, a single
 * department) and the time range go to the index that orders by them, so a first page reads one
 * page of index entries however many rows the log holds. Any further filter is checked row by row
 * inside a window of at most ACTION_LOG_SCAN_WINDOW rows of that order: each call costs a bounded
 * amount, and a page that the window could not fill says how far it looked (`scannedTo`).
 */
export class ActionLogQueryService {
  constructor(
    private readonly repo: ActionLogRepository,
    private readonly departments: DepartmentSubtree,
  ) {}

  async plan(tenantId: string, f: ActionLogFilter): Promise<PlannedFilter> {
    const actions = [...new Set(f.actions ?? [])];
    const unknown = actions.find((a) => !isActionCode(a));
    if (unknown !== undefined) throw new AppError(ERRORS.VALIDATION, `未知的操作类型：${unknown}`);
    if (f.from !== undefined && f.to !== undefined && f.from >= f.to) throw new AppError(ERRORS.VALIDATION, '开始时间须早于结束时间');
    const indexed: IndexedFilter = { tenantId, from: f.from, to: f.to };
    const scanned: ScannedFilter = {};
    let deptIds: string[] | null = null;
    if (f.departmentId) {
      deptIds = await this.departments(tenantId, f.departmentId);
      // Another tenant's department reads as unknown.
      if (deptIds === null) throw new AppError(ERRORS.NOT_FOUND, '部门不存在');
    }
    let slot = true; // one equality filter goes to the index
    if (f.outcome === 'refused') {
      indexed.outcome = 'refused';
      slot = false;
    }
    if (f.userId) {
      if (slot) indexed.actorId = f.userId;
      else scanned.actorId = f.userId;
      slot = false;
    }
    if (actions.length === 1 && slot) {
      indexed.action = actions[0];
      slot = false;
    } else if (actions.length > 0) scanned.actions = actions;
    if (deptIds && deptIds.length === 1 && slot) {
      indexed.deptId = deptIds[0];
      slot = false;
    } else if (deptIds) scanned.deptIds = deptIds;
    if (f.outcome === 'ok') {
      if (slot && !hasScanned(scanned) && !f.account && !f.fileName) indexed.outcome = 'ok';
      else scanned.outcome = 'ok';
    }
    if (f.account) scanned.account = f.account;
    if (f.fileName) scanned.nameKey = f.fileName.normalize('NFC').toLowerCase();
    return { indexed, scanned };
  }

  /** One page after `after`: straight off the index, or from one scan window. */
  async page(plan: PlannedFilter, after: LogPosition | null, limit: number, window = ACTION_LOG_SCAN_WINDOW): Promise<LogPage> {
    if (!hasScanned(plan.scanned)) {
      const rows = await this.repo.page(plan.indexed, after, limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return { rows: page, next: rows.length > limit && last ? position(last) : null, scannedTo: null };
    }
    const rows = await this.repo.windowPage(plan.indexed, plan.scanned, after, window, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    if (rows.length > limit && last) return { rows: page, next: position(last), scannedTo: null };
    // The window did not fill the page: go on after its end, if it had one.
    const end = await this.repo.windowEnd(plan.indexed, after, window);
    return { rows: page, next: end, scannedTo: end ? end.at : null };
  }

  /** Whose log a call reads: the caller's tenant, or (platform admins) any tenant or the platform's own chain (''). */
  logTenant(caller: Caller, tenantId: string | undefined): string {
    if (tenantId === undefined || tenantId === caller.tenantId) return caller.tenantId;
    if (!caller.platformAdmin) throw new AppError(ERRORS.TENANT_NOT_FOUND);
    return tenantId;
  }

  async list(caller: Caller, req: ActionLogListRequest): Promise<ActionLogListResponse> {
    const tenantId = this.logTenant(caller, req.tenantId);
    const plan = await this.plan(tenantId, req);
    const limit = Math.min(req.pageSize ?? ACTION_LOG_DEFAULT_PAGE_SIZE, ACTION_LOG_MAX_PAGE_SIZE);
    const result = await this.page(plan, req.cursor ? decodeCursor(req.cursor) : null, limit);
    const head = await this.repo.head(tenantId);
    return {
      items: result.rows.map(toEntry),
      nextCursor: result.next ? encodeCursor(result.next) : null,
      scannedTo: result.scannedTo,
      head: { seq: head ? Number(head.seq) : 0, hash: head?.hash ?? GENESIS_HASH },
    };
  }

  /** Department names of the tenant whose log is exported. */
  departmentNames(tenantId: string): Promise<Map<string, string>> {
    return this.repo.departmentNames(tenantId);
  }

  /** Every row of the filter, newest first, a page at a time (the export). */
  async *walk(plan: PlannedFilter, signal: AbortSignal, pageRows = 1000): AsyncGenerator<ActionLogTable[]> {
    let after: LogPosition | null = null;
    for (;;) {
      if (signal.aborted) return;
      const page: LogPage = await this.page(plan, after, pageRows);
      if (page.rows.length > 0) yield page.rows;
      if (!page.next) return;
      after = page.next;
    }
  }
}

function hasScanned(s: ScannedFilter): boolean {
  return Object.values(s).some((v) => v !== undefined);
}

function position(row: ActionLogTable): LogPosition {
  return { at: Number(row.at), seq: Number(row.seq) };
}
