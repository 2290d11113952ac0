import type { FastifyInstance } from 'fastify';
import { USER_ADMIN } from '../../common/api/endpoints/user-admin';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { UserAdminService } from '../services/user-admin-service';

/** 用户管理 (admin only, ours; declared in common/api/endpoints/user-admin.ts). */
export function registerUserAdminRoutes(app: FastifyInstance, users: UserAdminService): void {
  route(app, USER_ADMIN.list, async (request) => ({ data: await users.list(callerOf(request), request.body ?? {}) }));
  route(app, USER_ADMIN.get, async (request) => ({ data: await users.get(callerOf(request), request.query.id) }));
  route(app, USER_ADMIN.add, async (request) => ({ data: (await users.add(callerOf(request), request.body)).row }));
  route(app, USER_ADMIN.edit, async (request) => ({ data: (await users.edit(callerOf(request), request.body)).row }));
  route(app, USER_ADMIN.setDepartment, async (request) => ({ data: { moved: (await users.setDepartment(callerOf(request), request.body)).moved } }));
  route(app, USER_ADMIN.delete, async (request) => {
    await users.delete(callerOf(request), request.body);
    return { data: null };
  });
  route(app, USER_ADMIN.handOverFiles, async (request) => ({ data: (await users.handOverFiles(callerOf(request), request.body)).result }));
}
