import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import type { DepartmentNode } from '../../common/api/org-types';
import { API } from '../../common/api/paths';
import { expectError } from './file-kit';
import { type Client, startServerAsAdmin, type TestServer } from './helpers';
import { addUser, createDepartment, expectAcyclic, orgTree, unassignedId } from './org-kit';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
});
afterAll(async () => {
  await server.close();
});

const byName = async (name: string): Promise<DepartmentNode> => (await orgTree(admin)).departments.find((d) => d.name === name)!;

describe('departments', () => {
  it('existing accounts start in 未分配, which is fixed', async () => {
    const tree = await orgTree(admin);
    const unassigned = tree.departments.find((d) => d.unassigned)!;
    expect(unassigned.name).toBe('未分配');
    expect(unassigned.memberCount).toBe(2);
    expect(tree.myDepartmentId).toBe(unassigned.id);
    expectError(await admin.post(API.departmentCreate, { parentId: unassigned.id, name: 'x' }), ERRORS.DEPT_UNASSIGNED_FIXED.code);
    expectError(await admin.post(API.departmentUpdate, { id: unassigned.id, name: 'renamed' }), ERRORS.DEPT_UNASSIGNED_FIXED.code);
    expectError(await admin.post(API.departmentMove, { id: unassigned.id, parentId: null }), ERRORS.DEPT_UNASSIGNED_FIXED.code);
    expectError(await admin.post(API.departmentDelete, { id: unassigned.id }), ERRORS.DEPT_UNASSIGNED_FIXED.code);
  });

  it('creates, renames (unique among siblings, case-insensitive), and checks names', async () => {
    const rd = await createDepartment(admin, '研发部');
    const fe = await createDepartment(admin, '前端组', rd.id);
    expect(fe.parentId).toBe(rd.id);
    await createDepartment(admin, 'QA', rd.id);
    expectError(await admin.post(API.departmentCreate, { parentId: rd.id, name: 'qa' }), ERRORS.DEPT_NAME_CONFLICT.code);
    // The same name under another parent is fine.
    await createDepartment(admin, 'QA');
    expectError(await admin.post(API.departmentCreate, { parentId: null, name: 'a/b' }), ERRORS.DEPT_NAME_INVALID.code);
    expectError(await admin.post(API.departmentCreate, { parentId: null, name: '  ' }), ERRORS.DEPT_NAME_INVALID.code);
    expectError(await admin.post(API.departmentCreate, { parentId: null, name: 'x\u202ey' }), ERRORS.DEPT_NAME_INVALID.code);
    expectError(await admin.post(API.departmentUpdate, { id: fe.id, name: 'QA' }), ERRORS.DEPT_NAME_CONFLICT.code);
    const renamed = await admin.post<{ data: DepartmentNode }>(API.departmentUpdate, { id: fe.id, name: 'Web 前端组' });
    expect(renamed.body.data.name).toBe('Web 前端组');
    expectError(await admin.post(API.departmentCreate, { parentId: 'no-such-dept', name: 'x' }), ERRORS.DEPT_NOT_FOUND.code, 404);
  });

  it('sets and clears a manager (a user of the tenant)', async () => {
    const rd = await byName('研发部');
    const boss = await addUser(admin, 'boss', rd.id);
    const set = await admin.post<{ data: DepartmentNode }>(API.departmentUpdate, { id: rd.id, managerId: boss.id });
    expect(set.body.data).toMatchObject({ managerId: boss.id, managerName: '昵称boss', memberCount: 1 });
    expectError(await admin.post(API.departmentUpdate, { id: rd.id, managerId: 'no-such-user' }), ERRORS.USER_NOT_FOUND.code, 404);
    const cleared = await admin.post<{ data: DepartmentNode }>(API.departmentUpdate, { id: rd.id, managerId: null });
    expect(cleared.body.data.managerId).toBeNull();
  });

  it('orders siblings and moves subtrees, never under themselves or a descendant', async () => {
    const a = await createDepartment(admin, 'A');
    const b = await createDepartment(admin, 'B');
    const c = await createDepartment(admin, 'C');
    const topNames = async () => (await orgTree(admin)).departments.filter((d) => d.parentId === null).map((d) => d.name);
    expect((await topNames()).slice(-4)).toEqual(['A', 'B', 'C', '未分配']);
    expect((await admin.post(API.departmentMove, { id: c.id, parentId: null, beforeId: a.id })).status).toBe(200);
    expect((await topNames()).slice(-4)).toEqual(['C', 'A', 'B', '未分配']);
    // Never after 未分配, even when asked to go last.
    expect((await admin.post(API.departmentMove, { id: c.id, parentId: null })).status).toBe(200);
    expect((await topNames()).slice(-4)).toEqual(['A', 'B', 'C', '未分配']);

    const a1 = await createDepartment(admin, 'A1', a.id);
    const a11 = await createDepartment(admin, 'A11', a1.id);
    expectError(await admin.post(API.departmentMove, { id: a.id, parentId: a.id }), ERRORS.DEPT_MOVE_CYCLE.code);
    expectError(await admin.post(API.departmentMove, { id: a.id, parentId: a11.id }), ERRORS.DEPT_MOVE_CYCLE.code);
    expect((await admin.post(API.departmentMove, { id: a1.id, parentId: b.id })).status).toBe(200);
    const tree = await orgTree(admin);
    expect(tree.departments.find((d) => d.id === a11.id)!.parentId).toBe(a1.id);
    expect(tree.departments.find((d) => d.id === a1.id)!.parentId).toBe(b.id);
    expectError(await admin.post(API.departmentMove, { id: b.id, parentId: null, beforeId: a11.id }), ERRORS.DEPT_NOT_FOUND.code, 404);
    expectAcyclic(tree.departments);
  });

  it('refuses every cycle two concurrent moves could build, whatever the interleaving', async () => {
    for (let round = 0; round < 5; round++) {
      const x = await createDepartment(admin, `X${round}`);
      const y = await createDepartment(admin, `Y${round}`);
      const [one, two] = await Promise.all([
        admin.post(API.departmentMove, { id: x.id, parentId: y.id }),
        admin.post(API.departmentMove, { id: y.id, parentId: x.id }),
      ]);
      expect([one.status, two.status].sort()).toEqual([200, 400]);
      expect([one, two].find((r) => r.status === 400)!.body).toMatchObject({ errorCode: ERRORS.DEPT_MOVE_CYCLE.code });
    }
    // Many movers at once over a small forest: the tree stays a tree.
    const nodes = await Promise.all(['P', 'Q', 'R', 'S', 'T', 'U'].map((n) => createDepartment(admin, n)));
    const moves = [];
    for (let i = 0; i < 40; i++) {
      const from = nodes[(i * 7) % nodes.length]!;
      const to = nodes[(i * 5 + 1) % nodes.length]!;
      moves.push(admin.post(API.departmentMove, { id: from.id, parentId: to.id }));
    }
    const answers = await Promise.all(moves);
    for (const a of answers) if (a.status !== 200) expect(a.body).toMatchObject({ errorCode: ERRORS.DEPT_MOVE_CYCLE.code });
    expectAcyclic((await orgTree(admin)).departments);
  });

  it('deletes only an empty department, saying what is left in it', async () => {
    const parent = await createDepartment(admin, '待删');
    const child = await createDepartment(admin, '子部门', parent.id);
    const res = await admin.post<{ errorMessage: string }>(API.departmentDelete, { id: parent.id });
    expectError(res, ERRORS.DEPT_HAS_CHILDREN.code);
    expect(res.body.errorMessage).toContain('1个子部门');
    const person = await addUser(admin, 'stays', child.id);
    const res2 = await admin.post<{ errorMessage: string }>(API.departmentDelete, { id: child.id });
    expectError(res2, ERRORS.DEPT_HAS_MEMBERS.code);
    expect(res2.body.errorMessage).toContain('1名人员');
    expect((await admin.post(API.userSetDepartment, { ids: [person.id], departmentId: await unassignedId(admin) })).status).toBe(200);
    expect((await admin.post(API.departmentDelete, { id: child.id })).status).toBe(200);
    expect((await admin.post(API.departmentDelete, { id: parent.id })).status).toBe(200);
    expect((await orgTree(admin)).departments.some((d) => d.name === '待删' || d.name === '子部门')).toBe(false);
  });
});
