import type { FastifyInstance } from 'fastify';
import { REPORTS } from '../../common/api/endpoints/reports';
import { REPORT_KIND_LABELS } from '../../common/api/reports';
import { attachmentDisposition } from '../http/range';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import { actionLog } from '../services/action-log/recorder';
import { formatExportTime } from '../services/action-log-export';
import { aboutSheet, reportExportStream, sheetsOf } from '../services/reports/report-export';
import type { ReportService } from '../services/reports/report-service';

/** Beijing time, as the reports count days (common/api/reports.ts). */
const BEIJING = -480;

/** 工作台 and 统计报表 (ours, issue 38), admins of the caller's tenant only: members get AUTH-1005 from the guard. */
export function registerReportRoutes(app: FastifyInstance, reports: ReportService): void {
  route(app, REPORTS.desk, async (request) => ({ data: await reports.desk(callerOf(request)) }));

  route(app, REPORTS.get, async (request) => ({ data: await reports.report(callerOf(request), request.query) }));

  route(app, REPORTS.export, async (request, reply) => {
    const caller = callerOf(request);
    const { format, ...req } = request.query;
    const now = Date.now();
    const label = REPORT_KIND_LABELS[req.kind];
    const stamp = formatExportTime(now, BEIJING).replace(/[-: ]/g, '').slice(0, 12);
    const fileName = `统计报表-${label}-${stamp}.${format}`;
    actionLog.record({ action: 'report.export', targets: [{ type: 'report', id: req.kind, name: fileName }], detail: { format, ...req } });
    const { tree, scope } = await reports.scopeOf(caller, req);
    // The export has every person of the filter, the page the first REPORT_PEOPLE_ROWS.
    const report = req.kind === 'storage' ? await reports.storage(caller.tenantId, tree, scope, null) : await reports.report(caller, req, now);
    const sheets = [...sheetsOf(report), aboutSheet(report, `${req.from} 至 ${req.to}`, req.departmentId ? tree.path(req.departmentId) : '', formatExportTime(now, BEIJING))];
    const abort = new AbortController();
    reply.raw.on('close', () => abort.abort());
    const body = reportExportStream(format, sheets, abort.signal);
    body.on('error', (err) => request.log.error({ err }, 'report export failed'));
    return reply
      .header('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('Content-Disposition', attachmentDisposition(fileName))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-store')
      .send(body);
  });
}
