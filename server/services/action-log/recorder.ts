import { AsyncLocalStorage } from 'node:async_hooks';
import type { ActionCode, ActionTarget, ActionTargetType } from '../../../common/api/action-codes';
import type { NetworkEnv } from '../../../common/api/client-env';
import type { FilesTable, UsersTable } from '../../db/schema';

/** The platform's own chain: events that belong to no tenant (a failed login of an unknown account). */
export const PLATFORM_TENANT = '';

/** Who did it, when it is not the session's caller (logins: the session does not exist yet). */
export interface Actor {
  tenantId: string;
  id: string | null;
  account: string;
  /** RoleCode; '' for an account that does not exist; 'system' for the server itself. */
  role: string;
  networkEnv?: NetworkEnv;
}

/** An action a service reports; the request it runs in adds where from, when and the outcome. */
export interface ActionEntry {
  action: ActionCode;
  targets?: readonly ActionTarget[];
  /** What else makes the action understandable (new name, destination, decision…). Small and flat. */
  detail?: Record<string, unknown>;
  /** Defaults to the session's caller. */
  actor?: Actor;
  /**
   * The call answered 200 but the action was not done (every item of a batch refused): recorded
   * refused with this code.
   */
  refusedWith?: string;
}

/** Per API request: what the services reported. The onSend hook (http/action-hooks.ts) writes it. */
export interface ActionContext {
  entries: ActionEntry[];
  /** Set by a service for a call that is not an action this time (e.g. a second-upload challenge). */
  notAnAction: boolean;
}

const storage = new AsyncLocalStorage<ActionContext>();

export function newActionContext(): ActionContext {
  return { entries: [], notAnAction: false };
}

/** Runs a request's handler inside its action context (the preHandler hook does this). */
export function runInActionContext(ctx: ActionContext, fn: () => void): void {
  storage.run(ctx, fn);
}

function current(what: string): ActionContext {
  const ctx = storage.getStore();
  // A programming error, not a user's: an action that cannot be recorded must not happen silently.
  if (!ctx) throw new Error(`${what} outside an API request (use ActionLogService.appendSystem)`);
  return ctx;
}

/**
 * The one recorder services call: `actionLog.record({ action, targets, detail })`. Within an API
 * request it adds the entry to the request's context; when the answer is sent, the entry is written
 * with the caller, tenant, address, client type, network, user agent, time and outcome (ok, or
 * refused with the error code the caller got). Each API action records exactly one entry.
 *
 * Refused attempts the service never reached (the session guard's AUTH-1005, schema validation, a
 * 404 on another tenant's id) are recorded by the hook on its own, from the route's action code
 * (http/route-actions.ts).
 */
export const actionLog = {
  record(entry: ActionEntry): void {
    current(`actionLog.record(${entry.action})`).entries.push(entry);
  },
  /**
   * This request turned out not to be an action (nothing happened that a log should show: a
   * second-upload challenge, a createTxt held for a decision): what was recorded so far is dropped.
   * A refusal afterwards is still recorded.
   */
  notAnAction(): void {
    const ctx = current('actionLog.notAnAction()');
    ctx.notAnAction = true;
    ctx.entries.length = 0;
  },
};

/**
 * A file write that may have become a new version of an existing file (merge, second upload,
 * createTxt with a decision): the recorded entry names the file that exists now, and says which.
 */
export function describeWrite(entry: ActionEntry, file: Pick<FilesTable, 'id' | 'name' | 'is_dir' | 'size'>, replacedVersion: boolean): void {
  if (replacedVersion) entry.action = 'file.versionNew';
  entry.targets = [fileTarget(file)];
  entry.detail = { ...entry.detail, size: Number(file.size) };
}

export function fileTarget(row: Pick<FilesTable, 'id' | 'name' | 'is_dir'>): ActionTarget {
  return { type: row.is_dir === 1 ? 'folder' : 'file', id: row.id, name: row.name };
}

export function userTarget(user: Pick<UsersTable, 'id' | 'username' | 'nick_name'>): ActionTarget {
  return { type: 'user', id: user.id, name: user.nick_name ? `${user.nick_name}（${user.username}）` : user.username };
}

export function target(type: ActionTargetType, id: string, name: string): ActionTarget {
  return { type, id, name };
}

export function actorOfUser(user: Pick<UsersTable, 'id' | 'tenant_id' | 'username' | 'role'>, networkEnv?: NetworkEnv): Actor {
  return { tenantId: user.tenant_id, id: user.id, account: user.username, role: user.role, networkEnv };
}
