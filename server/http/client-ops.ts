import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { HEADER_CLIENT_OP_ID, HEADER_CLIENT_OP_REPLAYED } from '../../common/api/client-env';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { ClientOpRepository } from '../repositories/client-op-repository';
import { AppError } from './app-error';
import { callerOf } from './session-guard';

/**
 * The writes the web app's offline outbox replays. With an X-Client-Op-Id header each is applied
 * once per user: the first request runs and its answer (status and body, errors included) is kept;
 * a repeat gets that answer without running again, so a replay after a lost answer never creates a
 * second folder. Without the header they behave as always.
 */
export const IDEMPOTENT_ROUTES: ReadonlySet<string> = new Set(
  [API.mkdir, API.rename, API.copy, API.move, API.removeFiles, API.favoriteAdd, API.favoriteRemove, API.createTxt, API.keepOnCreateTxt].map((p) => `POST ${p}`),
);

const OP_ID_RE = /^[A-Za-z0-9_-]{16,64}$/;
/** Answers are kept this long (the outbox replays within minutes of the network coming back). */
export const CLIENT_OP_TTL_MS = 7 * 24 * 3600 * 1000;
/**
 * A first request still "running" after this long died with the server: the id may run again.
 * Until then a repeat answers OP_IN_PROGRESS (409), which the outbox retries — running it twice
 * concurrently is exactly what the id exists to prevent. Answering at once rather than holding the
 * repeat until the first ends keeps no waiters in memory (nothing to wake, nothing lost on a restart)
 * and works the same with several server processes on one database; the outbox retries anyway.
 */
export const ABANDONED_AFTER_MS = 5 * 60 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when this request is the first run of a client operation id: its answer is kept. */
    clientOp: { userId: string; opId: string } | null;
  }
}

/** What makes two requests "the same": method, route and (validated) body. */
export function requestHash(method: string, route: string, body: unknown): string {
  return createHash('sha256').update(`${method}\n${route}\n${JSON.stringify(body ?? null)}`).digest('hex');
}

export function installClientOps(app: FastifyInstance, ops: ClientOpRepository): void {
  app.decorateRequest('clientOp', null);

  app.addHook('preHandler', async (request, reply) => {
    const opId = request.headers[HEADER_CLIENT_OP_ID.toLowerCase()];
    if (opId === undefined || !IDEMPOTENT_ROUTES.has(`${request.method} ${request.routeOptions.url}`)) return;
    if (typeof opId !== 'string' || !OP_ID_RE.test(opId)) throw new AppError(ERRORS.OP_ID_INVALID);
    const userId = callerOf(request).userId;
    const hash = requestHash(request.method, request.routeOptions.url ?? '', request.body);
    const now = Date.now();
    if (await ops.claim(userId, opId, hash, now, now - ABANDONED_AFTER_MS)) {
      request.clientOp = { userId, opId };
      return;
    }
    const earlier = await ops.find(userId, opId);
    if (earlier && earlier.request_hash !== hash) throw new AppError(ERRORS.OP_ID_REUSED);
    if (!earlier || earlier.status === null) throw new AppError(ERRORS.OP_IN_PROGRESS);
    return reply.code(earlier.status).header('content-type', 'application/json; charset=utf-8').header(HEADER_CLIENT_OP_REPLAYED, '1').send(earlier.body ?? '');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const op = request.clientOp;
    if (!op) return payload;
    request.clientOp = null;
    // A server failure is no answer to keep: the next try runs again.
    if (reply.statusCode >= 500 || typeof payload !== 'string') await ops.release(op.userId, op.opId);
    else await ops.finish(op.userId, op.opId, reply.statusCode, payload);
    return payload;
  });
}
