import { ERRORS } from '../../common/api/errors';
import type { DepartmentCreateRequest, DepartmentIdRequest, DepartmentMoveRequest, DepartmentUpdateRequest } from '../../common/api/endpoints/org';
import { DEPARTMENT_LIMIT, type DepartmentNode } from '../../common/api/org-types';
import { departmentNameProblem, normalizeDepartmentName } from '../../common/org/account';
import { isUniqueViolation } from '../db/database';
import type { DepartmentsTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import type { DepartmentRepository, DepartmentRow, TreeTx } from '../repositories/department-repository';
import type { UserRepository } from '../repositories/user-repository';
import type { Caller } from './caller';
import { actionLog, target } from './action-log/recorder';
import { PerTenantCache } from './per-tenant-cache';

/** Deepest a department may sit (top level = 1). */
export const DEPARTMENT_MAX_DEPTH = 20;
/** 未分配 sorts after every other top-level department. */
const UNASSIGNED_ORDER = 1_000_000;
const ORDER_STEP = 10;
export const TREE_CACHE_MS = 5_000;

export function departmentNode(row: DepartmentRow): DepartmentNode {
  return {
    id: row.id,
    parentId: row.parent_id,
    name: row.name,
    sortOrder: row.sort_order,
    managerId: row.manager_id,
    managerName: row.manager_id ? row.manager_name : null,
    memberCount: row.member_count,
    unassigned: row.kind === 'unassigned',
  };
}

/** A change that happened, for the action log (names at that time). */
export interface DepartmentChange {
  id: string;
  name: string;
  detail?: Record<string, unknown>;
}

/**
 * The admin's department tree: create, rename / set manager, move (and order), delete. Every id is
 * looked up in the caller's tenant (another tenant's id answers DEPT_NOT_FOUND like an unknown one);
 * every structural rule is checked inside the change's transaction (DepartmentRepository.inTree).
 */
export class DepartmentService {
  private readonly trees: PerTenantCache<DepartmentNode[]>;

  constructor(
    private readonly departments: DepartmentRepository,
    private readonly users: UserRepository,
    /** Tells the other server processes (compose/organisation.ts: the event bus); they call `forget`. Never throws. */
    announce: (tenantId: string) => Promise<void> = async () => undefined,
  ) {
    this.trees = new PerTenantCache(
      async (tenantId) => {
        await this.departments.ensureUnassigned(tenantId);
        return (await this.departments.tree(tenantId)).map(departmentNode);
      },
      announce,
      TREE_CACHE_MS,
    );
  }

  /**
   * The tenant's tree, from a per-tenant cache: every organisation write drops it, in this process at
   * once (`changed`) and in the others when they hear of it (`forget`, through the event bus); it is at
   * most TREE_CACHE_MS old otherwise (a write straight into the database). 2,000 departments with their
   * head counts cost ~25 ms to build on a busy 2-core machine; every page of the address list, the
   * picker and 用户管理 asks for it.
   */
  tree(tenantId: string, now = Date.now()): Promise<DepartmentNode[]> {
    return this.trees.get(tenantId, now);
  }

  /** The organisation of a tenant changed (departments, or who is in which): the next tree is read anew, in every process. */
  changed(tenantId: string): Promise<void> {
    return this.trees.changed(tenantId);
  }

  /** Drops the cached tree of a tenant (undefined: of every tenant) without telling anyone. */
  forget(tenantId?: string): void {
    this.trees.forget(tenantId);
  }

  private async node(tenantId: string, id: string): Promise<DepartmentNode> {
    const node = (await this.tree(tenantId)).find((d) => d.id === id);
    if (!node) throw new AppError(ERRORS.DEPT_NOT_FOUND);
    return node;
  }

  private static name(raw: string): { name: string; key: string } {
    const problem = departmentNameProblem(raw);
    if (problem) throw new AppError(ERRORS.DEPT_NAME_INVALID, problem);
    const name = normalizeDepartmentName(raw);
    return { name, key: name.toLowerCase() };
  }

  private async assertManager(caller: Caller, managerId: string | null | undefined): Promise<void> {
    if (managerId && !(await this.users.findInTenant(caller.tenantId, managerId))) throw new AppError(ERRORS.USER_NOT_FOUND);
  }

  /** The department in the caller's tenant, read inside the transaction. */
  private static async inTenant(t: TreeTx, caller: Caller, id: string): Promise<DepartmentsTable> {
    const row = await t.find(id);
    if (!row || row.tenant_id !== caller.tenantId) throw new AppError(ERRORS.DEPT_NOT_FOUND);
    return row;
  }

  /** A parent that may hold children (not 未分配), and the depth a child of it has. */
  private static async parent(t: TreeTx, caller: Caller, parentId: string | null): Promise<{ row: DepartmentsTable | null; depth: number }> {
    if (parentId === null) return { row: null, depth: 0 };
    const row = await DepartmentService.inTenant(t, caller, parentId);
    if (row.kind === 'unassigned') throw new AppError(ERRORS.DEPT_UNASSIGNED_FIXED);
    return { row, depth: (await t.ancestors(row.id)).length };
  }

  private static conflictAware<T>(work: Promise<T>): Promise<T> {
    return work.catch((err: unknown) => {
      throw isUniqueViolation(err) ? new AppError(ERRORS.DEPT_NAME_CONFLICT) : err;
    });
  }

  async create(caller: Caller, req: DepartmentCreateRequest, now = Date.now()): Promise<{ node: DepartmentNode; change: DepartmentChange }> {
    const { name, key } = DepartmentService.name(req.name);
    await this.assertManager(caller, req.managerId);
    const id = newId();
    await DepartmentService.conflictAware(
      this.departments.inTree(caller.tenantId, async (t) => {
        const parent = await DepartmentService.parent(t, caller, req.parentId);
        if (parent.depth + 1 > DEPARTMENT_MAX_DEPTH) throw new AppError(ERRORS.DEPT_LIMIT, `部门层级不能超过${DEPARTMENT_MAX_DEPTH}级`);
        if ((await t.count(caller.tenantId)) >= DEPARTMENT_LIMIT) throw new AppError(ERRORS.DEPT_LIMIT, `部门数量不能超过${DEPARTMENT_LIMIT}个`);
        const siblings = (await t.siblings(caller.tenantId, req.parentId)).filter((s) => s.kind !== 'unassigned');
        const last = siblings.length ? siblings[siblings.length - 1]!.sort_order : 0;
        await t.insert({
          id,
          tenant_id: caller.tenantId,
          parent_id: req.parentId,
          name,
          name_key: key,
          sort_order: Math.min(last + ORDER_STEP, UNASSIGNED_ORDER - 1),
          manager_id: req.managerId ?? null,
          kind: 'normal',
          created_at: now,
          updated_at: now,
        });
      }),
    );
    await this.changed(caller.tenantId);
    const change = { id, name, detail: { parentId: req.parentId, managerId: req.managerId ?? null } };
    actionLog.record({ action: 'dept.create', targets: [target('department', id, name)], detail: change.detail });
    return { node: await this.node(caller.tenantId, id), change };
  }

  async update(caller: Caller, req: DepartmentUpdateRequest, now = Date.now()): Promise<{ node: DepartmentNode; change: DepartmentChange }> {
    const renamed = req.name === undefined ? null : DepartmentService.name(req.name);
    await this.assertManager(caller, req.managerId);
    let before = '';
    await DepartmentService.conflictAware(
      this.departments.inTree(caller.tenantId, async (t) => {
        const row = await DepartmentService.inTenant(t, caller, req.id);
        before = row.name;
        if (renamed && row.kind === 'unassigned' && renamed.name !== row.name) throw new AppError(ERRORS.DEPT_UNASSIGNED_FIXED);
        await t.update(row.id, {
          ...(renamed && row.kind !== 'unassigned' ? { name: renamed.name, name_key: renamed.key } : {}),
          ...(req.managerId !== undefined ? { manager_id: req.managerId } : {}),
          updated_at: now,
        });
      }),
    );
    await this.changed(caller.tenantId);
    const node = await this.node(caller.tenantId, req.id);
    const change = { id: node.id, name: node.name, detail: { before, managerId: node.managerId } };
    // A rename (with or without a new manager) or only a new manager: one record either way.
    const action = renamed && renamed.name !== before ? 'dept.rename' : 'dept.setManager';
    actionLog.record({ action, targets: [target('department', node.id, node.name)], detail: change.detail });
    return { node, change };
  }

  async move(caller: Caller, req: DepartmentMoveRequest, now = Date.now()): Promise<{ node: DepartmentNode; change: DepartmentChange }> {
    let from: string | null = null;
    await DepartmentService.conflictAware(
      this.departments.inTree(caller.tenantId, async (t) => {
        const row = await DepartmentService.inTenant(t, caller, req.id);
        if (row.kind === 'unassigned') throw new AppError(ERRORS.DEPT_UNASSIGNED_FIXED);
        from = row.parent_id;
        const parent = await DepartmentService.parent(t, caller, req.parentId);
        if (parent.row && (await t.ancestors(parent.row.id)).includes(row.id)) throw new AppError(ERRORS.DEPT_MOVE_CYCLE);
        if (parent.depth + (await t.subtreeHeight(row.id)) > DEPARTMENT_MAX_DEPTH) {
          throw new AppError(ERRORS.DEPT_LIMIT, `部门层级不能超过${DEPARTMENT_MAX_DEPTH}级`);
        }
        const all = await t.siblings(caller.tenantId, req.parentId);
        const siblings = all.filter((s) => s.id !== row.id && s.kind !== 'unassigned');
        let at = siblings.length;
        if (req.beforeId) {
          at = siblings.findIndex((s) => s.id === req.beforeId);
          if (at < 0) throw new AppError(ERRORS.DEPT_NOT_FOUND);
        }
        siblings.splice(at, 0, row);
        if (row.parent_id !== req.parentId) await t.update(row.id, { parent_id: req.parentId, updated_at: now });
        for (const [i, s] of siblings.entries()) {
          const order = (i + 1) * ORDER_STEP;
          if (s.sort_order !== order || s.id === row.id) await t.update(s.id, { sort_order: order, updated_at: now });
        }
      }),
    );
    await this.changed(caller.tenantId);
    const node = await this.node(caller.tenantId, req.id);
    const change = { id: node.id, name: node.name, detail: { fromParentId: from, toParentId: req.parentId, beforeId: req.beforeId ?? null } };
    actionLog.record({ action: from === req.parentId ? 'dept.order' : 'dept.move', targets: [target('department', node.id, node.name)], detail: change.detail });
    return { node, change };
  }

  async delete(caller: Caller, req: DepartmentIdRequest): Promise<DepartmentChange> {
    const change = await this.departments.inTree(caller.tenantId, async (t) => {
      const row = await DepartmentService.inTenant(t, caller, req.id);
      if (row.kind === 'unassigned') throw new AppError(ERRORS.DEPT_UNASSIGNED_FIXED);
      const children = await t.childCount(row.id);
      if (children > 0) throw new AppError(ERRORS.DEPT_HAS_CHILDREN, `该部门下还有${children}个子部门，无法删除`);
      const members = await t.memberCount(row.id);
      if (members > 0) throw new AppError(ERRORS.DEPT_HAS_MEMBERS, `该部门下还有${members}名人员，请先调整他们的部门后再删除`);
      await t.delete(row.id);
      return { id: row.id, name: row.name };
    });
    await this.changed(caller.tenantId);
    actionLog.record({ action: 'dept.delete', targets: [target('department', change.id, change.name)] });
    return change;
  }
}
