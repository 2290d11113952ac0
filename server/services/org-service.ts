import { ERRORS } from '../../common/api/errors';
import type { OrgGroupUserListQuery, OrgUserListQuery } from '../../common/api/endpoints/org';
import type { OrgTree, OrgUser, OrgUserPage } from '../../common/api/org-types';
import { DEFAULT_PHONE_MASK, isPhoneMaskRule, maskPhone, type PhoneMaskRule } from '../../common/org/phone-mask';
import { AppError } from '../http/app-error';
import type { DepartmentRepository } from '../repositories/department-repository';
import type { OrgUserRepository, PeopleFilter, PersonRow } from '../repositories/org-user-repository';
import type { SpaceRepository } from '../repositories/space-repository';
import type { UserRepository } from '../repositories/user-repository';
import type { Caller } from './caller';
import type { DepartmentService } from './department-service';
import { decodePeopleCursor, pageSizeOf, toPage } from './org-cursor';
import { actionLog, target } from './action-log/recorder';

export interface OrgServiceDeps {
  departments: DepartmentRepository;
  departmentService: DepartmentService;
  people: OrgUserRepository;
  users: UserRepository;
  spaces: SpaceRepository;
  publicBaseUrl: string;
}

/**
 * The address list (通讯录) and the people/department picker: the organisation as any member sees it
 * (spec §7 orgUser calls). Phones of others leave the server masked by the tenant's rule.
 */
export class OrgService {
  constructor(private readonly deps: OrgServiceDeps) {}

  async phoneMask(tenantId: string): Promise<PhoneMaskRule> {
    const rule = await this.deps.departments.phoneMask(tenantId);
    return isPhoneMaskRule(rule) ? rule : DEFAULT_PHONE_MASK;
  }

  async setPhoneMask(caller: Caller, rule: PhoneMaskRule): Promise<void> {
    if (!isPhoneMaskRule(rule)) throw new AppError(ERRORS.VALIDATION);
    await this.deps.departments.setPhoneMask(caller.tenantId, rule);
    actionLog.record({ action: 'tenant.settingChange', targets: [target('setting', 'phoneMask', '通讯录手机号显示规则')], detail: { phoneMask: rule } });
  }

  async tree(caller: Caller): Promise<OrgTree> {
    const departments = await this.deps.departmentService.tree(caller.tenantId);
    const me = await this.deps.users.findInTenant(caller.tenantId, caller.userId);
    const unassigned = departments.find((d) => d.unassigned)!;
    return { departments, myDepartmentId: me?.department_id ?? unassigned.id, phoneMask: await this.phoneMask(caller.tenantId) };
  }

  private async page(caller: Caller, filter: PeopleFilter, cursor: string | undefined, pageSize: number | undefined): Promise<OrgUserPage> {
    const limit = pageSizeOf(pageSize);
    const rows = await this.deps.people.page(caller.tenantId, filter, decodePeopleCursor(cursor), limit + 1);
    const rule = await this.phoneMask(caller.tenantId);
    return toPage(rows, limit, (r) => this.orgUser(caller, r, rule));
  }

  private orgUser(caller: Caller, r: PersonRow, rule: PhoneMaskRule): OrgUser {
    return {
      id: r.id,
      website: r.username,
      nickName: r.nick_name,
      departmentId: r.department_id ?? '',
      phone: r.id === caller.userId ? r.phone : maskPhone(r.phone, rule),
      avatar: r.avatar ? this.deps.publicBaseUrl + r.avatar : '',
      ...(r.group_role ? { groupRole: r.group_role } : {}),
      locked: r.locked === 1 || r.failure_locked === 1,
    };
  }

  private async department(caller: Caller, id: string): Promise<void> {
    await this.deps.departments.ensureUnassigned(caller.tenantId);
    if (!(await this.deps.departments.find(caller.tenantId, id))) throw new AppError(ERRORS.DEPT_NOT_FOUND);
  }

  /** People of the tenant, optionally of one department (with its subtree by default), by keyword. */
  async list(caller: Caller, q: OrgUserListQuery): Promise<OrgUserPage> {
    if (q.departmentId) await this.department(caller, q.departmentId);
    else await this.deps.departments.ensureUnassigned(caller.tenantId);
    const filter: PeopleFilter = {
      department: q.departmentId ? { id: q.departmentId, withSub: q.includeSub !== '0' } : undefined,
      keyword: q.keyword,
    };
    return this.page(caller, filter, q.cursor, q.pageSize);
  }

  /** People directly in a department, or the members of a group space the caller may see. */
  async groupUsers(caller: Caller, q: OrgGroupUserListQuery): Promise<OrgUserPage> {
    if (Boolean(q.departmentId) === Boolean(q.groupId)) throw new AppError(ERRORS.VALIDATION, '请指定部门或群组之一');
    if (q.departmentId) {
      await this.department(caller, q.departmentId);
      return this.page(caller, { department: { id: q.departmentId, withSub: false } }, q.cursor, q.pageSize);
    }
    const space = await this.deps.spaces.find(caller.tenantId, q.groupId!);
    const visible = space?.kind === 'group' && (caller.role === 'admin' || (await this.deps.spaces.roleOf(space.id, caller.userId)) !== null);
    if (!visible) throw new AppError(ERRORS.NOT_FOUND);
    return this.page(caller, { groupId: space.id }, q.cursor, q.pageSize);
  }
}
