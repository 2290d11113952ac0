import type { FastifyInstance } from 'fastify';
import type { ApiOk } from '../../common/api/envelope';
import { API } from '../../common/api/paths';
import {
  APPLICATION_COMMENT_MAX,
  APPLICATION_REASON_MAX,
  SHARE_MAX_FILES,
  type ApplicationApproveRequest,
  type ApplicationDecisionResponse,
  type ApplicationIdRequest,
  type ApplicationListRequest,
  type ApplicationListResponse,
  type ApplicationRejectRequest,
  type ApplicationSubmitRequest,
  type ApprovalCheckRequest,
  type ApprovalCheckResponse,
  type ShareApplication,
} from '../../common/api/sharing';
import { callerOf } from '../http/session-guard';
import type { ApplicationService } from '../services/sharing/application-service';
import { idString } from './schemas';
import { approvalCheckSchema, bodySchema, idsSchema, listFilter, permissionSchema, recipientsSchema, validityDaysSchema } from './share-routes';

const linkSettings = {
  type: 'object',
  required: ['code', 'validityDays', 'downloadLimit', 'previewOnly'],
  properties: {
    code: { type: ['string', 'null'], maxLength: 8 },
    validityDays: validityDaysSchema,
    downloadLimit: { type: ['integer', 'null'], minimum: 1 },
    previewOnly: { type: 'boolean' },
  },
};
const shareSettings = {
  type: 'object',
  required: ['recipients', 'permission', 'validityDays'],
  properties: { recipients: recipientsSchema, permission: permissionSchema, validityDays: validityDaysSchema },
};
const applicationList = { body: { type: 'object', properties: { ...listFilter, kind: { type: 'string', enum: ['share', 'link'] }, box: { type: 'string', enum: ['pending', 'done'] } } } };

/** Sharing applications (/main/safe): submit, my applications, the approver's queue and decisions. */
export function registerApplicationRoutes(app: FastifyInstance, apps: ApplicationService): void {
  app.post(API.shareCheck, { schema: approvalCheckSchema }, async (request): Promise<ApiOk<ApprovalCheckResponse>> => ({
    data: await apps.check(callerOf(request), request.body as ApprovalCheckRequest),
  }));
  app.post(
    API.applySubmit,
    {
      schema: bodySchema(['kind', 'fileIds', 'reason', 'approverId'], {
        kind: { type: 'string', enum: ['share', 'link'] },
        fileIds: idsSchema(SHARE_MAX_FILES),
        share: shareSettings,
        link: linkSettings,
        linkId: idString,
        reason: { type: 'string', maxLength: APPLICATION_REASON_MAX * 4 },
        approverId: idString,
      }),
    },
    async (request): Promise<ApiOk<ShareApplication>> => ({ data: await apps.submit(callerOf(request), request.body as ApplicationSubmitRequest) }),
  );
  app.post(API.applyMine, { schema: applicationList }, async (request): Promise<ApiOk<ApplicationListResponse>> => ({
    data: await apps.mine(callerOf(request), request.body as ApplicationListRequest),
  }));
  app.post(API.applyTodo, { schema: applicationList }, async (request): Promise<ApiOk<ApplicationListResponse>> => ({
    data: await apps.todo(callerOf(request), request.body as ApplicationListRequest),
  }));
  app.post(API.applyGet, { schema: bodySchema(['id'], { id: idString }) }, async (request): Promise<ApiOk<ShareApplication>> => ({
    data: await apps.get(callerOf(request), (request.body as ApplicationIdRequest).id),
  }));
  app.post(
    API.applyApprove,
    { schema: bodySchema(['ids'], { ids: idsSchema(200), comment: { type: 'string', maxLength: APPLICATION_COMMENT_MAX * 4 }, nextApproverId: idString }) },
    async (request): Promise<ApiOk<ApplicationDecisionResponse>> => ({ data: await apps.approve(callerOf(request), request.body as ApplicationApproveRequest) }),
  );
  app.post(
    API.applyReject,
    { schema: bodySchema(['ids', 'comment'], { ids: idsSchema(200), comment: { type: 'string', maxLength: APPLICATION_COMMENT_MAX * 4 } }) },
    async (request): Promise<ApiOk<ApplicationDecisionResponse>> => {
      const b = request.body as ApplicationRejectRequest;
      return { data: await apps.reject(callerOf(request), b.ids, b.comment) };
    },
  );
  app.post(API.applyWithdraw, { schema: bodySchema(['id'], { id: idString }) }, async (request): Promise<ApiOk<ShareApplication>> => ({
    data: await apps.withdraw(callerOf(request), (request.body as ApplicationIdRequest).id),
  }));
}
