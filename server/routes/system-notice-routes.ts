import type { FastifyInstance } from 'fastify';
import { NOTICES } from '../../common/api/endpoints/notices';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { Notices } from '../services/notices';

/** 系统消息 for readers (ours: `/api/sysMsg/*`) and 公告管理 for admins (`/api/v2/notice/manage/*`). */
export function registerSystemNoticeRoutes(app: FastifyInstance, notices: Notices): void {
  const service = notices.systemNotices;

  route(app, NOTICES.sysMsgList, async (request) => ({ data: await service.list(callerOf(request), request.body) }));
  route(app, NOTICES.sysMsgGet, async (request) => ({ data: await service.get(callerOf(request), request.query.id) }));
  route(app, NOTICES.sysMsgMarkRead, async (request) => ({ data: await service.markRead(callerOf(request), request.body.ids) }));
  route(app, NOTICES.sysMsgMarkAllRead, async (request) => ({ data: await service.markAllRead(callerOf(request)) }));
  route(app, NOTICES.sysMsgPopup, async (request) => ({ data: await service.popup(callerOf(request)) }));
  route(app, NOTICES.sysMsgPopupAck, async (request) => ({ data: await service.ackPopup(callerOf(request), request.body.ids) }));

  route(app, NOTICES.noticeManageList, async (request) => ({ data: await service.manageList(callerOf(request), request.body) }));
  route(app, NOTICES.noticeManageGet, async (request) => ({ data: await service.manageGet(callerOf(request), request.query.id) }));
  route(app, NOTICES.noticeManageSave, async (request) => {
    const caller = callerOf(request);
    return { data: await service.save(caller, request.body, await notices.userName(caller.userId)) };
  });
  route(app, NOTICES.noticeManagePin, async (request) => ({ data: await service.pin(callerOf(request), request.body) }));
  route(app, NOTICES.noticeManageWithdraw, async (request) => ({ data: await service.withdraw(callerOf(request), request.body.id) }));
  route(app, NOTICES.noticeManageReaders, async (request) => ({ data: await service.readers(callerOf(request), request.body) }));
  route(app, NOTICES.noticeManageDelete, async (request) => ({ data: await service.delete(callerOf(request), request.body.id) }));
}
