import type { FastifyInstance } from 'fastify';
import { ACTION_LOG_MAX_ACTIONS, type ActionLogFilter } from '../../common/api/action-log';
import { ACTION_LOG } from '../../common/api/endpoints/action-log';
import { ERRORS } from '../../common/api/errors';
import { AppError } from '../http/app-error';
import { attachmentDisposition } from '../http/range';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import { actionLog } from '../services/action-log/recorder';
import { exportStream, formatExportTime } from '../services/action-log-export';
import type { ActionLogQueryService } from '../services/action-log-query-service';
import type { ActionLogCheckpointer } from '../services/action-log/checkpointer';

/** The filter as recorded with an export: what was asked for, nothing else. */
function filterDetail(f: ActionLogFilter): Record<string, unknown> {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined));
}

/** The action log's list, export and checkpoint (ours), admins only: members get AUTH-1005 from the guard. */
export function registerActionLogRoutes(app: FastifyInstance, logs: ActionLogQueryService, checkpoints: ActionLogCheckpointer): void {
  route(app, ACTION_LOG.list, async (request) => ({ data: await logs.list(callerOf(request), request.body ?? {}) }));

  route(app, ACTION_LOG.export, async (request, reply) => {
      const caller = callerOf(request);
      const { format, actions, tzOffset = 0, tenantId, ...rest } = request.query;
      const logTenant = logs.logTenant(caller, tenantId);
      const filter: ActionLogFilter = { ...rest, actions: actions ? actions.split(',').filter(Boolean) : undefined };
      if ((filter.actions?.length ?? 0) > ACTION_LOG_MAX_ACTIONS) throw new AppError(ERRORS.VALIDATION);
      actionLog.record({ action: 'audit.export', targets: [{ type: 'log', id: format, name: `操作日志.${format}` }], detail: { format, filter: filterDetail({ ...filter, ...(logTenant !== caller.tenantId ? { tenantId: logTenant } : {}) } as ActionLogFilter) } });
      const plan = await logs.plan(logTenant, filter);
      const abort = new AbortController();
      reply.raw.on('close', () => abort.abort());
      const stamp = formatExportTime(Date.now(), tzOffset).replace(/[-: ]/g, '').slice(0, 12);
      const departments = await logs.departmentNames(logTenant);
      const body = exportStream(format, {
        pages: logs.walk(plan, abort.signal),
        tzOffset,
        // The department's name now (a department deleted since shows its id).
        departmentName: (id) => (id ? (departments.get(id) ?? id) : ''),
        signal: abort.signal,
      });
      body.on('error', (err) => request.log.error({ err }, 'action log export failed'));
      return reply
        .header('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('Content-Disposition', attachmentDisposition(`操作日志-${stamp}.${format}`))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
        .send(body);
  });

  // A signed checkpoint of the chain's head, to keep off the server (common/api/action-log.ts).
  route(app, ACTION_LOG.checkpoint, async (request, reply) => {
      const caller = callerOf(request);
      const { tenantId } = request.query;
      const logTenant = logs.logTenant(caller, tenantId);
      const checkpoint = await checkpoints.current(logTenant);
      actionLog.record({
        action: 'audit.checkpoint',
        targets: [{ type: 'log', id: String(checkpoint.seq), name: `操作日志校验点（第 ${checkpoint.seq} 条）` }],
        detail: { seq: checkpoint.seq, hash: checkpoint.hash, keyId: checkpoint.keyId, ...(logTenant !== caller.tenantId ? { tenantId: logTenant } : {}) },
      });
      return reply
        .header('Content-Type', 'application/json; charset=utf-8')
        .header('Content-Disposition', attachmentDisposition(`操作日志校验点-第${checkpoint.seq}条.json`))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
        .send(`${JSON.stringify(checkpoint, null, 2)}\n`);
  });
}
