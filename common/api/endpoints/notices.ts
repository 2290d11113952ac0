import { Type, type Static } from 'typebox';
import { bytes, data, endpoint } from '../endpoint';
import {
  FILE_MESSAGE_MAX_IDS,
  type FileMessageCategory,
  type FileMessageChange,
  type FileMessagePage,
  type FileUnreadCount,
  type SystemUnreadCount,
  type UnreadCounts,
} from '../notices';
import { API } from '../paths';
import { EmptyBody, IdString } from '../schemas';

/**
 * File messages (spec §7: paths and encodings; payloads ours, in ../notices.ts), both unread counts
 * and the notice stream. Each caller sees and changes only their own messages: ids of others (or of
 * another tenant) are ignored like unknown ones.
 */

const FormString = (maxLength: number) => Type.String({ maxLength });

/**
 * `POST /api/fileMsg/list` and `/api/fileMsg/search`, form-encoded (spec §7): every field is a
 * string. Newest first, keyset pages (`cursor` from the previous page's nextCursor).
 * - read: '0' unread only, '1' read only, absent both;
 * - category: a FILE_MESSAGE_CATEGORIES key, or types: comma-separated FileMessageType codes;
 * - from / to: ms since the epoch (inclusive / exclusive) on the message time;
 * - keyword (search; required there): part of the file name or the actor's name, case-insensitive.
 *   Messages whose file the reader may no longer see never match by that file's name.
 * - pageSize: 1..FILE_MESSAGE_MAX_PAGE_SIZE, default FILE_MESSAGE_DEFAULT_PAGE_SIZE.
 * The service checks the values (VALIDATION); the schema bounds only their length.
 */
export const FileMessageListFormSchema = Type.Object(
  {
    read: Type.Optional(Type.Unsafe<'0' | '1'>(FormString(1))),
    category: Type.Optional(Type.Unsafe<FileMessageCategory>(FormString(16))),
    types: Type.Optional(FormString(400)),
    from: Type.Optional(FormString(16)),
    to: Type.Optional(FormString(16)),
    keyword: Type.Optional(FormString(200)),
    cursor: Type.Optional(FormString(200)),
    pageSize: Type.Optional(FormString(4)),
  },
  { additionalProperties: false },
);
export type FileMessageListForm = Static<typeof FileMessageListFormSchema>;

/** markRead / delete (JSON): 1..FILE_MESSAGE_MAX_IDS ids. Unknown ids are ignored. */
export const FileMessageIdsBody = Type.Object({ ids: Type.Array(IdString, { minItems: 1, maxItems: FILE_MESSAGE_MAX_IDS }) }, { additionalProperties: false });
export type FileMessageIdsRequest = Static<typeof FileMessageIdsBody>;

export const NOTICES = {
  /** The file and system badges in one call (spec §7). */
  unreadCount: endpoint({ method: 'GET', path: API.noticeUnreadCount, access: 'member', action: null, response: data<UnreadCounts>() }),
  /** No body; count = tenantNotices + platformNotices (spec §3, §7). */
  sysMsgUnreadNum: endpoint({ method: 'POST', path: API.sysMsgUnreadNum, access: 'member', action: null, response: data<SystemUnreadCount>() }),
  /** No body (spec §7; also the "file notice unread" call of §7 Notices). */
  fileMsgUnreadNum: endpoint({ method: 'POST', path: API.fileMsgUnreadNum, access: 'member', action: null, response: data<FileUnreadCount>() }),
  fileMsgList: endpoint({ method: 'POST', path: API.fileMsgList, access: 'member', action: null, encoding: 'form', body: FileMessageListFormSchema, response: data<FileMessagePage>() }),
  /** The list's form with `keyword`. */
  fileMsgSearch: endpoint({ method: 'POST', path: API.fileMsgSearch, access: 'member', action: null, encoding: 'form', body: FileMessageListFormSchema, response: data<FileMessagePage>() }),
  fileMsgMarkRead: endpoint({ method: 'POST', path: API.fileMsgMarkRead, access: 'member', action: null, body: FileMessageIdsBody, response: data<FileMessageChange>() }),
  fileMsgDelete: endpoint({ method: 'POST', path: API.fileMsgDelete, access: 'member', action: null, body: FileMessageIdsBody, response: data<FileMessageChange>() }),
  /** An empty form (spec §7). */
  fileMsgMarkAllRead: endpoint({ method: 'POST', path: API.fileMsgMarkAllRead, access: 'member', action: null, encoding: 'form', body: EmptyBody, response: data<FileMessageChange>() }),
  /** Ours: text/event-stream of counts and new messages (NOTICE_STREAM events in ../notices.ts). */
  stream: endpoint({ method: 'GET', path: API.noticeStream, access: 'member', action: null, response: bytes }),
};
