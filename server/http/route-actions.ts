import type { ActionCode } from '../../common/api/action-codes';
import { routeKey } from '../../common/api/endpoint';
import { ENDPOINTS } from '../../common/api/endpoints';

/**
 * Which API routes are actions of the action log, keyed `METHOD url` like the access matrix.
 *
 * - an ActionCode: the route is an action. Its service records the entry when it acts
 *   (`actionLog.record`, names and details included); if the request is refused before that (the
 *   session guard, validation, a 404 on an id), the hook records it refused with this code and the
 *   ids the request named. A success the service did not record is recorded from here too, with
 *   the ids only (tests/server/action-log-wiring.test.ts makes sure none of ours relies on that).
 * - null: not an action (a read, a check, a step of an action recorded at its end). Refused access
 *   to it (404 on an object id, AUTH-1005, a bad Origin, a state-changing GET without the platform
 *   header) is still recorded, as `access.denied`.
 *
 * Every route other than a GET must be listed (tests/server/action-log-wiring.test.ts): a new write
 * cannot go unlogged by forgetting it.
 */
const UNDECLARED_ROUTE_ACTIONS: Readonly<Record<string, ActionCode | null>> = {






  'POST /api/v2/notice/manage/save': 'notice.update',
  'POST /api/v2/notice/manage/pin': 'notice.pin',
  'POST /api/v2/notice/manage/withdraw': 'notice.withdraw',
  'POST /api/v2/notice/manage/delete': 'notice.delete',


  // Reads and checks sent as POST (spec §7's default), and the steps of an upload before its merge.
  'POST /api/staticData/list': null,
  'PUT /api/test/raw-sink': null,
  // Notices: reading them, and marking or removing one's own messages, are not actions.
  'POST /api/sysMsg/list': null,
  'POST /api/sysMsg/markRead': null,
  'POST /api/sysMsg/markAllRead': null,
  'POST /api/sysMsg/popup/ack': null,
  'POST /api/v2/notice/manage/list': null,
};

/**
 * Declared endpoints (common/api/endpoints) carry their action themselves; the table above holds the
 * routes not yet declared that way, and shrinks as each route file moves to declarations (issue 40).
 */
export const ROUTE_ACTIONS: Readonly<Record<string, ActionCode | null>> = {
  ...UNDECLARED_ROUTE_ACTIONS,
  ...Object.fromEntries(ENDPOINTS.map((e) => [routeKey(e), e.action])),
};

export function routeAction(method: string, url: string | undefined): ActionCode | null {
  if (!url) return null;
  return ROUTE_ACTIONS[`${method} ${url}`] ?? null;
}
