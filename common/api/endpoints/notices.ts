import { Type, type Static } from 'typebox';
import { bytes, data, endpoint } from '../endpoint';
import {
  FILE_MESSAGE_MAX_IDS,
  NOTICE_AUDIENCE_MAX,
  NOTICE_MAX_PAGE_SIZE,
  NOTICE_STATE_LABELS,
  type FileMessageCategory,
  type FileMessageChange,
  type FileMessagePage,
  type FileUnreadCount,
  type ManagedNotice,
  type ManagedNoticePage,
  type NoticePopup,
  type NoticeReadersPage,
  type NoticeState,
  type SystemNotice,
  type SystemNoticePage,
  type SystemUnreadCount,
  type UnreadCounts,
} from '../notices';
import { API } from '../paths';
import { EmptyBody, IdBody, IdString } from '../schemas';

/**
 * File messages (spec §7: paths and encodings; payloads ours, in ../notices.ts), both unread counts,
 * the notice stream, system notices for their readers (ours: `/api/sysMsg/*`) and 公告管理 for admins
 * (ours: `/api/v2/notice/manage/*`). Each caller sees and changes only their own messages: ids of
 * others (or of another tenant) are ignored like unknown ones.
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

/**
 * markRead / delete of file messages, markRead / popup ack of system notices (JSON): 1..FILE_MESSAGE_MAX_IDS
 * ids. Unknown ids are ignored.
 */
export const MessageIdsBody = Type.Object({ ids: Type.Array(IdString, { minItems: 1, maxItems: FILE_MESSAGE_MAX_IDS }) }, { additionalProperties: false });
export type MessageIdsRequest = Static<typeof MessageIdsBody>;

// ---- system notices --------------------------------------------------------------------------------

/** Keyset pages of notices: the cursor from the previous page's nextCursor, null or absent for the first. */
const NoticeCursor = Type.Union([Type.String({ maxLength: 200 }), Type.Null()]);
/** 1..NOTICE_MAX_PAGE_SIZE, default NOTICE_DEFAULT_PAGE_SIZE. */
const NoticePageSize = Type.Integer({ minimum: 1, maximum: NOTICE_MAX_PAGE_SIZE });
/** Part of the title or the text, case-insensitive. */
const NoticeKeyword = Type.String({ maxLength: 100 });
/** `{id}` of one notice, nothing else. */
const NoticeIdBody = Type.Object({ id: IdString }, { additionalProperties: false });
export type NoticeIdRequest = Static<typeof NoticeIdBody>;

/** `POST /api/sysMsg/list`: the caller's notices, pinned first, then newest. `read` absent: read and unread. */
export const SystemNoticeListBody = Type.Object(
  { read: Type.Optional(Type.Boolean()), keyword: Type.Optional(NoticeKeyword), cursor: Type.Optional(NoticeCursor), pageSize: Type.Optional(NoticePageSize) },
  { additionalProperties: false },
);
export type SystemNoticeListRequest = Static<typeof SystemNoticeListBody>;

/** `POST /api/v2/notice/manage/list` (admins): the tenant's notices (and the platform's, for a platform admin). */
export const ManagedNoticeListBody = Type.Object(
  {
    state: Type.Optional(Type.Enum(Object.keys(NOTICE_STATE_LABELS) as NoticeState[], { type: 'string' })),
    keyword: Type.Optional(NoticeKeyword),
    cursor: Type.Optional(NoticeCursor),
    pageSize: Type.Optional(NoticePageSize),
  },
  { additionalProperties: false },
);
export type ManagedNoticeListRequest = Static<typeof ManagedNoticeListBody>;

const AudienceIds = Type.Array(IdString, { maxItems: NOTICE_AUDIENCE_MAX });
/** Who a notice is for: the whole tenant, or departments (with everything below them) and people. */
const NoticeAudienceSchema = Type.Object({ all: Type.Boolean(), departmentIds: AudienceIds, userIds: AudienceIds }, { additionalProperties: false });

/**
 * `POST /api/v2/notice/manage/save`: a new notice (no id) or a change of one. The service checks the
 * title (NOTICE_TITLE_MAX) and the sanitised content (NOTICE_CONTENT_MAX); the bounds here are looser.
 * - content: HTML from the editor; the server keeps only NOTICE_HTML_ALLOWED and answers what it kept;
 * - platform: platform admins only, for every tenant (audience must then be `all`). Anyone else
 *   asking for it is refused (FORBIDDEN);
 * - publish: 'draft' keeps it unpublished (a published one cannot go back: withdraw it), 'now'
 *   publishes it, 'at' publishes at `publishAt` (ms, in the future; shown to readers from then on).
 */
export const NoticeSaveBody = Type.Object(
  {
    id: Type.Optional(IdString),
    title: Type.String({ maxLength: 1000 }),
    // The sanitised result is bounded by NOTICE_CONTENT_MAX; what the editor sends may carry some markup more.
    content: Type.String({ maxLength: 1_000_000 }),
    audience: NoticeAudienceSchema,
    important: Type.Boolean(),
    pinned: Type.Boolean(),
    platform: Type.Optional(Type.Boolean()),
    publish: Type.Enum(['draft', 'now', 'at'], { type: 'string' }),
    publishAt: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type NoticeSaveRequest = Static<typeof NoticeSaveBody>;
/** What the admin page edits: a notice without its id and publishing (ManagedNotice has these). */
export type NoticeDraft = Omit<NoticeSaveRequest, 'id' | 'publish' | 'publishAt'>;

/**
 * `POST /api/v2/notice/manage/readers`: who of the notice's audience has read it (`read: true`), who
 * has not (`false`), or both (absent), by account in keyset pages. A platform notice lists the
 * caller's tenant. Another tenant's notice answers NOTICE_NOT_FOUND.
 */
export const NoticeReadersBody = Type.Object(
  { id: IdString, read: Type.Optional(Type.Boolean()), cursor: Type.Optional(NoticeCursor), pageSize: Type.Optional(NoticePageSize) },
  { additionalProperties: false },
);
export type NoticeReadersRequest = Static<typeof NoticeReadersBody>;

export const NoticePinBody = Type.Object({ id: IdString, pinned: Type.Boolean() }, { additionalProperties: false });
export type NoticePinRequest = Static<typeof NoticePinBody>;

const admin = 'admin' as const;

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
  fileMsgMarkRead: endpoint({ method: 'POST', path: API.fileMsgMarkRead, access: 'member', action: null, body: MessageIdsBody, response: data<FileMessageChange>() }),
  fileMsgDelete: endpoint({ method: 'POST', path: API.fileMsgDelete, access: 'member', action: null, body: MessageIdsBody, response: data<FileMessageChange>() }),
  /** An empty form (spec §7). */
  fileMsgMarkAllRead: endpoint({ method: 'POST', path: API.fileMsgMarkAllRead, access: 'member', action: null, encoding: 'form', body: EmptyBody, response: data<FileMessageChange>() }),
  /** Ours: text/event-stream of counts and new messages (NOTICE_STREAM events in ../notices.ts). */
  stream: endpoint({ method: 'GET', path: API.noticeStream, access: 'member', action: null, response: bytes }),

  /** The caller's notices (SystemNoticePage's `unread` so a page and the badge never disagree). */
  sysMsgList: endpoint({ method: 'POST', path: API.sysMsgList, access: 'member', action: null, body: SystemNoticeListBody, response: data<SystemNoticePage>() }),
  /** `?id=`: one the caller may read; others answer NOTICE_NOT_FOUND. */
  sysMsgGet: endpoint({ method: 'GET', path: API.sysMsgGet, access: 'member', action: null, query: IdBody, response: data<SystemNotice>() }),
  /** → the counts after. */
  sysMsgMarkRead: endpoint({ method: 'POST', path: API.sysMsgMarkRead, access: 'member', action: null, body: MessageIdsBody, response: data<SystemUnreadCount>() }),
  /** `{}` → the counts after. */
  sysMsgMarkAllRead: endpoint({ method: 'POST', path: API.sysMsgMarkAllRead, access: 'member', action: null, response: data<SystemUnreadCount>() }),
  /** Important notices not shown to the caller yet (shown once, at login). */
  sysMsgPopup: endpoint({ method: 'GET', path: API.sysMsgPopup, access: 'member', action: null, response: data<NoticePopup>() }),
  /** These were shown (marks them read too). */
  sysMsgPopupAck: endpoint({ method: 'POST', path: API.sysMsgPopupAck, access: 'member', action: null, body: MessageIdsBody, response: data<null>() }),

  /** 公告管理 (admins). */
  noticeManageList: endpoint({ method: 'POST', path: API.noticeManageList, access: admin, action: null, body: ManagedNoticeListBody, response: data<ManagedNoticePage>() }),
  /** `?id=`. */
  noticeManageGet: endpoint({ method: 'GET', path: API.noticeManageGet, access: admin, action: null, query: IdBody, response: data<ManagedNotice>() }),
  /** → the notice as kept (content sanitised). */
  noticeManageSave: endpoint({ method: 'POST', path: API.noticeManageSave, access: admin, action: 'notice.update', body: NoticeSaveBody, response: data<ManagedNotice>() }),
  noticeManagePin: endpoint({ method: 'POST', path: API.noticeManagePin, access: admin, action: 'notice.pin', body: NoticePinBody, response: data<ManagedNotice>() }),
  /** Readers no longer see it. */
  noticeManageWithdraw: endpoint({ method: 'POST', path: API.noticeManageWithdraw, access: admin, action: 'notice.withdraw', body: NoticeIdBody, response: data<ManagedNotice>() }),
  /** 阅读情况: the audience with who read it (NoticeReadersPage). */
  noticeManageReaders: endpoint({ method: 'POST', path: API.noticeManageReaders, access: admin, action: null, body: NoticeReadersBody, response: data<NoticeReadersPage>() }),
  /** With its read markers and audience. */
  noticeManageDelete: endpoint({ method: 'POST', path: API.noticeManageDelete, access: admin, action: 'notice.delete', body: NoticeIdBody, response: data<null>() }),
};
