import { Type, type Static } from 'typebox';
import { bytes, data, endpoint } from '../endpoint';
import { API } from '../paths';
import { REPORT_KINDS, type DeskSummary, type Report } from '../reports';
import { IdString } from '../schemas';

/** 工作台 and 统计报表 (issue 38; payloads in ../reports.ts), admins only, the caller's tenant only. */

/** yyyy-MM-dd, a China Standard Time day (../reports.ts). */
const DateLabel = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

const ReportFilter = {
  kind: Type.Unsafe<(typeof REPORT_KINDS)[number]>({ type: 'string', enum: [...REPORT_KINDS] }),
  /** First and last day, both included (the storage report is of now and ignores them). */
  from: DateLabel,
  to: DateLabel,
  /** The department and everything under it; absent: the whole tenant. */
  departmentId: Type.Optional(IdString),
};

export const ReportQuery = Type.Object(ReportFilter, { additionalProperties: false });
export type ReportRequest = Static<typeof ReportQuery>;

export const ReportExportQuery = Type.Object({ ...ReportFilter, format: Type.Enum(['xlsx', 'csv']) }, { additionalProperties: false });
export type ReportExportRequest = Static<typeof ReportExportQuery>;

export const REPORTS = {
  /** `GET` → DeskSummary: the tenant at a glance (工作台). */
  desk: endpoint({ method: 'GET', path: API.reportDesk, access: 'admin', action: null, response: data<DeskSummary>() }),
  /** `GET ?kind=&from=&to=&departmentId=` → the report (统计报表). */
  get: endpoint({ method: 'GET', path: API.reportGet, access: 'admin', action: null, query: ReportQuery, response: data<Report>() }),
  /** `GET ?kind=&from=&to=&departmentId=&format=xlsx|csv` → the report's tables, streamed as a sheet (formula-like cells neutralised). */
  export: endpoint({ method: 'GET', path: API.reportExport, access: 'admin', action: 'report.export', query: ReportExportQuery, response: bytes }),
};
