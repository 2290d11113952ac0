import type { FastifyInstance } from 'fastify';
import type { ApiOk } from '../../common/api/envelope';
import type {
  UserAddRequest,
  UserDeleteRequest,
  UserEditRequest,
  UserListRequest,
  UserListResponse,
  UserRow,
  UserSetDepartmentRequest,
  HandOverFilesRequest,
  HandOverFilesResponse,
} from '../../common/api/org-types';
import { API } from '../../common/api/paths';
import { callerOf } from '../http/session-guard';
import type { UserAdminService } from '../services/user-admin-service';
import { idList, idString } from './schemas';

const adminOnly = { adminOnly: true } as const;
const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const role = { type: 'string', enum: ['admin', 'member'] } as const;
const cipherText = text(512);
const profile = {
  website: text(64),
  nickName: text(128),
  phone: text(32),
  departmentId: idString,
  role,
  quota: { type: 'integer', minimum: 0 },
  outerLogin: { type: 'boolean' },
} as const;
const body = (required: string[], properties: Record<string, unknown>) => ({ body: { type: 'object', required, properties, additionalProperties: false } });

/** 用户管理 (admin only, ours; payloads and rules in common/api/org-types.ts). */
export function registerUserAdminRoutes(app: FastifyInstance, users: UserAdminService): void {
  app.post(
    API.userList,
    {
      config: adminOnly,
      schema: body([], {
        departmentId: idString,
        includeSub: { type: 'boolean' },
        role,
        state: { type: 'string', enum: ['active', 'locked', 'mustChange'] },
        keyword: text(64),
        cursor: { anyOf: [text(400), { type: 'null' }] },
        pageSize: { type: 'integer', minimum: 1, maximum: 1000 },
      }),
    },
    async (request): Promise<ApiOk<UserListResponse>> => ({ data: await users.list(callerOf(request), (request.body ?? {}) as UserListRequest) }),
  );
  app.get(
    API.userGet,
    { config: adminOnly, schema: { querystring: { type: 'object', required: ['id'], properties: { id: idString } } } },
    async (request): Promise<ApiOk<UserRow>> => ({ data: await users.get(callerOf(request), (request.query as { id: string }).id) }),
  );
  const required = Object.keys(profile);
  app.post(API.userAdd, { config: adminOnly, schema: body([...required, 'password'], { ...profile, password: cipherText }) }, async (request): Promise<ApiOk<UserRow>> => ({
    data: (await users.add(callerOf(request), request.body as UserAddRequest)).row,
  }));
  app.post(
    API.userEdit,
    { config: adminOnly, schema: body(['id', ...required], { id: idString, ...profile, password: cipherText }) },
    async (request): Promise<ApiOk<UserRow>> => ({ data: (await users.edit(callerOf(request), request.body as UserEditRequest)).row }),
  );
  app.post(
    API.userSetDepartment,
    { config: adminOnly, schema: body(['ids', 'departmentId'], { ids: idList, departmentId: idString }) },
    async (request): Promise<ApiOk<{ moved: number }>> => ({
      data: { moved: (await users.setDepartment(callerOf(request), request.body as UserSetDepartmentRequest)).moved },
    }),
  );
  app.post(API.userDelete, { config: adminOnly, schema: body(['id'], { id: idString }) }, async (request): Promise<ApiOk<null>> => {
    await users.delete(callerOf(request), request.body as UserDeleteRequest);
    return { data: null };
  });
  app.post(
    API.userTransferFiles,
    { config: adminOnly, schema: body(['fromId', 'toId'], { fromId: idString, toId: idString }) },
    async (request): Promise<ApiOk<HandOverFilesResponse>> => ({
      data: (await users.handOverFiles(callerOf(request), request.body as HandOverFilesRequest)).result,
    }),
  );
}
