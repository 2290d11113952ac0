import type { ActionLogExportFormat, ActionLogFilter, ActionLogListResponse } from '../../../common/api/action-log';
import { actionLogExportUrl, API } from '../../../common/api/paths';
import type { UserSearchRequest, UserSummary } from '../../../common/api/types';
import { api } from '../../lib/api';

export function listActionLog(filter: ActionLogFilter, cursor: string | null, signal: AbortSignal): Promise<ActionLogListResponse> {
  return api.post<ActionLogListResponse>(API.actionLogList, { ...filter, cursor, pageSize: 100 }, { signal });
}

/** Operators to pick from (the tenant's accounts, by account or nick name). */
export function searchOperators(keyword: string, signal?: AbortSignal): Promise<UserSummary[]> {
  const body: UserSearchRequest = { keyword: keyword.trim() };
  return api.post<UserSummary[]>(API.userSearch, body, { signal });
}

/** The export of a filter: a link the browser downloads itself (streamed by the server, any size). */
export function exportHref(filter: ActionLogFilter, format: ActionLogExportFormat): string {
  return actionLogExportUrl({
    format,
    // The viewer's time zone, so the file shows the times this page shows.
    tzOffset: new Date().getTimezoneOffset(),
    from: filter.from,
    to: filter.to,
    userId: filter.userId,
    account: filter.account,
    departmentId: filter.departmentId,
    actions: filter.actions?.join(','),
    fileName: filter.fileName,
    outcome: filter.outcome,
  });
}

export function startDownload(href: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
}
