import { CLIENT_OP_TTL_MS } from '../http/client-ops';
import type { CaptchaRepository } from '../repositories/captcha-repository';
import type { ClientOpRepository } from '../repositories/client-op-repository';
import type { SessionRepository } from '../repositories/session-repository';
import type { LoginThrottle } from './login-throttle';
import type { SmsCodeService } from './sms-code-service';
import type { TextService } from './text-service';
import type { TrashService } from './trash-service';
import type { UploadService } from './upload-service';
import type { ActionLogService } from './action-log-service';
import { fileTarget } from './action-log/recorder';
import { pause } from './cluster/lead-runner';
import type { StoreSweepResult } from './store-sweep';

export interface SweeperDeps {
  uploads: UploadService;
  captchas: CaptchaRepository;
  sessions: SessionRepository;
  accounts: { throttle: LoginThrottle; smsCodes: SmsCodeService };
  files: { trash: TrashService; texts: TextService; clientOps: ClientOpRepository };
  log: (err: unknown) => void;
  audit: { actionLogs: ActionLogService; retentionMs: number };
  notices?: { pruneOld(now: number): Promise<number> };
  /** 统计报表's storage snapshot of every tenant (the day's last one is the day's figure). */
  usage?: { snapshotStorage(tenantId: null, now: number): Promise<void> };
  /** The store's own left-overs (services/store-sweep.ts). */
  store?: { sweep(now: number): Promise<StoreSweepResult> };
  /** More work of other areas per pass (sharing: expired applications, link counters, tickets). */
  extra?: { sweep(now: number): Promise<void> };
  /** WebDAV locks past their timeout: ended, the product locks they took given back (server/dav/locks/). */
  davLocks?: { sweep(now: number): Promise<void> };
}

/**
 * Periodic clean-up of what expires: partial uploads (and their chunk files; then the store's own
 * left-overs: services/store-sweep.ts), captchas, sessions,
 * idle login-failure counters (never a lock), SMS codes no limit counts any more, recycle-bin entries
 * past the retention (purged for good, freeing quota and blobs), held createTxt texts, the kept
 * answers of client operation ids, action log records past AUDIT_RETENTION_DAYS, and file messages
 * past FILE_MESSAGE_RETENTION_DAYS; and takes the storage snapshot 统计报表's growth shows.
 */
export class Sweeper {
  constructor(private readonly deps: SweeperDeps) {}

  /** One pass; also called directly by tests. */
  async sweepOnce(now = Date.now()): Promise<{
    uploads: number; captchas: number; sessions: number; loginFailures: number; smsCodes: number; recycled: number; textHolds: number; clientOps: number;
    actionLog: number; fileMessages: number; store: StoreSweepResult | null;
  }> {
    const uploads = await this.deps.uploads.sweepExpired(now);
    // After the expired uploads: their chunks, when the store refused to remove them, go here.
    const store = (await this.deps.store?.sweep(now)) ?? null;
    const captchas = await this.deps.captchas.deleteExpired(now);
    const sessions = await this.deps.sessions.deleteExpired(now);
    const loginFailures = await this.deps.accounts.throttle.deleteStale(now);
    const smsCodes = await this.deps.accounts.smsCodes.deleteOld(now);
    // Purged for good by the server itself: on record in each tenant's log, like a user's purge.
    const recycled = await this.deps.files.trash.sweepExpired(now, async (roots) => {
      const byTenant = new Map<string, typeof roots>();
      for (const r of roots) byTenant.set(r.tenant_id, [...(byTenant.get(r.tenant_id) ?? []), r]);
      for (const [tenantId, rows] of byTenant) {
        await this.deps.audit.actionLogs.appendSystem(tenantId, 'file.purge', rows.map(fileTarget), { reason: 'recycleRetention' }, now);
      }
    });
    const textHolds = await this.deps.files.texts.sweepExpired(now);
    const clientOps = await this.deps.files.clientOps.deleteOlderThan(now - CLIENT_OP_TTL_MS);
    // Action log records past the retention; each pruned batch is itself recorded in its chain.
    const actionLog = await this.deps.audit.actionLogs.prune(this.deps.audit.retentionMs, now);
    await this.deps.audit.actionLogs.refreshStatistics();
    const fileMessages = (await this.deps.notices?.pruneOld(now)) ?? 0;
    await this.deps.extra?.sweep(now);
    await this.deps.davLocks?.sweep(now);
    await this.deps.usage?.snapshotStorage(null, now);
    return { uploads, captchas, sessions, loginFailures, smsCodes, recycled, textHolds, clientOps, actionLog, fileMessages, store };
  }

  /**
   * A pass every `intervalMs` (0 = never) until `signal` aborts; resolves once the pass under way has
   * ended. Run by the leader only (server/compose/cluster.ts); each step is safe when two processes
   * pass at once all the same: deletes of what expired, and claims that only one of them wins.
   */
  async run(intervalMs: number, signal: AbortSignal): Promise<void> {
    if (intervalMs <= 0) return;
    while (!signal.aborted) {
      await pause(intervalMs, signal);
      if (signal.aborted) break;
      await this.sweepOnce().catch(this.deps.log);
    }
  }
}
