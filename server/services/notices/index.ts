import { NOTICE_STREAM_PING_MS } from '../../../common/api/notices';
import type { RoleCode } from '../../../common/api/types';
import type { Db } from '../../db/database';
import { FileMessageRepository } from '../../repositories/file-message-repository';
import { NoticeFileRepository } from '../../repositories/notice-file-repository';
import { NoticeSessionRepository } from '../../repositories/notice-session-repository';
import { SystemNoticeRepository } from '../../repositories/system-notice-repository';
import type { ActionObserver } from '../action-log-service';
import type { Caller } from '../caller';
import { fileActionObserver } from './action-events';
import { NoticeDelivery, UnreadCounter } from './delivery';
import { SpaceFileReach, type FileReach } from './file-reach';
import { FileMessageService } from './file-message-service';
import { NoticeHub } from './notice-hub';
import { NoticeScheduler } from './notice-scheduler';
import type { NoticeEvents } from './ports';
import { SystemNoticeService } from './system-notice-service';

export type { NoticeEvents } from './ports';
export { extendFileReach, type FileReach } from './file-reach';

export interface Notices {
  fileMessages: FileMessageService;
  systemNotices: SystemNoticeService;
  counter: UnreadCounter;
  hub: NoticeHub;
  scheduler: NoticeScheduler;
  /** The port other work calls (sharing: shares, revocations, expiries, applications, link downloads). */
  events: NoticeEvents;
  /** Give to ActionLogService.observe: file changes become messages. */
  fileActions: ActionObserver;
  /** Give to CheckService: uploads held as sensitive become messages. */
  sensitiveHeld: (caller: Caller, held: Array<{ key: string; name: string; keyword: string }>) => Promise<void>;
  userName(userId: string): Promise<string>;
  start(): void;
  stop(): Promise<void>;
}

export interface NoticeOptions {
  onError: (err: unknown) => void;
  /** Widens who may reach an entry and who watches it (sharing): `(base) => extendFileReach(base, shares)`. */
  reach?: (base: FileReach) => FileReach;
  /** How often the sessions behind open streams are checked (ms). */
  sessionCheckMs?: number;
  streamsPerUser?: number;
}

/** Builds the notices (issue 16): repositories, services, the stream hub and the scheduler. */
export function buildNotices(db: Db, options: NoticeOptions): Notices {
  const fileRepo = new FileMessageRepository(db);
  const noticeRepo = new SystemNoticeRepository(db);
  const people = new NoticeFileRepository(db);
  const sessions = new NoticeSessionRepository(db);
  const base = new SpaceFileReach(people);
  const reach = options.reach ? options.reach(base) : base;
  const hub = new NoticeHub({
    sessionCheckMs: options.sessionCheckMs ?? 5000,
    pingMs: NOTICE_STREAM_PING_MS,
    perUser: options.streamsPerUser ?? 8,
    sessionStates: (ids) => sessions.states(ids, Date.now()),
    onError: options.onError,
  });
  const counter = new UnreadCounter(fileRepo, noticeRepo);
  const delivery = new NoticeDelivery(hub, counter, options.onError, async (tenantId, userIds, fileIds) => {
    const out = new Map<string, Map<string, string>>();
    for (const [userId, user] of await people.liveUsers(tenantId, userIds)) {
      const reached = await reach.resolve({ tenantId, userId, role: user.role as RoleCode }, fileIds);
      out.set(userId, new Map([...reached].map(([id, f]) => [id, f.name])));
    }
    return out;
  });
  const fileMessages = new FileMessageService(fileRepo, people, reach, delivery, options.onError);
  const systemNotices = new SystemNoticeService(noticeRepo, counter, delivery);
  const scheduler = new NoticeScheduler(noticeRepo, delivery, options.onError);
  systemNotices.onScheduled = () => scheduler.rearm();
  return {
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
      hub.start();
      scheduler.start();
    },
    async stop() {
      hub.stop();
      await scheduler.stop();
    },
  };
}
