import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ActionTarget, ActionTargetType } from '../../common/api/action-codes';
import { CLIENT_TYPE, HEADER_CLIENT_OP_REPLAYED, HEADER_NETWORK_ENV, HEADER_PLATFORM } from '../../common/api/client-env';
import { newActionContext, runInActionContext, type ActionContext } from '../services/action-log/recorder';
import type { ActionLogService, RequestFacts } from '../services/action-log-service';
import { routeAction } from './route-actions';

declare module 'fastify' {
  interface FastifyRequest {
    /** What this API request's services recorded (services/action-log/recorder.ts). */
    actionContext: ActionContext | null;
  }
}

function isApiPath(url: string): boolean {
  return url.startsWith('/api/') || url.startsWith('/spacex/');
}

const MAX_IDS = 50;

function targetType(key: string, routeUrl: string): ActionTargetType {
  if (/user/i.test(key)) return 'user';
  if (/version/i.test(key)) return 'version';
  if (routeUrl.startsWith('/api/group/') && key === 'id') return 'group';
  return 'file';
}

/** Object ids a request names: string values of `id`, `ids` and `…Id(s)` in its body, query and path. */
export function requestTargets(request: FastifyRequest): ActionTarget[] {
  const routeUrl = request.routeOptions.url ?? '';
  const out: ActionTarget[] = [];
  const seen = new Set<string>();
  const add = (key: string, value: unknown) => {
    if (out.length >= MAX_IDS || typeof value !== 'string' || value === '' || value.length > 128 || seen.has(value)) return;
    seen.add(value);
    out.push({ type: targetType(key, routeUrl), id: value, name: '' });
  };
  for (const source of [request.params, request.query, request.body]) {
    if (!source || typeof source !== 'object' || Array.isArray(source)) continue;
    for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
      if (!/^(id|ids|.+Id|.+Ids)$/.test(key)) continue;
      // zip takes its ids comma-separated in the query.
      if (key === 'ids' && typeof value === 'string') value.split(',').forEach((v) => add(key, v));
      else if (Array.isArray(value)) value.forEach((v) => add(key, v));
      else add(key, value);
    }
  }
  return out;
}

/** A Range request continuing a download (not starting at byte 0) is the same download, not a new one. */
function continuesDownload(request: FastifyRequest, reply: FastifyReply): boolean {
  if (reply.statusCode !== 206) return false;
  const m = /^bytes=(\d*)-/.exec(String(request.headers.range ?? ''));
  return m !== null && m[1] !== '' && Number(m[1]) > 0;
}

function errorCodeOf(payload: unknown): string | null {
  if (typeof payload !== 'string' || !payload.startsWith('{')) return null;
  try {
    const code = (JSON.parse(payload) as { errorCode?: unknown }).errorCode;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}

function header(request: FastifyRequest, name: string): string {
  const value = request.headers[name.toLowerCase()];
  return typeof value === 'string' ? value : '';
}

function factsOf(request: FastifyRequest, reply: FastifyReply, payload: unknown): RequestFacts {
  const claimed = header(request, HEADER_NETWORK_ENV);
  const claimedNetwork = claimed === 'public' || claimed === 'internal' ? claimed : '';
  return {
    method: request.method,
    routeUrl: request.routeOptions.url,
    routeAction: routeAction(request.method, request.routeOptions.url),
    status: reply.statusCode,
    errorCode: reply.statusCode >= 400 ? errorCodeOf(payload) : null,
    caller: request.caller,
    // request.ip honours TRUST_PROXY (Fastify's trustProxy): the client's address behind a proxy.
    address: request.ip,
    userAgent: header(request, 'user-agent'),
    // A WebDAV client sends no platform header: the caller says where it came from.
    platform: request.caller?.client ?? header(request, HEADER_PLATFORM),
    clientType: claimedNetwork === '' ? null : CLIENT_TYPE[claimedNetwork],
    claimedNetwork,
    targets: reply.statusCode >= 400 ? requestTargets(request) : [],
  };
}

/**
 * The action log's request side. onRequest gives every API request an action context; preHandler
 * runs the handler inside it (after body parsing: AsyncLocalStorage does not survive the body
 * parser's stream events), so services can `actionLog.record(...)`; onSend writes what was
 * recorded — or the refusal the services never saw — before the answer leaves, and waits until it
 * is durable. Must be installed before the session guard, so its refusals have a context too.
 */
export function installActionLog(app: FastifyInstance, service: ActionLogService): void {
  app.decorateRequest('actionContext', null);
  app.addHook('onRequest', (request, _reply, done) => {
    if (isApiPath(request.url)) request.actionContext = newActionContext();
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const ctx = request.actionContext;
    if (!ctx) return done();
    runInActionContext(ctx, done);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const ctx = request.actionContext;
    if (!ctx) return payload;
    request.actionContext = null;
    if (request.method === 'HEAD' || reply.getHeader(HEADER_CLIENT_OP_REPLAYED) === '1' || continuesDownload(request, reply)) return payload;
    try {
      await service.finishRequest(ctx, factsOf(request, reply, payload));
    } catch (err) {
      // The action has happened; the failure to record it is the server's, logged loudly.
      request.log.error({ err }, 'action log write failed');
    }
    return payload;
  });
}
