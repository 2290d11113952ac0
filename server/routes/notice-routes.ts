import type { FastifyInstance } from 'fastify';
import { NOTICES } from '../../common/api/endpoints/notices';
import { ERRORS } from '../../common/api/errors';
import { AppError } from '../http/app-error';
import { route } from '../http/endpoint-route';
import { SESSION_COOKIE } from '../http/session-cookie';
import { callerOf } from '../http/session-guard';
import { hashToken } from '../services/auth-service';
import type { Notices } from '../services/notices';

/** Writes one Server-Sent Event (JSON data never holds a raw newline). */
const sseEvent = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** Spec §7 file-message calls, the unread counts, and the notice stream. */
export function registerNoticeRoutes(app: FastifyInstance, notices: Notices): void {
  const { fileMessages, counter } = notices;

  route(app, NOTICES.unreadCount, async (request) => {
    const caller = callerOf(request);
    return { data: await counter.all(caller.tenantId, caller.userId) };
  });
  route(app, NOTICES.sysMsgUnreadNum, async (request) => ({ data: await notices.systemNotices.unread(callerOf(request)) }));
  route(app, NOTICES.fileMsgUnreadNum, async (request) => ({ data: { count: await fileMessages.unreadCount(callerOf(request)) } }));

  // An empty form may come as no body at all.
  route(app, NOTICES.fileMsgList, async (request) => ({ data: await fileMessages.list(callerOf(request), request.body ?? {}) }));
  route(app, NOTICES.fileMsgSearch, async (request) => ({ data: await fileMessages.search(callerOf(request), request.body ?? {}) }));
  route(app, NOTICES.fileMsgMarkRead, async (request) => ({ data: await fileMessages.markRead(callerOf(request), request.body.ids) }));
  route(app, NOTICES.fileMsgDelete, async (request) => ({ data: await fileMessages.delete(callerOf(request), request.body.ids) }));
  route(app, NOTICES.fileMsgMarkAllRead, async (request) => ({ data: await fileMessages.markAllRead(callerOf(request)) }));

  /**
   * The notice stream (NOTICE_STREAM events in common/api/notices.ts). Hijacked: Fastify's reply is
   * done with once the headers are out; the hub writes events until the client goes, the session
   * ends (an `ended` event first) or the server closes.
   */
  route(app, NOTICES.stream, async (request, reply) => {
    const caller = callerOf(request);
    const token = request.cookies[SESSION_COOKIE];
    if (!token) throw new AppError(ERRORS.UNAUTHORIZED);
    if (!notices.hub.hasRoomFor(caller.userId)) throw new AppError(ERRORS.NOTICE_STREAM_LIMIT);
    const counts = await counter.all(caller.tenantId, caller.userId);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      // The session guard may have slid the session's expiry (Set-Cookie): keep what it set.
      ...(reply.getHeaders() as Record<string, string | string[]>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // Reverse proxies (nginx) must pass events through as they come.
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    let open = true;
    const write = (text: string): boolean => {
      if (!open || res.writableEnded || res.destroyed) return false;
      res.write(text);
      return true;
    };
    const remove = notices.hub.add({
      userId: caller.userId,
      tenantId: caller.tenantId,
      sessionId: hashToken(token),
      send: (event, data) => write(sseEvent(event, data)),
      ping: () => void write(': ping\n\n'),
      close: () => {
        open = false;
        res.end();
      },
    });
    request.raw.on('close', () => {
      open = false;
      remove();
    });
    // How long the browser waits before reconnecting after a drop, then the current counts.
    write(`retry: 3000\n\n${sseEvent('counts', counts)}`);
  });
}
