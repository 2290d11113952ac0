import type { FastifyInstance } from 'fastify';
import { DepartmentRepository } from '../repositories/department-repository';
import { OrgUserRepository } from '../repositories/org-user-repository';
import type { SessionRepository } from '../repositories/session-repository';
import type { SpaceRepository } from '../repositories/space-repository';
import type { UserRepository } from '../repositories/user-repository';
import { registerOrgRoutes } from '../routes/org-routes';
import { registerUserAdminRoutes } from '../routes/user-admin-routes';
import { registerUserImportRoutes } from '../routes/user-import-routes';
import { DepartmentService } from '../services/department-service';
import { OrgService } from '../services/org-service';
import { UserAdminService } from '../services/user-admin-service';
import { UserImportService } from '../services/user-import-service';
import type { Base, Routed } from './base';

export interface OrganisationDeps extends Omit<Base, 'log'> {
  users: UserRepository;
  sessions: SessionRepository;
  spaces: SpaceRepository;
}

/** The organisation (issue 14): departments, the org tree, user administration and import. */
export function buildOrganisation({ db, config, users, sessions, spaces }: OrganisationDeps): Routed {
  const departmentRepo = new DepartmentRepository(db);
  const people = new OrgUserRepository(db);
  const departments = new DepartmentService(departmentRepo, users);
  const changed = (tenantId: string) => departments.changed(tenantId);
  const org = new OrgService({
    departments: departmentRepo,
    departmentService: departments,
    people,
    users,
    spaces,
    publicBaseUrl: config.publicBaseUrl,
  });
  const userAdmin = new UserAdminService({ db, users, people, departments: departmentRepo, sessions, orgChanged: changed });
  const userImport = new UserImportService(db, departmentRepo, changed);
  return {
    routes(app: FastifyInstance) {
      registerOrgRoutes(app, org, departments);
      registerUserAdminRoutes(app, userAdmin);
      registerUserImportRoutes(app, userImport);
    },
  };
}
