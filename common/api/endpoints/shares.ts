import { Type, type Static } from 'typebox';
import { data, endpoint } from '../endpoint';
import { API } from '../paths';
import { NullableCursor, IdBody, IdString, NullableId, PageSize } from '../schemas';
import {
  SHARE_MAX_FILES,
  SHARE_MAX_RECIPIENTS,
  SHARE_PERMISSIONS,
  type ApproverRule,
  type CanOperationResponse,
  type FileSecuritySettings,
  type MySharesResponse,
  type ShareCreateResponse,
  type SharedListResponse,
  type ShareInfo,
  type SharePermission,
  type ShareRecipientType,
  type ShareState,
} from '../sharing';

/** Internal shares, 共享文件, the file security settings and the online-edit question (rules in ../sharing.ts). */

// ---- pieces shared by shares, links and applications --------------------------------------------

/** `count` ids, at least one. */
export const IdsOf = (max: number) => Type.Array(IdString, { minItems: 1, maxItems: max });
export const PermissionSchema = Type.Unsafe<SharePermission>({ type: 'string', enum: [...SHARE_PERMISSIONS] });
/** Days (static data `validity`); 0 = until revoked. */
export const ValidityDays = Type.Integer({ minimum: 0, maximum: 100000 });
export const RecipientSchema = Type.Object({ type: Type.Unsafe<ShareRecipientType>({ type: 'string', enum: ['user', 'dept', 'group'] }), id: IdString });
export const Recipients = Type.Array(RecipientSchema, { maxItems: SHARE_MAX_RECIPIENTS });
/** The filter of 我的分享 / 我的申请 / 审批 lists, newest first, keyset pages; `states` of the list's kind. */
export const listFilter = <S extends string>() => ({
  /** Only these states (default: all). */
  states: Type.Optional(Type.Unsafe<S[]>(Type.Array(Type.String(), { maxItems: 5 }))),
  keyword: Type.Optional(Type.String({ maxLength: 255 })),
  cursor: Type.Optional(NullableCursor),
  pageSize: Type.Optional(PageSize),
});

// ---- bodies -----------------------------------------------------------------------------------------

/**
 * `POST /api/shareFile/list` (spec §7). parentId null: the entries shared with the caller (each with
 * `share`), newest share first, optionally of one sharer (`sharerId`); the first page also lists every
 * sharer with how many entries (`sharers`: the page groups by who shared). parentId set: the folder's
 * children, when the caller may see it through a share (each with the inherited `share`).
 */
export const SharedListBody = Type.Object({
  parentId: NullableId,
  /** Ignored (kept for the spec's FileListRequest shape). */
  category: Type.Optional(Type.Integer()),
  sharerId: Type.Optional(NullableId),
  sortField: Type.Optional(Type.Unsafe<'name' | 'size' | 'updatedAt'>({ type: 'string', enum: ['name', 'size', 'updatedAt'] })),
  sortOrder: Type.Optional(Type.Unsafe<'asc' | 'desc'>({ type: 'string', enum: ['asc', 'desc'] })),
  cursor: Type.Optional(NullableCursor),
  pageSize: Type.Optional(PageSize),
});
export type SharedListRequest = Static<typeof SharedListBody>;

/** One share per entry and recipient (an existing one is updated). */
export const ShareCreateBody = Type.Object({
  fileIds: IdsOf(SHARE_MAX_FILES),
  recipients: Type.Array(RecipientSchema, { maxItems: SHARE_MAX_RECIPIENTS, minItems: 1 }),
  permission: PermissionSchema,
  validityDays: ValidityDays,
});
export type ShareCreateRequest = Static<typeof ShareCreateBody>;

/**
 * A new permission and/or validity (counted from now). Judged against the share's ceiling (see
 * "Approved terms are a ceiling" in ../sharing.ts): narrowing is always accepted, widening may answer
 * SHARE_APPROVAL_REQUIRED with `reasons` like a create.
 */
export const ShareUpdateBody = Type.Object({ id: IdString, permission: Type.Optional(PermissionSchema), validityDays: Type.Optional(ValidityDays) });
export type ShareUpdateRequest = Static<typeof ShareUpdateBody>;

/** share/revoke and shareLink/revoke: shares or links of the caller. */
export const ShareIdsBody = Type.Object({ ids: IdsOf(1000) });
export type ShareIdsRequest = Static<typeof ShareIdsBody>;

/** 我的分享 (internal shares), newest first, keyset pages. */
export const MySharesBody = Type.Object(listFilter<ShareState>());
export type MySharesRequest = Static<typeof MySharesBody>;

/** Who approves one level (ApproverRule). */
const ApproverRuleSchema = Type.Unsafe<ApproverRule>(
  Type.Union([
    Type.Object({ kind: Type.Literal('manager') }),
    Type.Object({ kind: Type.Literal('user'), userId: IdString }),
    Type.Object({ kind: Type.Literal('role'), role: Type.Literal('admin') }),
  ]),
);
const SharePolicySchema = Type.Object({
  link: Type.Object({
    always: Type.Boolean(),
    sensitive: Type.Boolean(),
    folderIds: Type.Array(IdString, { maxItems: 200 }),
    departmentIds: Type.Array(IdString, { maxItems: 200 }),
  }),
  internal: Type.Object({ otherDepartment: Type.Boolean() }),
  approver: ApproverRuleSchema,
  secondApprover: Type.Optional(Type.Union([Type.Null(), ApproverRuleSchema])),
  applicationTtlDays: Type.Integer({ minimum: 1, maximum: 90 }),
});
const ExchangeRulesSchema = Type.Object({
  allowedExtensions: Type.Array(Type.String({ maxLength: 20 }), { maxItems: 500 }),
  keywordCheck: Type.Boolean(),
  maxFileSize: Type.Integer({ minimum: 0 }),
});
/** Admins: either part or both. */
export const FileSecurityUpdateBody = Type.Object({
  sharePolicy: Type.Optional(SharePolicySchema),
  exchangeRules: Type.Optional(ExchangeRulesSchema),
  sensitiveKeywords: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 200 })),
});
export type FileSecurityUpdateRequest = Static<typeof FileSecurityUpdateBody>;

const member = 'member' as const;

export const SHARES = {
  sharedList: endpoint({ method: 'POST', path: API.shareFileList, access: member, action: null, body: SharedListBody, response: data<SharedListResponse>() }),
  /** SHARE_APPROVAL_REQUIRED when the policy wants an application. */
  create: endpoint({ method: 'POST', path: API.shareCreate, access: member, action: 'share.create', body: ShareCreateBody, response: data<ShareCreateResponse>() }),
  /** The sharer's own shares. */
  update: endpoint({ method: 'POST', path: API.shareUpdate, access: member, action: 'share.update', body: ShareUpdateBody, response: data<ShareInfo>() }),
  /** In force no more, from the recipients' next call. */
  revoke: endpoint({ method: 'POST', path: API.shareRevoke, access: member, action: 'share.revoke', body: ShareIdsBody, response: data<{ revoked: number }>() }),
  /** 我的分享, internal shares. */
  mine: endpoint({ method: 'POST', path: API.shareMine, access: member, action: null, body: MySharesBody, response: data<MySharesResponse>() }),
  /** The sharing policy and exchange rules (/main/system/fileSecurity). */
  fileSecurityGet: endpoint({ method: 'GET', path: API.fileSecurityGet, access: 'admin', action: null, response: data<FileSecuritySettings>() }),
  fileSecurityUpdate: endpoint({ method: 'POST', path: API.fileSecurityUpdate, access: 'admin', action: 'tenant.sharePolicy', body: FileSecurityUpdateBody, response: data<FileSecuritySettings>() }),
  /** Spec §7 `?id=`: may the caller edit this shared file online. */
  canOperation: endpoint({ method: 'GET', path: API.canOperationForShare, access: member, action: null, query: IdBody, response: data<CanOperationResponse>() }),
};
