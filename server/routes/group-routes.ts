import type { FastifyInstance } from 'fastify';
import { API } from '../../common/api/paths';
import type { ApiOk } from '../../common/api/envelope';
import type {
  GroupCreateRequest,
  GroupIdRequest,
  GroupMemberAddRequest,
  GroupMemberListResponse,
  GroupMemberRemoveRequest,
  GroupMemberSetRoleRequest,
  GroupRenameRequest,
  SpaceInfo,
} from '../../common/api/types';
import { callerOf } from '../http/session-guard';
import type { GroupService } from '../services/group-service';
import { idString, nameString } from './schemas';

const role = { type: 'string', enum: ['owner', 'manager', 'member'] } as const;
const body = (required: string[], properties: Record<string, unknown>) => ({ body: { type: 'object', required, properties } });

/** Group spaces and the public space (ours; roles in common/files/space-roles.ts). */
export function registerGroupRoutes(app: FastifyInstance, groups: GroupService): void {
  app.post(API.groupList, async (request): Promise<ApiOk<SpaceInfo[]>> => ({ data: await groups.list(callerOf(request)) }));
  app.post(API.publicSpace, async (request): Promise<ApiOk<SpaceInfo>> => ({ data: await groups.publicSpace(callerOf(request)) }));
  app.post(API.groupCreate, { schema: body(['name'], { name: nameString }) }, async (request): Promise<ApiOk<SpaceInfo>> => ({
    data: await groups.create(callerOf(request), (request.body as GroupCreateRequest).name),
  }));
  app.post(API.groupRename, { schema: body(['id', 'name'], { id: idString, name: nameString }) }, async (request): Promise<ApiOk<SpaceInfo>> => {
    const b = request.body as GroupRenameRequest;
    return { data: await groups.rename(callerOf(request), b.id, b.name) };
  });
  app.post(API.groupDelete, { schema: body(['id'], { id: idString }) }, async (request): Promise<ApiOk<null>> => {
    await groups.delete(callerOf(request), (request.body as GroupIdRequest).id);
    return { data: null };
  });
  app.post(API.groupMemberList, { schema: body(['id'], { id: idString }) }, async (request): Promise<ApiOk<GroupMemberListResponse>> => ({
    data: await groups.members(callerOf(request), (request.body as GroupIdRequest).id),
  }));
  app.post(
    API.groupMemberAdd,
    { schema: body(['id', 'username'], { id: idString, username: { type: 'string', minLength: 1, maxLength: 64 }, role }) },
    async (request): Promise<ApiOk<GroupMemberListResponse>> => {
      const b = request.body as GroupMemberAddRequest;
      return { data: await groups.addMember(callerOf(request), b.id, b.username, b.role) };
    },
  );
  app.post(
    API.groupMemberSetRole,
    { schema: body(['id', 'userId', 'role'], { id: idString, userId: idString, role }) },
    async (request): Promise<ApiOk<GroupMemberListResponse>> => {
      const b = request.body as GroupMemberSetRoleRequest;
      return { data: await groups.setRole(callerOf(request), b.id, b.userId, b.role) };
    },
  );
  app.post(
    API.groupMemberRemove,
    { schema: body(['id', 'userId'], { id: idString, userId: idString }) },
    async (request): Promise<ApiOk<GroupMemberListResponse>> => {
      const b = request.body as GroupMemberRemoveRequest;
      return { data: await groups.removeMember(callerOf(request), b.id, b.userId) };
    },
  );
}
