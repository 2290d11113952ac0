import type { FastifyInstance } from 'fastify';
import type { ApiOk } from '../../common/api/envelope';
import {
  NOTICE_AUDIENCE_MAX,
  NOTICE_MAX_PAGE_SIZE,
  type ManagedNotice,
  type ManagedNoticeListRequest,
  type ManagedNoticePage,
  type NoticeIdRequest,
  type NoticePinRequest,
  type NoticePopup,
  type NoticeSaveRequest,
  type SystemNotice,
  type SystemNoticeIdsRequest,
  type SystemNoticeListRequest,
  type SystemNoticePage,
  type SystemUnreadCount,
} from '../../common/api/notices';
import { API } from '../../common/api/paths';
import { callerOf } from '../http/session-guard';
import type { Notices } from '../services/notices';
import { idString } from './schemas';

const cursor = { anyOf: [{ type: 'string', maxLength: 200 }, { type: 'null' }] } as const;
const pageSize = { type: 'integer', minimum: 1, maximum: NOTICE_MAX_PAGE_SIZE } as const;
const idQuery = { querystring: { type: 'object', required: ['id'], properties: { id: idString } } } as const;
const idBody = { body: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: idString } } } as const;
const idsBody = { body: { type: 'object', required: ['ids'], additionalProperties: false, properties: { ids: { type: 'array', items: idString, minItems: 1, maxItems: 1000 } } } } as const;
const idArray = { type: 'array', items: idString, maxItems: NOTICE_AUDIENCE_MAX } as const;
const saveBody = {
  type: 'object',
  required: ['title', 'content', 'audience', 'important', 'pinned', 'publish'],
  additionalProperties: false,
  properties: {
    id: idString,
    title: { type: 'string', maxLength: 1000 },
    // The sanitised result is bounded by NOTICE_CONTENT_MAX; what the editor sends may carry some markup more.
    content: { type: 'string', maxLength: 1_000_000 },
    audience: {
      type: 'object',
      required: ['all', 'departmentIds', 'userIds'],
      additionalProperties: false,
      properties: { all: { type: 'boolean' }, departmentIds: idArray, userIds: idArray },
    },
    important: { type: 'boolean' },
    pinned: { type: 'boolean' },
    platform: { type: 'boolean' },
    publish: { type: 'string', enum: ['draft', 'now', 'at'] },
    publishAt: { type: 'integer', minimum: 0 },
  },
} as const;

/** 系统消息 for readers (ours: `/api/sysMsg/*`) and 公告管理 for admins (`/api/v2/notice/manage/*`). */
export function registerSystemNoticeRoutes(app: FastifyInstance, notices: Notices): void {
  const service = notices.systemNotices;

  app.post(
    API.sysMsgList,
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { read: { type: 'boolean' }, keyword: { type: 'string', maxLength: 100 }, cursor, pageSize },
        },
      },
    },
    async (request): Promise<ApiOk<SystemNoticePage>> => ({ data: await service.list(callerOf(request), request.body as SystemNoticeListRequest) }),
  );
  app.get(API.sysMsgGet, { schema: idQuery }, async (request): Promise<ApiOk<SystemNotice>> => ({
    data: await service.get(callerOf(request), (request.query as { id: string }).id),
  }));
  app.post(API.sysMsgMarkRead, { schema: idsBody }, async (request): Promise<ApiOk<SystemUnreadCount>> => ({
    data: await service.markRead(callerOf(request), (request.body as SystemNoticeIdsRequest).ids),
  }));
  app.post(API.sysMsgMarkAllRead, async (request): Promise<ApiOk<SystemUnreadCount>> => ({ data: await service.markAllRead(callerOf(request)) }));
  app.get(API.sysMsgPopup, async (request): Promise<ApiOk<NoticePopup>> => ({ data: await service.popup(callerOf(request)) }));
  app.post(API.sysMsgPopupAck, { schema: idsBody }, async (request): Promise<ApiOk<null>> => ({
    data: await service.ackPopup(callerOf(request), (request.body as SystemNoticeIdsRequest).ids),
  }));

  const admin = { adminOnly: true } as const;
  app.post(
    API.noticeManageList,
    {
      config: admin,
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { state: { type: 'string', enum: ['draft', 'scheduled', 'published', 'withdrawn'] }, keyword: { type: 'string', maxLength: 100 }, cursor, pageSize },
        },
      },
    },
    async (request): Promise<ApiOk<ManagedNoticePage>> => ({ data: await service.manageList(callerOf(request), request.body as ManagedNoticeListRequest) }),
  );
  app.get(API.noticeManageGet, { config: admin, schema: idQuery }, async (request): Promise<ApiOk<ManagedNotice>> => ({
    data: await service.manageGet(callerOf(request), (request.query as { id: string }).id),
  }));
  app.post(API.noticeManageSave, { config: admin, schema: { body: saveBody } }, async (request): Promise<ApiOk<ManagedNotice>> => {
    const caller = callerOf(request);
    return { data: await service.save(caller, request.body as NoticeSaveRequest, await notices.userName(caller.userId)) };
  });
  app.post(
    API.noticeManagePin,
    { config: admin, schema: { body: { type: 'object', required: ['id', 'pinned'], additionalProperties: false, properties: { id: idString, pinned: { type: 'boolean' } } } } },
    async (request): Promise<ApiOk<ManagedNotice>> => ({ data: await service.pin(callerOf(request), request.body as NoticePinRequest) }),
  );
  app.post(API.noticeManageWithdraw, { config: admin, schema: idBody }, async (request): Promise<ApiOk<ManagedNotice>> => ({
    data: await service.withdraw(callerOf(request), (request.body as NoticeIdRequest).id),
  }));
  app.post(API.noticeManageDelete, { config: admin, schema: idBody }, async (request): Promise<ApiOk<null>> => ({
    data: await service.delete(callerOf(request), (request.body as NoticeIdRequest).id),
  }));
}
