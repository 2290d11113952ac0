import type { ActionObserver } from '../action-log-service';
import type { Caller } from '../caller';
import type { UnreadCounter } from './delivery';
import type { FileMessageService } from './file-message-service';
import type { NoticeHub } from './notice-hub';
import type { NoticeScheduler } from './notice-scheduler';
import type { NoticeEvents } from './ports';
import type { SystemNoticeService } from './system-notice-service';

export type { NoticeEvents } from './ports';
export { extendFileReach, type FileReach } from './file-reach';

/** The notices (issue 16) as the routes and other domains see them; built by server/compose/notices.ts. */
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
  sensitiveHeld: (caller: Caller, held: Array<{ key: string; name: string; keyword: string; parentId: string | null; category: number }>) => Promise<void>;
  userName(userId: string): Promise<string>;
  start(): void;
  stop(): Promise<void>;
}
