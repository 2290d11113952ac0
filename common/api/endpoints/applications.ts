import { Type, type Static } from 'typebox';
import { bytes, data, endpoint } from '../endpoint';
import { API } from '../paths';
import { IdBody, IdString } from '../schemas';
import {
  APPLICATION_COMMENT_MAX,
  APPLICATION_REASON_MAX,
  SHARE_MAX_FILES,
  type ApplicationDecisionResponse,
  type ApplicationListResponse,
  type ApplicationState,
  type ApprovalCheckResponse,
  type ShareApplication,
  type ShareKind,
} from '../sharing';
import { LinkSettingsSchema } from './links';
import { IdsOf, listFilter, PermissionSchema, Recipients, ValidityDays } from './shares';

/** Sharing applications (/main/safe): the approval check, submit, my applications, the approver's queue and decisions. */

const Kind = Type.Unsafe<ShareKind>({ type: 'string', enum: ['share', 'link'] });

/** Does this share or link need approval, and who may approve it. */
export const ApprovalCheckBody = Type.Object({ kind: Kind, fileIds: IdsOf(SHARE_MAX_FILES), recipients: Type.Optional(Recipients) });
export type ApprovalCheckRequest = Static<typeof ApprovalCheckBody>;

/** A share's terms without its entries (ShareCreateRequest minus fileIds). */
export const ShareSettingsSchema = Type.Object({ recipients: Recipients, permission: PermissionSchema, validityDays: ValidityDays });

export const ApplicationSubmitBody = Type.Object({
  kind: Kind,
  fileIds: IdsOf(SHARE_MAX_FILES),
  share: Type.Optional(ShareSettingsSchema),
  link: Type.Optional(LinkSettingsSchema),
  /**
   * kind link: a link of the applicant's (of the same entry, in force) that this application widens
   * past its ceiling (share-terms.ts): on approval that link — same address — takes these terms and
   * this approval as its new ceiling, instead of a new link being made. (A share is widened by an
   * application for the same entry and recipient: approval updates the share in force.)
   */
  linkId: Type.Optional(IdString),
  reason: Type.String({ maxLength: APPLICATION_REASON_MAX * 4 }),
  approverId: IdString,
});
export type ApplicationSubmitRequest = Static<typeof ApplicationSubmitBody>;

/** 我的申请, and 审批 (mine to decide, or decided by me). */
export const ApplicationListBody = Type.Object({
  ...listFilter<ApplicationState>(),
  kind: Type.Optional(Kind),
  /** todo only: 'pending' = waiting for me (default), 'done' = I decided. */
  box: Type.Optional(Type.Unsafe<'pending' | 'done'>({ type: 'string', enum: ['pending', 'done'] })),
});
export type ApplicationListRequest = Static<typeof ApplicationListBody>;

/** Many at once (batch); each answered on its own. */
export const ApplicationApproveBody = Type.Object({
  ids: IdsOf(200),
  comment: Type.Optional(Type.String({ maxLength: APPLICATION_COMMENT_MAX * 4 })),
  /** For a first level followed by a second: whom to pass it to (default the first candidate). */
  nextApproverId: Type.Optional(IdString),
});
export type ApplicationApproveRequest = Static<typeof ApplicationApproveBody>;
/** The comment is required: the applicant is told why. */
export const ApplicationRejectBody = Type.Object({ ids: IdsOf(200), comment: Type.String({ maxLength: APPLICATION_COMMENT_MAX * 4 }) });
export type ApplicationRejectRequest = Static<typeof ApplicationRejectBody>;
export type ApplicationIdRequest = Static<typeof IdBody>;

/** A file of an application, viewed by its current approver: the file in the path, the application in `app`. */
export const ApplicationPreviewParams = Type.Object({ id: IdString });
export const ApplicationPreviewQuery = Type.Object({ app: IdString });

/** How many applications wait for the caller (the 审批 menu's badge). */
export interface ApplicationTodoCount {
  count: number;
}

const member = 'member' as const;

export const APPLICATIONS = {
  /** Whether an application is needed, and its approvers. */
  check: endpoint({ method: 'POST', path: API.shareCheck, access: member, action: null, body: ApprovalCheckBody, response: data<ApprovalCheckResponse>() }),
  submit: endpoint({ method: 'POST', path: API.applySubmit, access: member, action: 'apply.submit', body: ApplicationSubmitBody, response: data<ShareApplication>() }),
  mine: endpoint({ method: 'POST', path: API.applyMine, access: member, action: null, body: ApplicationListBody, response: data<ApplicationListResponse>() }),
  todo: endpoint({ method: 'POST', path: API.applyTodo, access: member, action: null, body: ApplicationListBody, response: data<ApplicationListResponse>() }),
  /** The applicant or one of its approvers. */
  get: endpoint({ method: 'POST', path: API.applyGet, access: member, action: null, body: IdBody, response: data<ShareApplication>() }),
  /** Batch; each id answered on its own. */
  approve: endpoint({ method: 'POST', path: API.applyApprove, access: member, action: 'apply.approve', body: ApplicationApproveBody, response: data<ApplicationDecisionResponse>() }),
  reject: endpoint({ method: 'POST', path: API.applyReject, access: member, action: 'apply.reject', body: ApplicationRejectBody, response: data<ApplicationDecisionResponse>() }),
  /** The badge of 审批: applications waiting for the caller now (expired ones not counted). */
  todoCount: endpoint({ method: 'POST', path: API.applyTodoCount, access: member, action: null, response: data<ApplicationTodoCount>() }),
  /**
   * The current approver of a pending application views one of the files it names before deciding:
   * a rendition as a 预览 share shows it (watermarked pictures, `no-store`; byte-access.ts, grant
   * approval), never the original as an attachment. Anyone else, another state, another file: 404.
   */
  preview: endpoint({
    method: 'GET',
    path: `${API.applyPreviewPrefix}:id`,
    access: member,
    action: 'apply.preview',
    params: ApplicationPreviewParams,
    query: ApplicationPreviewQuery,
    response: bytes,
  }),
  /** The applicant takes back a pending application. */
  withdraw: endpoint({ method: 'POST', path: API.applyWithdraw, access: member, action: 'apply.withdraw', body: IdBody, response: data<ShareApplication>() }),
};
