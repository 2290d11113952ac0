import { Type, type Static } from 'typebox';
import { bytes, data, endpoint } from '../endpoint';
import { API } from '../paths';
import { NullableCursor, IdString, NullableId, PageSize } from '../schemas';
import {
  LINK_MAX_DOWNLOAD_LIMIT,
  type LinkDownloadResponse,
  type LinkInfo,
  type LinkListResponse,
  type LinkOpenResponse,
  type LinkSaveResponse,
  type LinkSummary,
  type MyLinksResponse,
  type ShareState,
} from '../sharing';
import { IdsOf, listFilter, ShareIdsBody, ValidityDays } from './shares';
import { BATCH_MAX_IDS } from '../types';

/** Share links: the sharer's calls (session) and the visitor's (public: whoever holds the link); rules in ../sharing.ts. */

// Union types, not anyOf: with Fastify's type coercion anyOf would turn null into '' (or '' into null).
/** A chosen code (LINK_CODE_PATTERN), '' for a generated one, null for none (refused while keyCreate is on). */
const LinkCode = Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 8 });
/** Downloads allowed (a file, or a ZIP of several, counts one); null = unlimited. */
const DownloadLimit = Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1, maximum: LINK_MAX_DOWNLOAD_LIMIT });
/** A visit's bearer key (LinkVisit.visit). */
const Visit = Type.String({ minLength: 1, maxLength: 512 });

/** What a link is made with: its create, and the link part of an application (one schema for both). */
export const LinkSettingsSchema = Type.Object({ code: LinkCode, validityDays: ValidityDays, downloadLimit: DownloadLimit, previewOnly: Type.Boolean() });
export type LinkSettings = Static<typeof LinkSettingsSchema>;

/** A link for one file or folder. */
export const LinkCreateBody = Type.Object({ fileId: IdString, ...LinkSettingsSchema.properties });
export type LinkCreateRequest = Static<typeof LinkCreateBody>;

/**
 * Changes apply at once (a new validity counts from now). Judged against the link's ceiling like a
 * share update (see "Approved terms are a ceiling" in ../sharing.ts).
 */
export const LinkUpdateBody = Type.Object({
  id: IdString,
  code: Type.Optional(LinkCode),
  validityDays: Type.Optional(ValidityDays),
  downloadLimit: Type.Optional(DownloadLimit),
  previewOnly: Type.Optional(Type.Boolean()),
});
export type LinkUpdateRequest = Static<typeof LinkUpdateBody>;

/** 我的分享 (links), newest first. */
export const MyLinksBody = Type.Object(listFilter<ShareState>());
export type MyLinksRequest = Static<typeof MyLinksBody>;

/**
 * `{token, code?}`. Without a code: `{needCode: true}` for a link with a code AND for a token nobody
 * issued (the two look alike), else the link opened. With a code: the link opened, or LINK_INVALID for
 * a wrong code and an unknown token alike (counted and throttled). A revoked or expired link answers
 * LINK_GONE; every use after that too.
 */
export const LinkOpenBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 128 }), code: Type.Optional(Type.String({ maxLength: 16 })) });
export type LinkOpenRequest = Static<typeof LinkOpenBody>;

/** The link's page before the code (LinkSummary says what it tells and what not). */
export const LinkSummaryBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 128 }) }, { additionalProperties: false });
export type LinkSummaryRequest = Static<typeof LinkSummaryBody>;

/** One folder of the link (parentId null = the link's root folder). */
export const LinkListBody = Type.Object({ visit: Visit, parentId: NullableId, cursor: Type.Optional(NullableCursor), pageSize: Type.Optional(PageSize) });
export type LinkListRequest = Static<typeof LinkListBody>;

/** One file, or a ZIP of several entries / a folder: counts one download (the ticket's rules in ../sharing.ts). */
export const LinkDownloadBody = Type.Object({ visit: Visit, ids: IdsOf(BATCH_MAX_IDS) });
export type LinkDownloadRequest = Static<typeof LinkDownloadBody>;

/** A signed-in visitor copies entries into 个人文件 (a folder, or the root). */
export const LinkSaveBody = Type.Object({ visit: Visit, ids: IdsOf(BATCH_MAX_IDS), targetParentId: NullableId });
export type LinkSaveRequest = Static<typeof LinkSaveBody>;

/** A link's entry as the visitor asks for it: `/<id>?v=<visit>`. */
const LinkEntryParams = Type.Object({ id: IdString });
const VisitQuery = Type.Object({ v: Visit });
/** A download ticket, as LINKS.download answered it in its `url`. */
const TicketParams = Type.Object({ ticket: Type.String({ minLength: 1, maxLength: 128 }) });

const member = 'member' as const;
/** The visitor's calls: no session needed (publicDownLoad off refuses downloads of public-space files, never the visit). */
const visitor = 'public' as const;

export const LINKS = {
  /** SHARE_APPROVAL_REQUIRED when the policy wants an application. */
  create: endpoint({ method: 'POST', path: API.linkCreate, access: member, action: 'link.create', body: LinkCreateBody, response: data<LinkInfo>() }),
  update: endpoint({ method: 'POST', path: API.linkUpdate, access: member, action: 'link.update', body: LinkUpdateBody, response: data<LinkInfo>() }),
  revoke: endpoint({ method: 'POST', path: API.linkRevoke, access: member, action: 'link.revoke', body: ShareIdsBody, response: data<{ revoked: number }>() }),
  /** 我的分享, links with their counts. */
  mine: endpoint({ method: 'POST', path: API.linkMine, access: member, action: null, body: MyLinksBody, response: data<MyLinksResponse>() }),
  /** Not an action (the open is): a view of the code page, like today's `open` without a code. */
  summary: endpoint({ method: 'POST', path: API.linkSummary, access: visitor, action: null, body: LinkSummaryBody, response: data<LinkSummary>() }),
  open: endpoint({ method: 'POST', path: API.linkOpen, access: visitor, action: 'link.open', body: LinkOpenBody, response: data<LinkOpenResponse>() }),
  list: endpoint({ method: 'POST', path: API.linkList, access: visitor, action: null, body: LinkListBody, response: data<LinkListResponse>() }),
  /** Counts; DEP10213 past the limit. Answers the ticket's address (`GET linkFilePrefix<ticket>`). */
  download: endpoint({ method: 'POST', path: API.linkDownload, access: visitor, action: 'link.download', body: LinkDownloadBody, response: data<LinkDownloadResponse>() }),
  /**
   * The ticket's bytes, an attachment: one copy per ticket, Range honoured (rules: LinkDownloadResponse
   * in ../sharing.ts). Not an action: the download was recorded when LINKS.download counted it.
   */
  ticketFile: endpoint({ method: 'GET', path: `${API.linkFilePrefix}:ticket`, access: visitor, action: null, params: TicketParams, response: bytes }),
  /**
   * The headers the GET would get now (200/206 and Content-Length, or the refusal's status), taking
   * nothing of the ticket: its own entry, so Fastify's automatic HEAD (which runs the GET) is not used.
   */
  ticketFileHead: endpoint({ method: 'HEAD', path: `${API.linkFilePrefix}:ticket`, access: visitor, action: null, params: TicketParams, response: bytes }),
  /**
   * A rendition, as `previewPrefix` (watermarked pictures and `no-store` when preview-only); never the
   * original as an attachment, whatever is left of the link's downloads.
   */
  preview: endpoint({
    method: 'GET',
    path: `${API.linkPreviewPrefix}:id`,
    access: visitor,
    action: 'link.preview',
    params: LinkEntryParams,
    query: VisitQuery,
    response: bytes,
  }),
  /** WebP thumbnail. */
  thumbnail: endpoint({ method: 'GET', path: `${API.linkThumbnailPrefix}:id`, access: visitor, action: null, params: LinkEntryParams, query: VisitQuery, response: bytes }),
  /** Signed-in visitors only (copies into 个人文件). */
  save: endpoint({ method: 'POST', path: API.linkSave, access: member, action: 'link.save', body: LinkSaveBody, response: data<LinkSaveResponse>() }),
};
