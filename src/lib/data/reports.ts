/**
 * 工作台 and 统计报表's reads (issue 38), in the signed-in account's partition: answers stay in the
 * persisted cache, so an admin offline still sees the last figures (the offline banner says why they
 * are old). Every figure is a server aggregate (common/api/reports.ts).
 */
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { ReportRequest } from '../../../common/api/endpoints/reports';
import { REPORTS } from '../../../common/api/endpoints/reports';
import type { DeskSummary, Report } from '../../../common/api/reports';
import { api } from '../api';

export const REPORT_KEYS = {
  desk: ['account', 'reports', 'desk'] as const,
  report: (req: ReportRequest) => ['account', 'reports', req.kind, req.from, req.to, req.departmentId ?? ''] as const,
};

/** The desk's figures, asked again each time the page is shown and every minute while it is. */
export function useDeskSummary(): UseQueryResult<DeskSummary> {
  return useQuery({
    queryKey: REPORT_KEYS.desk,
    queryFn: ({ signal }) => api.call(REPORTS.desk, undefined, { signal }),
    staleTime: 0,
    refetchInterval: 60_000,
  });
}

/** One report of a filter; the previous filter's answer stays shown while the next one comes. */
export function useReport<K extends Report['kind']>(req: ReportRequest & { kind: K }): UseQueryResult<Extract<Report, { kind: K }>> {
  return useQuery({
    queryKey: REPORT_KEYS.report(req),
    queryFn: ({ signal }) => api.call(REPORTS.get, req, { signal }) as Promise<Extract<Report, { kind: K }>>,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}
