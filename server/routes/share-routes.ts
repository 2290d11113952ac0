import type { FastifyInstance } from 'fastify';
import type { ApiOk } from '../../common/api/envelope';
import { API } from '../../common/api/paths';
import {
  SHARE_MAX_FILES,
  SHARE_MAX_RECIPIENTS,
  SHARE_PERMISSIONS,
  type ApprovalCheckRequest,
  type ApprovalCheckResponse,
  type CanOperationResponse,
  type FileSecuritySettings,
  type FileSecurityUpdateRequest,
  type MySharesRequest,
  type MySharesResponse,
  type ShareCreateRequest,
  type ShareCreateResponse,
  type ShareIdsRequest,
  type ShareInfo,
  type SharedListRequest,
  type SharedListResponse,
  type ShareUpdateRequest,
} from '../../common/api/sharing';
import { FILE_LIST_MAX_PAGE_SIZE } from '../../common/api/types';
import { callerOf } from '../http/session-guard';
import type { FileSecurityService } from '../services/sharing/file-security-service';
import type { OnlineEditService } from '../services/sharing/online-edit-service';
import type { SharedFilesService } from '../services/sharing/shared-files-service';
import type { ShareService } from '../services/sharing/share-service';
import { idString, nullableId } from './schemas';

const body = (required: string[], properties: Record<string, unknown>) => ({ body: { type: 'object', required, properties } });
const ids = (max: number) => ({ type: 'array', items: idString, minItems: 1, maxItems: max });
const permission = { type: 'string', enum: SHARE_PERMISSIONS };
const validityDays = { type: 'integer', minimum: 0, maximum: 100000 };
const recipients = {
  type: 'array',
  maxItems: SHARE_MAX_RECIPIENTS,
  items: { type: 'object', required: ['type', 'id'], properties: { type: { type: 'string', enum: ['user', 'dept', 'group'] }, id: idString } },
};
const cursor = { anyOf: [{ type: 'string', maxLength: 2048 }, { type: 'null' }] };
const pageSize = { type: 'integer', minimum: 1, maximum: FILE_LIST_MAX_PAGE_SIZE };
export const listFilter = {
  states: { type: 'array', maxItems: 5, items: { type: 'string' } },
  keyword: { type: 'string', maxLength: 255 },
  cursor,
  pageSize,
};
const approverRule = {
  anyOf: [
    { type: 'object', required: ['kind'], properties: { kind: { const: 'manager' } } },
    { type: 'object', required: ['kind', 'userId'], properties: { kind: { const: 'user' }, userId: idString } },
    { type: 'object', required: ['kind', 'role'], properties: { kind: { const: 'role' }, role: { const: 'admin' } } },
  ],
};
const policySchema = {
  type: 'object',
  required: ['link', 'internal', 'approver', 'applicationTtlDays'],
  properties: {
    link: {
      type: 'object',
      required: ['always', 'sensitive', 'folderIds', 'departmentIds'],
      properties: {
        always: { type: 'boolean' },
        sensitive: { type: 'boolean' },
        folderIds: { type: 'array', maxItems: 200, items: idString },
        departmentIds: { type: 'array', maxItems: 200, items: idString },
      },
    },
    internal: { type: 'object', required: ['otherDepartment'], properties: { otherDepartment: { type: 'boolean' } } },
    approver: approverRule,
    secondApprover: { anyOf: [{ type: 'null' }, approverRule] },
    applicationTtlDays: { type: 'integer', minimum: 1, maximum: 90 },
  },
};

export interface ShareRouteServices {
  shares: ShareService;
  sharedFiles: SharedFilesService;
  security: FileSecurityService;
  onlineEdit: OnlineEditService;
}

/** Internal shares, 共享文件, the file security settings and the online-edit question (sharing.ts). */
export function registerShareRoutes(app: FastifyInstance, s: ShareRouteServices): void {
  app.post(
    API.shareFileList,
    {
      schema: body(['parentId'], {
        parentId: nullableId,
        category: { type: 'integer' },
        sharerId: nullableId,
        sortField: { type: 'string', enum: ['name', 'size', 'updatedAt'] },
        sortOrder: { type: 'string', enum: ['asc', 'desc'] },
        cursor,
        pageSize,
      }),
    },
    async (request): Promise<ApiOk<SharedListResponse>> => ({ data: await s.sharedFiles.list(callerOf(request), request.body as SharedListRequest) }),
  );

  app.post(
    API.shareCreate,
    { schema: body(['fileIds', 'recipients', 'permission', 'validityDays'], { fileIds: ids(SHARE_MAX_FILES), recipients: { ...recipients, minItems: 1 }, permission, validityDays }) },
    async (request): Promise<ApiOk<ShareCreateResponse>> => ({ data: await s.shares.create(callerOf(request), request.body as ShareCreateRequest) }),
  );
  app.post(API.shareUpdate, { schema: body(['id'], { id: idString, permission, validityDays }) }, async (request): Promise<ApiOk<ShareInfo>> => ({
    data: await s.shares.update(callerOf(request), request.body as ShareUpdateRequest),
  }));
  app.post(API.shareRevoke, { schema: body(['ids'], { ids: ids(1000) }) }, async (request): Promise<ApiOk<{ revoked: number }>> => ({
    data: await s.shares.revoke(callerOf(request), (request.body as ShareIdsRequest).ids),
  }));
  app.post(API.shareMine, { schema: { body: { type: 'object', properties: listFilter } } }, async (request): Promise<ApiOk<MySharesResponse>> => ({
    data: await s.shares.mine(callerOf(request), request.body as MySharesRequest),
  }));

  app.get(API.fileSecurityGet, { config: { adminOnly: true } }, async (request): Promise<ApiOk<FileSecuritySettings>> => ({ data: await s.security.get(callerOf(request)) }));
  app.post(
    API.fileSecurityUpdate,
    {
      config: { adminOnly: true },
      schema: {
        body: {
          type: 'object',
          properties: {
            sharePolicy: policySchema,
            exchangeRules: {
              type: 'object',
              required: ['allowedExtensions', 'keywordCheck', 'maxFileSize'],
              properties: {
                allowedExtensions: { type: 'array', maxItems: 500, items: { type: 'string', maxLength: 20 } },
                keywordCheck: { type: 'boolean' },
                maxFileSize: { type: 'integer', minimum: 0 },
              },
            },
            sensitiveKeywords: { type: 'array', maxItems: 200, items: { type: 'string', maxLength: 64 } },
          },
        },
      },
    },
    async (request): Promise<ApiOk<FileSecuritySettings>> => ({ data: await s.security.update(callerOf(request), request.body as FileSecurityUpdateRequest) }),
  );

  app.get(
    API.canOperationForShare,
    { schema: { querystring: { type: 'object', required: ['id'], properties: { id: idString } } } },
    async (request): Promise<ApiOk<CanOperationResponse>> => ({ data: await s.onlineEdit.canOperate(callerOf(request), (request.query as { id: string }).id) }),
  );
}

/** The approval check lives with the applications (application-routes.ts); its body schema is shared. */
export const approvalCheckSchema = body(['kind', 'fileIds'], { kind: { type: 'string', enum: ['share', 'link'] }, fileIds: ids(SHARE_MAX_FILES), recipients });
export type { ApprovalCheckRequest, ApprovalCheckResponse };
export { recipients as recipientsSchema, permission as permissionSchema, validityDays as validityDaysSchema, ids as idsSchema, body as bodySchema };
