import type { Db } from '../db/database';
import { DepartmentRepository } from '../repositories/department-repository';
import { OrgUserRepository } from '../repositories/org-user-repository';
import type { SessionRepository } from '../repositories/session-repository';
import type { SpaceRepository } from '../repositories/space-repository';
import type { UserRepository } from '../repositories/user-repository';
import { DepartmentService } from './department-service';
import { OrgService } from './org-service';
import { UserAdminService } from './user-admin-service';
import { UserImportService } from './user-import-service';

export interface Organisation {
  departments: DepartmentService;
  org: OrgService;
  userAdmin: UserAdminService;
  userImport: UserImportService;
}

/** The organisation services (issue 14) over their repositories, for app.ts to route. */
export function buildOrganisation(db: Db, deps: { users: UserRepository; sessions: SessionRepository; spaces: SpaceRepository; publicBaseUrl: string }): Organisation {
  const departmentRepo = new DepartmentRepository(db);
  const people = new OrgUserRepository(db);
  const departments = new DepartmentService(departmentRepo, deps.users);
  const changed = (tenantId: string) => departments.changed(tenantId);
  return {
    departments,
    org: new OrgService(departmentRepo, departments, people, deps.users, deps.spaces, deps.publicBaseUrl),
    userAdmin: new UserAdminService(db, deps.users, people, departmentRepo, deps.sessions, changed),
    userImport: new UserImportService(db, departmentRepo, changed),
  };
}
