import type { ActionLogCheckpoint, ActionLogExportFormat, ActionLogFilter, ActionLogListResponse } from '../../../common/api/action-log';
import { ACTION_LOG } from '../../../common/api/endpoints/action-log';
import { actionLogExportUrl } from '../../../common/api/paths';
import { ACCOUNT, type UserSearchRequest } from '../../../common/api/endpoints/account';
import type { UserSummary } from '../../../common/api/types';
import { api } from '../../lib/api';
import { saveBlob } from '../../lib/save-blob';

export function listActionLog(filter: ActionLogFilter, cursor: string | null, signal: AbortSignal): Promise<ActionLogListResponse> {
  return api.call(ACTION_LOG.list, { ...filter, cursor, pageSize: 100 }, { signal });
}

/** Operators to pick from (the tenant's accounts, by account or nick name). */
export function searchOperators(keyword: string, signal?: AbortSignal): Promise<UserSummary[]> {
  const body: UserSearchRequest = { keyword: keyword.trim() };
  return api.call(ACCOUNT.userSearch, body, { signal });
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

/**
 * A signed checkpoint of the log's head, saved as a file for the admin to keep off the server
 * (`npm run audit:verify -- --checkpoint FILE` finds rows cut off after it). Asked through the API
 * client, so a refusal (a head that fails its check: AUD-9501) shows its message instead of a file.
 */
export async function downloadCheckpoint(): Promise<ActionLogCheckpoint> {
  const checkpoint = await api.call(ACTION_LOG.checkpoint, {});
  saveBlob(new Blob([`${JSON.stringify(checkpoint, null, 2)}\n`], { type: 'application/json' }), `操作日志校验点-第${checkpoint.seq}条.json`);
  return checkpoint;
}
