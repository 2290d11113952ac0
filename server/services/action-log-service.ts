import type { ActionCode, ActionTarget } from '../../common/api/action-codes';
import { ERRORS } from '../../common/api/errors';
import type { NetworkEnv } from '../../common/api/client-env';
import type { ActionLogRepository, NewActionRow } from '../repositories/action-log-repository';
import { sanitizeText } from './action-log/chain';
import { PLATFORM_TENANT, type ActionContext, type ActionEntry, type Actor } from './action-log/recorder';
import type { Caller } from './caller';

/** What the HTTP layer knows about a finished API request (http/action-hooks.ts gathers it). */
export interface RequestFacts {
  method: string;
  /** The route's URL pattern, undefined when no route matched. */
  routeUrl: string | undefined;
  /** The route's action code (http/route-actions.ts), or null. */
  routeAction: ActionCode | null;
  status: number;
  errorCode: string | null;
  caller: Caller | null;
  address: string;
  userAgent: string;
  platform: string;
  clientType: 3 | 4 | null;
  claimedNetwork: NetworkEnv | '';
  /** Object ids the request named (body, query, path), for refusals the service never saw. */
  targets: ActionTarget[];
}

/** Refusals that are recorded on any route, action or not: someone reached for what is not theirs. */
const ACCESS_REFUSALS: ReadonlySet<string> = new Set([ERRORS.FORBIDDEN.code, ERRORS.BAD_ORIGIN.code, ERRORS.PLATFORM_HEADER_REQUIRED.code]);

const LIMITS = { account: 128, name: 255, role: 16, address: 64, platform: 16, userAgent: 512, code: 64, id: 128, detail: 1024, targets: 1000 };

function cleanTargets(targets: readonly ActionTarget[]): ActionTarget[] {
  return targets.slice(0, LIMITS.targets).map((t) => ({ type: t.type, id: sanitizeText(t.id, LIMITS.id), name: sanitizeText(t.name, LIMITS.name) }));
}

function cleanDetail(detail: Record<string, unknown> | undefined): string | null {
  if (!detail) return null;
  const clean = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return sanitizeText(v, LIMITS.detail);
    if (typeof v === 'number') return Number.isFinite(v) ? v : null;
    if (typeof v === 'boolean' || v === null) return v;
    if (Array.isArray(v)) return depth > 2 ? null : v.slice(0, 100).map((x) => clean(x, depth + 1));
    if (typeof v === 'object' && depth <= 2) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).map(([k, x]) => [k, clean(x, depth + 1)]));
    }
    return null;
  };
  return JSON.stringify(clean(detail, 0));
}

/** What the file-name filter matches: every target's name in NFC lower case, one per line. */
export function namesKeyOf(targets: readonly ActionTarget[]): string {
  return targets.map((t) => t.name.normalize('NFC').toLowerCase()).join('\n');
}

interface Pending {
  rows: NewActionRow[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Told of the actions a request did, once they are on record (the notices turn file changes into
 * messages: services/notices/action-events.ts). Awaited before the answer leaves, so a 200 also
 * means what followed from the action exists; its failures are logged, never the caller's.
 */
export type ActionObserver = (done: readonly ActionEntry[], caller: Caller) => Promise<void>;

/** Requests whose rows go into one transaction at most (group commit). */
const MAX_BATCH = 256;

/**
 * Writes the action log. Rows of concurrent requests are committed together (group commit: while
 * one transaction runs, the next batch gathers), and each request's answer waits until its row is
 * durable — a 200 means the action is on record.
 */
export class ActionLogService {
  private queue: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private readonly observers: ActionObserver[] = [];

  constructor(
    private readonly repo: ActionLogRepository,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Writes what a finished request did (called by the onSend hook before the answer leaves). */
  async finishRequest(ctx: ActionContext, facts: RequestFacts, now = Date.now()): Promise<void> {
    const rows = this.rowsFor(ctx, facts, now);
    if (rows.length > 0) await this.enqueue(rows);
    const done = facts.status < 400 && facts.caller ? ctx.entries.filter((e) => !e.refusedWith) : [];
    for (const observer of done.length > 0 ? this.observers : []) {
      try {
        await observer(done, facts.caller!);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  observe(observer: ActionObserver): void {
    this.observers.push(observer);
  }

  /** The rows a request leaves: its services' entries, else a refusal or a bare success of its route. */
  rowsFor(ctx: ActionContext, facts: RequestFacts, now: number): NewActionRow[] {
    const failed = facts.status >= 400;
    const outcome = failed ? 'refused' : 'ok';
    const errorCode = failed ? (facts.errorCode ?? (facts.status >= 500 ? ERRORS.INTERNAL.code : `HTTP-${facts.status}`)) : null;
    if (ctx.entries.length > 0) {
      return ctx.entries.map((e) => (e.refusedWith && !failed ? this.row(e, facts, 'refused', e.refusedWith, now) : this.row(e, facts, outcome, errorCode, now)));
    }
    if (!facts.caller || !facts.routeUrl) return [];
    const ids = facts.targets;
    if (facts.routeAction) {
      if (ctx.notAnAction && !failed) return [];
      return [this.row({ action: facts.routeAction, targets: ids, detail: { route: `${facts.method} ${facts.routeUrl}` } }, facts, outcome, errorCode, now)];
    }
    const denied = failed && (facts.status === 404 || ACCESS_REFUSALS.has(errorCode ?? ''));
    if (!denied) return [];
    return [this.row({ action: 'access.denied', targets: ids, detail: { route: `${facts.method} ${facts.routeUrl}` } }, facts, outcome, errorCode, now)];
  }

  private row(entry: ActionEntry, facts: RequestFacts, outcome: 'ok' | 'refused', errorCode: string | null, now: number): NewActionRow {
    const actor: Actor = entry.actor ?? {
      tenantId: facts.caller?.tenantId ?? PLATFORM_TENANT,
      id: facts.caller?.userId ?? null,
      account: facts.caller?.username ?? '',
      role: facts.caller?.role ?? '',
      networkEnv: facts.caller?.networkEnv,
    };
    const targets = cleanTargets(entry.targets ?? []);
    return {
      tenant_id: actor.tenantId,
      at: now,
      actor_id: actor.id,
      actor_account: sanitizeText(actor.account, LIMITS.account),
      actor_name: '',
      actor_role: sanitizeText(actor.role, LIMITS.role),
      dept_id: null,
      action: entry.action,
      targets: JSON.stringify(targets),
      names_key: namesKeyOf(targets),
      detail: cleanDetail(entry.detail),
      outcome,
      error_code: errorCode === null ? null : sanitizeText(errorCode, LIMITS.code),
      address: sanitizeText(facts.address, LIMITS.address),
      client_type: facts.clientType,
      network_env: actor.networkEnv ?? facts.caller?.networkEnv ?? facts.claimedNetwork,
      platform: sanitizeText(facts.platform, LIMITS.platform),
      user_agent: sanitizeText(facts.userAgent, LIMITS.userAgent),
    };
  }

  /** An entry of the server itself (the sweeper's pruning), outside any request. */
  async appendSystem(tenantId: string, action: ActionCode, targets: readonly ActionTarget[], detail?: Record<string, unknown>, now = Date.now()): Promise<void> {
    await this.enqueue([systemRow(tenantId, action, targets, detail, now)]);
  }

  /**
   * Applies the retention: rows older than `retentionMs` leave, oldest first, in batches, each
   * batch recorded (audit.prune) in the chain it pruned. Returns how many rows went.
   */
  async prune(retentionMs: number, now = Date.now(), batchRows = 50_000): Promise<number> {
    await this.drain();
    const cutoff = now - retentionMs;
    let total = 0;
    for (const head of await this.repo.heads()) {
      for (;;) {
        const n = await this.repo.pruneBatch(head.tenant_id, cutoff, batchRows, (info) =>
          systemRow(info.tenantId, 'audit.prune', [{ type: 'log', id: `${info.fromSeq}-${info.throughSeq}`, name: `${info.count} 条` }], {
            fromSeq: info.fromSeq,
            throughSeq: info.throughSeq,
            anchorHash: info.anchorHash,
            count: info.count,
            cutoff: info.cutoff,
            retentionDays: Math.round(retentionMs / 86_400_000),
          }, now),
        );
        total += n;
        if (n < batchRows) break;
      }
    }
    return total;
  }

  /** The planner's statistics of the log (the sweeper refreshes them; see the repository). */
  refreshStatistics(): Promise<void> {
    return this.repo.refreshStatistics();
  }

  private enqueue(rows: NewActionRow[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ rows, resolve, reject });
      if (!this.flushing) this.flushing = this.flush().finally(() => (this.flushing = null));
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        const rows = batch.flatMap((p) => p.rows);
        const facts = await this.repo.actorFacts([...new Set(rows.map((r) => r.actor_id).filter((id): id is string => id !== null))]);
        for (const row of rows) {
          if (!row.actor_id) continue;
          const actor = facts.get(row.actor_id);
          row.actor_name = sanitizeText(actor?.nickName ?? '', LIMITS.name);
          row.dept_id = actor?.departmentId ?? null;
        }
        await this.repo.append(rows);
        for (const p of batch) p.resolve();
      } catch (err) {
        this.onError(err);
        for (const p of batch) p.reject(err);
      }
    }
  }

  /** Resolves once every row handed over so far is written (server shutdown, pruning, tests). */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }
}

function systemRow(tenantId: string, action: ActionCode, targets: readonly ActionTarget[], detail: Record<string, unknown> | undefined, now: number): NewActionRow {
  const clean = cleanTargets(targets);
  return {
    tenant_id: tenantId,
    at: now,
    actor_id: null,
    actor_account: 'system',
    actor_name: '系统',
    actor_role: 'system',
    dept_id: null,
    action,
    targets: JSON.stringify(clean),
    names_key: namesKeyOf(clean),
    detail: cleanDetail(detail),
    outcome: 'ok',
    error_code: null,
    address: '',
    client_type: null,
    network_env: '',
    platform: 'server',
    user_agent: '',
  };
}
