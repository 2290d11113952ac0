import type { FastifyInstance } from 'fastify';
import type { ApiOk } from '../../common/api/envelope';
import { ERRORS } from '../../common/api/errors';
import {
  FILE_MESSAGE_MAX_IDS,
  type FileMessageChange,
  type FileMessageIdsRequest,
  type FileMessageListForm,
  type FileMessagePage,
  type FileUnreadCount,
  type SystemUnreadCount,
  type UnreadCounts,
} from '../../common/api/notices';
import { API } from '../../common/api/paths';
import { AppError } from '../http/app-error';
import { SESSION_COOKIE } from '../http/session-cookie';
import { callerOf } from '../http/session-guard';
import { hashToken } from '../services/auth-service';
import type { Notices } from '../services/notices';
import { idString } from './schemas';

const formString = (maxLength: number) => ({ type: 'string', maxLength }) as const;
/** list / search: every field of a form is a string (FileMessageListForm). */
const listForm = {
  type: 'object',
  additionalProperties: false,
  properties: {
    read: formString(1),
    category: formString(16),
    types: formString(400),
    from: formString(16),
    to: formString(16),
    keyword: formString(200),
    cursor: formString(200),
    pageSize: formString(4),
  },
} as const;
const idsBody = {
  body: { type: 'object', required: ['ids'], additionalProperties: false, properties: { ids: { type: 'array', items: idString, minItems: 1, maxItems: FILE_MESSAGE_MAX_IDS } } },
} as const;
const form = { bodyEncoding: 'form' } as const;

/** Writes one Server-Sent Event (JSON data never holds a raw newline). */
const sseEvent = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** Spec §7 file-message calls, the unread counts, and the notice stream. */
export function registerNoticeRoutes(app: FastifyInstance, notices: Notices): void {
  const { fileMessages, counter } = notices;

  app.get(API.noticeUnreadCount, async (request): Promise<ApiOk<UnreadCounts>> => {
    const caller = callerOf(request);
    return { data: await counter.all(caller.tenantId, caller.userId) };
  });
  app.post(API.sysMsgUnreadNum, async (request): Promise<ApiOk<SystemUnreadCount>> => ({ data: await notices.systemNotices.unread(callerOf(request)) }));
  app.post(API.fileMsgUnreadNum, async (request): Promise<ApiOk<FileUnreadCount>> => ({ data: { count: await fileMessages.unreadCount(callerOf(request)) } }));

  app.post(API.fileMsgList, { config: form, schema: { body: listForm } }, async (request): Promise<ApiOk<FileMessagePage>> => ({
    data: await fileMessages.list(callerOf(request), (request.body ?? {}) as FileMessageListForm),
  }));
  app.post(API.fileMsgSearch, { config: form, schema: { body: listForm } }, async (request): Promise<ApiOk<FileMessagePage>> => ({
    data: await fileMessages.search(callerOf(request), (request.body ?? {}) as FileMessageListForm),
  }));
  app.post(API.fileMsgMarkRead, { schema: idsBody }, async (request): Promise<ApiOk<FileMessageChange>> => ({
    data: await fileMessages.markRead(callerOf(request), (request.body as FileMessageIdsRequest).ids),
  }));
  app.post(API.fileMsgDelete, { schema: idsBody }, async (request): Promise<ApiOk<FileMessageChange>> => ({
    data: await fileMessages.delete(callerOf(request), (request.body as FileMessageIdsRequest).ids),
  }));
  app.post(API.fileMsgMarkAllRead, { config: form, schema: { body: { type: 'object', additionalProperties: false, properties: {} } } }, async (request): Promise<ApiOk<FileMessageChange>> => ({
    data: await fileMessages.markAllRead(callerOf(request)),
  }));

  /**
   * The notice stream (NOTICE_STREAM events in common/api/notices.ts). Hijacked: Fastify's reply is
   * done with once the headers are out; the hub writes events until the client goes, the session
   * ends (an `ended` event first) or the server closes.
   */
  app.get(API.noticeStream, async (request, reply) => {
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
