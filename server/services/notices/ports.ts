import type { FileMessageDetail, FileMessageType } from '../../../common/api/notices';
import type { FileMessagesTable } from '../../db/schema';

/**
 * What the rest of the server tells the notices. The sharing work calls this port (app.ts hands it
 * `notices.events`) after its change has committed; file changes (new version, lock, move, delete)
 * arrive through the action log instead (action-events.ts), so file services need no call of their own.
 *
 * Every call is safe to make and forget: it never throws (a failure is logged), it writes one message
 * per recipient — never to the actor, never to an account of another tenant or a deleted one — and
 * pushes it to the recipients' open notice streams with their new unread counts.
 */
export interface NoticeEvents {
  /** Resolves to how many messages were written (or re-batched). */
  notify(input: FileMessageInput): Promise<number>;
  /** A download through a share link: ONE message per link per hour for its owner, counting the downloads. */
  linkDownloaded(input: LinkDownloadInput): Promise<number>;
}

export interface FileMessageInput {
  tenantId: string;
  type: FileMessageType;
  /**
   * User ids. For shares: the people the share reaches (a department or group recipient expanded to
   * its members); for applications: the applicant (approved / rejected) or the approvers (pending).
   */
  recipients: readonly string[];
  /** Who did it (their current nickname is looked up when `name` is absent); null = the server (expiry). */
  actor?: { id: string; name?: string } | null;
  /** The entry the message is about (its name now); `id` null for something that never became an entry. */
  file?: { id: string | null; name: string; isDir: boolean } | null;
  /** Entries the event covered (a share of 3 files: the first in `file`, 3 here). */
  itemCount?: number;
  /** The share, application or link id (applications: where the message leads). */
  refId?: string | null;
  detail?: FileMessageDetail;
  /** Event time (ms); default now. */
  at?: number;
  /** Coalescing: 'once' = at most one message per recipient and key; 'merge' = update the earlier one. */
  batch?: { key: string; mode: 'once' | 'merge'; merge?: (old: FileMessagesTable) => Pick<FileMessagesTable, 'detail' | 'item_count' | 'actor_id' | 'actor_name'> };
}

export interface LinkDownloadInput {
  tenantId: string;
  linkId: string;
  /** The link's owner: the one who hears of it. */
  ownerId: string;
  file: { id: string; name: string; isDir: boolean };
  /** The visitor when signed in; null for an anonymous download. */
  visitor?: { id: string; name: string } | null;
  at?: number;
}
