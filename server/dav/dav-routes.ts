import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { newActionContext, runInActionContext, type ActionContext } from '../services/action-log/recorder';
import type { ActionCode } from '../../common/api/action-codes';
import type { Caller } from '../services/caller';
import type { DavContext, DavHandler } from './context';
import { DavError } from './context';
import type { DavDeps } from './deps';
import { refusalOf } from './errors';
import { DAV_PREFIX, hrefOf, segmentsOf } from './paths';
import { DAV_METHOD_NAMES, DAV_METHODS } from './registry';
import { isCollection } from './method-propfind';

/** The methods Fastify does not know by itself: routed without body parsing (handlers read the raw stream). */
const EXTRA_METHODS = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const;

/** The web app's action code of each modifying method: recorded when a refusal came before any service did. */
const METHOD_ACTIONS: Readonly<Record<string, ActionCode>> = {
  PUT: 'file.upload',
  MKCOL: 'file.mkdir',
  DELETE: 'file.delete',
  COPY: 'file.copy',
  MOVE: 'file.move',
  PROPPATCH: 'file.davProperties',
};

/** The action log's `platform` of every WebDAV request (the web app writes 'web' or 'desktop'). */
export const DAV_CLIENT = 'webdav';

interface DavRequestState {
  action: ActionContext;
  caller: Caller | null;
  errorCode: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** A /dav/ request's action context and outcome (server/dav/dav-routes.ts). */
    dav: DavRequestState | null;
  }
}

function send(reply: FastifyReply, status: number, headers: Record<string, string>, contentType: string, body: string): void {
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  // A handler may have set content headers before failing.
  for (const h of ['content-disposition', 'content-length', 'etag', 'content-range', 'last-modified']) if (!(h in headers)) reply.removeHeader(h);
  reply.code(status).header('Content-Type', contentType).send(body);
}

/**
 * Registers /dav/ (issue 39): every WebDAV method on one catch-all route, authenticated by
 * `deps.authenticate` (never the web session guard: /dav/ is outside /api/), the path resolved by
 * DavTree, then the method's handler from the registry. Bodies are left unparsed: PUT streams its
 * body into the store, the XML methods read theirs with a limit.
 */
export async function registerDavRoutes(app: FastifyInstance, deps: DavDeps): Promise<void> {
  for (const m of EXTRA_METHODS) if (!app.supportedMethods.includes(m)) app.addHttpMethod(m, { hasBody: false });
  const handlers = new Map<string, DavHandler>();
  for (const [method, module] of Object.entries(DAV_METHODS)) if (module) handlers.set(method, module(deps));

  await app.register(async (scope) => {
    scope.decorateRequest('dav', null);
    // Bodies stay in the raw stream for the handler (PUT streams them; OPTIONS/DELETE take none).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));

    scope.addHook('onSend', async (request, reply, payload) => {
      const state = request.dav;
      if (!state) return payload;
      request.dav = null;
      if (request.method === 'HEAD' || !state.caller) return payload;
      const status = reply.statusCode;
      const routeAction = METHOD_ACTIONS[request.method] ?? null;
      try {
        await deps.actionLogs.finishRequest(state.action, {
          method: request.method,
          // A path that is not there is not someone reaching for what is not theirs: paths name only
          // the caller's own tree. A read's 404 is no access.denied (clients probe desktop.ini, ._x).
          routeUrl: status === 404 && !routeAction ? undefined : `${DAV_PREFIX}/*`,
          routeAction,
          status,
          errorCode: status >= 400 ? state.errorCode : null,
          caller: state.caller,
          address: request.ip,
          userAgent: String(request.headers['user-agent'] ?? ''),
          platform: DAV_CLIENT,
          clientType: null,
          claimedNetwork: '',
          targets: [],
        });
      } catch (err) {
        request.log.error({ err }, 'action log write failed');
      }
      return payload;
    });

    // Returns the reply: an async handler that resolves undefined while the answer's onSend hooks
    // still run (the action log's write) would make Fastify send a second, empty answer.
    const handle = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      reply.header('X-Content-Type-Options', 'nosniff');
      const auth = await deps.authenticate(request);
      if (!auth.ok) {
        send(reply, auth.status, auth.headers, 'text/plain; charset=utf-8', auth.body);
        return reply;
      }
      const state: DavRequestState = { action: newActionContext(), caller: auth.caller, errorCode: null };
      request.dav = state;
      try {
        await new Promise<void>((resolve, reject) => runInActionContext(state.action, () => void dispatch(request, reply, auth.caller).then(resolve, reject)));
      } catch (err) {
        const refusal = refusalOf(err);
        if (!refusal) throw err;
        state.errorCode = refusal.code;
        // Answered, and nothing for the action log (DavError.notAnAction).
        if (err instanceof DavError && err.notAnAction) request.dav = null;
        if (!reply.sent) send(reply, refusal.status, refusal.headers, refusal.contentType, request.method === 'HEAD' ? '' : refusal.body);
      }
      return reply;
    };

    const dispatch = async (request: FastifyRequest, reply: FastifyReply, caller: Caller): Promise<void> => {
      const handler = handlers.get(request.method);
      if (!handler) {
        if (request.method in DAV_METHODS) throw new DavError(501, `${request.method} 暂不支持`);
        throw new DavError(405, `${request.method} 不是 WebDAV 方法`, undefined, { Allow: [...handlers.keys()].join(', ') });
      }
      const segments = segmentsOf(request.url);
      const target = await deps.tree.resolve(caller, segments);
      const ctx: DavContext = { caller, request, reply, target, href: hrefOf(segments, target.node ? isCollection(target.node) : false) };
      await handler(ctx);
    };

    const options = { method: [...DAV_METHOD_NAMES], exposeHeadRoute: false, handler: handle };
    scope.route({ ...options, url: DAV_PREFIX });
    scope.route({ ...options, url: `${DAV_PREFIX}/*` });
  });
}
