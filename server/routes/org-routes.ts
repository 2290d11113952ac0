import type { FastifyInstance } from 'fastify';
import type { ApiOk } from '../../common/api/envelope';
import type {
  DepartmentCreateRequest,
  DepartmentIdRequest,
  DepartmentMoveRequest,
  DepartmentNode,
  DepartmentUpdateRequest,
  OrgGroupUserListQuery,
  OrgSettingsRequest,
  OrgTree,
  OrgUserListQuery,
  OrgUserPage,
} from '../../common/api/org-types';
import { API } from '../../common/api/paths';
import { PHONE_MASK_RULES } from '../../common/org/phone-mask';
import { callerOf } from '../http/session-guard';
import type { DepartmentService } from '../services/department-service';
import type { OrgService } from '../services/org-service';
import { idString, nameString, nullableId } from './schemas';

const page = { cursor: { type: 'string', maxLength: 400 }, pageSize: { type: 'integer', minimum: 1, maximum: 1000 } } as const;
const body = (required: string[], properties: Record<string, unknown>) => ({ body: { type: 'object', required, properties, additionalProperties: false } });
const adminOnly = { adminOnly: true } as const;

/** The address list (spec §7 orgUser calls, any signed-in user) and the admin's department tree (ours). */
export function registerOrgRoutes(app: FastifyInstance, org: OrgService, departments: DepartmentService): void {
  app.get(API.orgTree, async (request): Promise<ApiOk<OrgTree>> => ({ data: await org.tree(callerOf(request)) }));
  app.get(
    API.orgUserList,
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { departmentId: idString, includeSub: { type: 'string', enum: ['0', '1'] }, keyword: { type: 'string', maxLength: 64 }, ...page },
        },
      },
    },
    async (request): Promise<ApiOk<OrgUserPage>> => ({ data: await org.list(callerOf(request), request.query as OrgUserListQuery) }),
  );
  app.get(
    API.orgGroupUserList,
    { schema: { querystring: { type: 'object', properties: { departmentId: idString, groupId: idString, ...page } } } },
    async (request): Promise<ApiOk<OrgUserPage>> => ({ data: await org.groupUsers(callerOf(request), request.query as OrgGroupUserListQuery) }),
  );

  app.post(
    API.departmentCreate,
    { config: adminOnly, schema: body(['parentId', 'name'], { parentId: nullableId, name: nameString, managerId: nullableId }) },
    async (request): Promise<ApiOk<DepartmentNode>> => ({
      data: (await departments.create(callerOf(request), request.body as DepartmentCreateRequest)).node,
    }),
  );
  app.post(
    API.departmentUpdate,
    { config: adminOnly, schema: body(['id'], { id: idString, name: nameString, managerId: nullableId }) },
    async (request): Promise<ApiOk<DepartmentNode>> => ({
      data: (await departments.update(callerOf(request), request.body as DepartmentUpdateRequest)).node,
    }),
  );
  app.post(
    API.departmentMove,
    { config: adminOnly, schema: body(['id', 'parentId'], { id: idString, parentId: nullableId, beforeId: nullableId }) },
    async (request): Promise<ApiOk<DepartmentNode>> => ({
      data: (await departments.move(callerOf(request), request.body as DepartmentMoveRequest)).node,
    }),
  );
  app.post(API.departmentDelete, { config: adminOnly, schema: body(['id'], { id: idString }) }, async (request): Promise<ApiOk<null>> => {
    await departments.delete(callerOf(request), request.body as DepartmentIdRequest);
    return { data: null };
  });
  app.post(
    API.orgSettingsUpdate,
    { config: adminOnly, schema: body(['phoneMask'], { phoneMask: { type: 'string', enum: PHONE_MASK_RULES.map((r) => r.value) } }) },
    async (request): Promise<ApiOk<null>> => {
      await org.setPhoneMask(callerOf(request), (request.body as OrgSettingsRequest).phoneMask);
      return { data: null };
    },
  );
}
