import type { FastifyInstance } from 'fastify';
import { DEFAULTS } from '../config';
import { ActionLogRepository } from '../repositories/action-log-repository';
import { DepartmentRepository } from '../repositories/department-repository';
import { ReportRepository } from '../repositories/report-repository';
import { UsageStatsRepository } from '../repositories/usage-stats-repository';
import { registerActionLogRoutes } from '../routes/action-log-routes';
import { registerReportRoutes } from '../routes/report-routes';
import { ReportService } from '../services/reports/report-service';
import { ActionLogCheckpointer } from '../services/action-log/checkpointer';
import { ActionLogQueryService } from '../services/action-log-query-service';
import { ActionLogService } from '../services/action-log-service';
import { loadChainKey } from '../storage/chain-key';
import { CheckpointDirectory } from '../storage/checkpoint-directory';
import { loadCheckpointSigner } from '../storage/checkpoint-key';
import type { Base, Routed } from './base';

export interface Audit extends Routed {
  /** The key of the action log's MACs; sharing derives its secrets from it. */
  chainKey: Buffer;
  actionLogs: ActionLogService;
  /** Signed checkpoints of the log's heads (a background job). */
  checkpoints: ActionLogCheckpointer;
  /** How long records are kept (ms): the sweeper prunes older ones. */
  retentionMs: number;
  /** 工作台 and 统计报表's aggregates (kept as actions are recorded); the sweeper takes the storage snapshots. */
  usage: UsageStatsRepository;
}

export interface AuditDeps extends Base {
  /** Migration 0083 ran at this start: heads written before it get their MAC now. */
  sealHeads: boolean;
}

/** The action log (its chain, queries and signed checkpoints). */
export async function buildAudit({ db, config, log, sealHeads }: AuditDeps): Promise<Audit> {
  const chainKey = await loadChainKey(config.dataDir, config.auditChainKey, true);
  const repo = new ActionLogRepository(db, chainKey, (tenantId, seq) =>
    log.error({ tenantId, seq }, 'action log head was moved without the key (its MAC does not hold): recording goes on, the head stays marked; run audit:verify'));
  const sealed = sealHeads ? await repo.sealUnsealedHeads() : [];
  if (sealed.length > 0) log.warn({ tenants: sealed }, 'action log heads written before migration 0083 sealed with their MAC');
  const actionLogs = new ActionLogService(repo, (err) => log.error({ err }, 'action log write failed'));
  const signer = await loadCheckpointSigner(config.dataDir, true);
  log.info({ keyId: signer.keyId, publicKey: signer.publicKeyBase64 }, 'action log checkpoints are signed with this Ed25519 key');
  const checkpoints = new ActionLogCheckpointer({
    repo,
    chainKey,
    signer,
    sinks: {
      log: (checkpoint) => log.info({ auditCheckpoint: checkpoint }, 'action log checkpoint'),
      directory: config.auditCheckpointDir ? new CheckpointDirectory(config.auditCheckpointDir) : undefined,
    },
    onError: (err, message) => log.error({ err }, message),
  });
  await repo.refreshStatistics();
  // The department filter takes the department and everything under it; another tenant's id is unknown.
  const departments = new DepartmentRepository(db);
  const queries = new ActionLogQueryService(repo, async (tenantId, departmentId) => {
    const ids = await departments.subtreeIds(tenantId, departmentId);
    return ids.length > 0 ? ids : null;
  });
  const usage = new UsageStatsRepository(db);
  const reports = new ReportService({ reports: new ReportRepository(db), usage });
  return {
    chainKey,
    usage,
    actionLogs,
    checkpoints,
    retentionMs: (config.auditRetentionDays ?? DEFAULTS.auditRetentionDays) * 24 * 3600 * 1000,
    routes: (app: FastifyInstance) => {
      registerActionLogRoutes(app, queries, checkpoints);
      registerReportRoutes(app, reports);
    },
  };
}
