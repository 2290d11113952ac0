import type { FastifyInstance } from 'fastify';
import { GROUPS } from '../../common/api/endpoints/groups';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { GroupService } from '../services/group-service';

/** Group spaces and the public space (declared in common/api/endpoints/groups.ts). */
export function registerGroupRoutes(app: FastifyInstance, groups: GroupService): void {
  route(app, GROUPS.list, async (request) => ({ data: await groups.list(callerOf(request)) }));
  route(app, GROUPS.publicSpace, async (request) => ({ data: await groups.publicSpace(callerOf(request)) }));
  route(app, GROUPS.create, async (request) => ({ data: await groups.create(callerOf(request), request.body.name) }));
  route(app, GROUPS.rename, async (request) => ({ data: await groups.rename(callerOf(request), request.body.id, request.body.name) }));
  route(app, GROUPS.delete, async (request) => {
    await groups.delete(callerOf(request), request.body.id);
    return { data: null };
  });
  route(app, GROUPS.memberList, async (request) => ({ data: await groups.members(callerOf(request), request.body.id) }));
  route(app, GROUPS.memberAdd, async (request) => {
    const { id, username, role } = request.body;
    return { data: await groups.addMember(callerOf(request), id, username, role) };
  });
  route(app, GROUPS.memberSetRole, async (request) => {
    const { id, userId, role } = request.body;
    return { data: await groups.setRole(callerOf(request), id, userId, role) };
  });
  route(app, GROUPS.memberRemove, async (request) => ({ data: await groups.removeMember(callerOf(request), request.body.id, request.body.userId) }));
}
