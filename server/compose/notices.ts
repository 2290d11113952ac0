import { NOTICE_STREAM_PING_MS } from '../../common/api/notices';
import type { RoleCode } from '../../common/api/types';
import type { FastifyInstance } from 'fastify';
import { FileMessageRepository } from '../repositories/file-message-repository';
import { NoticeFileRepository } from '../repositories/notice-file-repository';
import { NoticeSessionRepository } from '../repositories/notice-session-repository';
import { ShareRepository } from '../repositories/share-repository';
import { SharingLookupRepository } from '../repositories/sharing-lookup-repository';
import { SystemNoticeRepository } from '../repositories/system-notice-repository';
import { registerNoticeRoutes } from '../routes/notice-routes';
import { registerSystemNoticeRoutes } from '../routes/system-notice-routes';
import type { ActionLogService } from '../services/action-log-service';
import type { Notices } from '../services/notices';
import { fileActionObserver } from '../services/notices/action-events';
import type { EventBus } from '../services/cluster/ports';
import { NoticeDelivery, UnreadCounter } from '../services/notices/delivery';
import { NoticeFanout } from '../services/notices/fanout';
import { extendFileReach, SpaceFileReach } from '../services/notices/file-reach';
import { FileMessageService } from '../services/notices/file-message-service';
import { NoticeHub } from '../services/notices/notice-hub';
import { NoticeScheduler } from '../services/notices/notice-scheduler';
import { SystemNoticeService } from '../services/notices/system-notice-service';
import { SharedFileReach } from '../services/sharing/shared-file-reach';
import type { Base, Routed } from './base';
import type { FileRepositories } from './files';

export interface NoticesDeps extends Omit<Base, 'config'> {
  files: FileRepositories;
  /** File changes reach the notices through the action log. */
  actionLogs: ActionLogService;
  /** Events of every server process (compose/cluster.ts): a reader's stream may be open on any. */
  bus: EventBus;
  /** How often the sessions behind open streams are checked (ms). */
  sessionCheckMs?: number;
  streamsPerUser?: number;
}

/** The notices (issue 16): file messages, system notices, the stream hub and the scheduler. */
export function buildNotices({ db, log, files, actionLogs, bus, sessionCheckMs, streamsPerUser }: NoticesDeps): Notices & Routed {
  const onError = (err: unknown) => log.error({ err }, 'notice delivery failed');
  const fileRepo = new FileMessageRepository(db);
  const noticeRepo = new SystemNoticeRepository(db);
  const people = new NoticeFileRepository(db);
  const sessions = new NoticeSessionRepository(db);
  // Entries shared with a reader keep their names in the messages; a share's people watch its entries.
  const shared = new SharedFileReach(files.grants, files.files, new ShareRepository(db), new SharingLookupRepository(db));
  const reach = extendFileReach(new SpaceFileReach(people), shared);
  const hub = new NoticeHub({
    sessionCheckMs: sessionCheckMs ?? 5000,
    pingMs: NOTICE_STREAM_PING_MS,
    perUser: streamsPerUser ?? 8,
    sessionStates: (ids) => sessions.states(ids, Date.now()),
    onError,
  });
  const counter = new UnreadCounter(fileRepo, noticeRepo);
  const delivery = new NoticeDelivery(hub, counter, onError, async (tenantId, userIds, fileIds) => {
    const out = new Map<string, Map<string, string>>();
    for (const [userId, user] of await people.liveUsers(tenantId, userIds)) {
      const reached = await reach.resolve({ tenantId, userId, role: user.role as RoleCode }, fileIds);
      out.set(userId, new Map([...reached].map(([id, f]) => [id, f.name])));
    }
    return out;
  });
  // Each process's scheduler tells its own readers (local delivery); everything else goes through the bus.
  const scheduler = new NoticeScheduler(noticeRepo, delivery, onError);
  const fanout = new NoticeFanout({ bus, hub, local: delivery, files: fileRepo, notices: noticeRepo, onError, onScheduled: () => scheduler.rearm() });
  const fileMessages = new FileMessageService({ repo: fileRepo, people, reach, delivery: fanout, onError });
  const systemNotices = new SystemNoticeService(noticeRepo, counter, fanout);
  systemNotices.onScheduled = () => fanout.scheduled();
  let unlisten = (): void => undefined;
  const notices: Notices & Routed = {
    fileMessages,
    systemNotices,
    counter,
    hub,
    scheduler,
    events: fileMessages,
    fileActions: fileActionObserver(fileMessages, people),
    sensitiveHeld: (caller, held) => fileMessages.sensitiveHeld(caller.tenantId, caller.userId, held),
    userName: (userId) => people.userName(userId),
    start() {
      unlisten = fanout.listen();
      hub.start();
      scheduler.start();
    },
    async stop() {
      unlisten();
      hub.stop();
      await scheduler.stop();
    },
    routes(app: FastifyInstance) {
      registerNoticeRoutes(app, notices);
      registerSystemNoticeRoutes(app, notices);
    },
  };
  actionLogs.observe(notices.fileActions);
  return notices;
}
