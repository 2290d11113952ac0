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
  // The test hooks that are not a GET (server/routes/test-routes.ts, DRIVE_TEST_HOOKS=1 only).
  'PUT /api/test/raw-sink': null,
  'POST /api/test/sweep': null,
};

/**
 * Declared endpoints (common/api/endpoints) carry their action themselves; the table above holds the
 * routes that are not declared on purpose (tests/server/endpoint-declarations.test.ts lists them).
 */
export const ROUTE_ACTIONS: Readonly<Record<string, ActionCode | null>> = {
  ...UNDECLARED_ROUTE_ACTIONS,
  ...Object.fromEntries(ENDPOINTS.map((e) => [routeKey(e), e.action])),
};

export function routeAction(method: string, url: string | undefined): ActionCode | null {
  if (!url) return null;
  return ROUTE_ACTIONS[`${method} ${url}`] ?? null;
}
