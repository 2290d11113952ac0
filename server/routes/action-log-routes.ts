import type { FastifyInstance } from 'fastify';
import { ACTION_CODES } from '../../common/api/action-codes';
import {
  ACTION_LOG_MAX_ACTIONS,
  ACTION_LOG_MAX_PAGE_SIZE,
  type ActionLogExportQuery,
  type ActionLogFilter,
  type ActionLogListRequest,
  type ActionLogListResponse,
} from '../../common/api/action-log';
import type { ApiOk } from '../../common/api/envelope';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import { AppError } from '../http/app-error';
import { attachmentDisposition } from '../http/range';
import { callerOf } from '../http/session-guard';
import { actionLog } from '../services/action-log/recorder';
import { exportStream, formatExportTime } from '../services/action-log-export';
import type { ActionLogQueryService } from '../services/action-log-query-service';
import type { ActionLogCheckpointer } from '../services/action-log/checkpointer';
import { idString } from './schemas';

const time = { type: 'integer', minimum: 0, maximum: 8_640_000_000_000 } as const;
const filterProperties = {
  from: time,
  to: time,
  userId: idString,
  account: { type: 'string', minLength: 1, maxLength: 128 },
  departmentId: idString,
  fileName: { type: 'string', minLength: 1, maxLength: 255 },
  outcome: { type: 'string', enum: ['ok', 'refused'] },
  tenantId: { type: 'string', maxLength: 64 },
} as const;

/** The filter as recorded with an export: what was asked for, nothing else. */
function filterDetail(f: ActionLogFilter): Record<string, unknown> {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined));
}

/** The action log's list, export and checkpoint (ours), admins only: members get AUTH-1005 from the guard. */
export function registerActionLogRoutes(app: FastifyInstance, logs: ActionLogQueryService, checkpoints: ActionLogCheckpointer): void {
  app.post(
    API.actionLogList,
    {
      config: { adminOnly: true },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...filterProperties,
            actions: { type: 'array', maxItems: ACTION_LOG_MAX_ACTIONS, items: { type: 'string', enum: ACTION_CODES } },
            cursor: { anyOf: [{ type: 'string', maxLength: 256 }, { type: 'null' }] },
            pageSize: { type: 'integer', minimum: 1, maximum: ACTION_LOG_MAX_PAGE_SIZE },
          },
        },
      },
    },
    async (request): Promise<ApiOk<ActionLogListResponse>> => ({
      data: await logs.list(callerOf(request), (request.body ?? {}) as ActionLogListRequest),
    }),
  );

  app.get(
    API.actionLogExport,
    {
      config: { adminOnly: true },
      schema: {
        querystring: {
          type: 'object',
          required: ['format'],
          additionalProperties: false,
          properties: {
            ...filterProperties,
            format: { type: 'string', enum: ['xlsx', 'csv'] },
            actions: { type: 'string', maxLength: 64 * ACTION_LOG_MAX_ACTIONS },
            // Minutes, as the browser's Date#getTimezoneOffset gives them (UTC+8 → -480).
            tzOffset: { type: 'integer', minimum: -840, maximum: 840 },
          },
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { format, actions, tzOffset = 0, tenantId, ...rest } = request.query as ActionLogExportQuery & { tzOffset?: number };
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
    },
  );

  // A signed checkpoint of the chain's head, to keep off the server (common/api/action-log.ts).
  app.get(
    API.actionLogCheckpoint,
    {
      config: { adminOnly: true },
      schema: {
        querystring: { type: 'object', additionalProperties: false, properties: { tenantId: filterProperties.tenantId } },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { tenantId } = request.query as { tenantId?: string };
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
    },
  );
}
