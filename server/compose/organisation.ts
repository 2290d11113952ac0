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
import type { EventBus } from '../services/cluster/ports';
import type { QuotaChoice } from '../../common/org/quota';
import type { Base, Routed } from './base';

/** The bus topic of an organisation change (payload `{ t: tenantId }`): every process drops its cached tree. */
export const ORG_CHANGED = 'org.changed';

export interface OrganisationDeps extends Base {
  bus: EventBus;
  users: UserRepository;
  sessions: SessionRepository;
  spaces: SpaceRepository;
  /** The tenant's `quota` static-data list: what add, edit and import accept. */
  quotaChoices: (tenantId: string) => Promise<QuotaChoice[]>;
}

/** The organisation (issue 14): departments, the org tree, user administration and import. */
export function buildOrganisation({ db, config, log, bus, users, sessions, spaces, quotaChoices }: OrganisationDeps): Routed {
  const departmentRepo = new DepartmentRepository(db);
  const people = new OrgUserRepository(db);
  const announce = (tenantId: string) => bus.publish(ORG_CHANGED, { t: tenantId }).catch((err: unknown) => log.error({ err }, 'organisation change not announced'));
  const departments = new DepartmentService(departmentRepo, users, announce);
  // Another process's change (this process's own arrive too: dropping twice costs nothing).
  bus.subscribe(ORG_CHANGED, (p) => departments.forget(String(p.t)));
  // Changes this process may have missed: every cached tree is read anew.
  bus.onGap(() => departments.forget());
  const changed = (tenantId: string) => departments.changed(tenantId);
  const org = new OrgService({
    departments: departmentRepo,
    departmentService: departments,
    people,
    users,
    spaces,
    publicBaseUrl: config.publicBaseUrl,
  });
  const userAdmin = new UserAdminService({ db, users, people, departments: departmentRepo, sessions, orgChanged: changed, quotaChoices });
  const userImport = new UserImportService(db, departmentRepo, changed, quotaChoices);
  return {
    routes(app: FastifyInstance) {
      registerOrgRoutes(app, org, departments);
      registerUserAdminRoutes(app, userAdmin);
      registerUserImportRoutes(app, userImport);
    },
  };
}
