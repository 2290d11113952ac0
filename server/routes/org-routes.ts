import type { FastifyInstance } from 'fastify';
import { ORG } from '../../common/api/endpoints/org';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { DepartmentService } from '../services/department-service';
import type { OrgService } from '../services/org-service';

/** The address list (spec §7 orgUser calls, any signed-in user) and the admin's department tree (common/api/endpoints/org.ts). */
export function registerOrgRoutes(app: FastifyInstance, org: OrgService, departments: DepartmentService): void {
  route(app, ORG.tree, async (request) => ({ data: await org.tree(callerOf(request)) }));
  route(app, ORG.userList, async (request) => ({ data: await org.list(callerOf(request), request.query) }));
  route(app, ORG.groupUserList, async (request) => ({ data: await org.groupUsers(callerOf(request), request.query) }));
  route(app, ORG.departmentCreate, async (request) => ({ data: (await departments.create(callerOf(request), request.body)).node }));
  route(app, ORG.departmentUpdate, async (request) => ({ data: (await departments.update(callerOf(request), request.body)).node }));
  route(app, ORG.departmentMove, async (request) => ({ data: (await departments.move(callerOf(request), request.body)).node }));
  route(app, ORG.departmentDelete, async (request) => {
    await departments.delete(callerOf(request), request.body);
    return { data: null };
  });
  route(app, ORG.settingsUpdate, async (request) => {
    await org.setPhoneMask(callerOf(request), request.body.phoneMask);
    return { data: null };
  });
}
