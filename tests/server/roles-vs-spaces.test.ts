import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { FileListResponse, IdsResponse, SpaceInfo } from '../../common/api/types';
import { createGroup, expectError, text } from './file-kit';
import { Client, liftPasswordGate, loggedInClient, login, MEMBER, startServerAsAdmin, userIdOf, type TestServer } from './helpers';

/**
 * Issue 4's accounts (roles, locks, password gate) meeting issue 5's spaces: a tenant admin's reach
 * into group spaces follows the role at once, in both directions, on the session already open; a
 * locked account's open session reaches no file route; a gated member reaches none either.
 */
let server: TestServer;
let admin: Client;
let memberId: string;
beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
  memberId = await userIdOf(server, 'member');
});
afterAll(async () => {
  await server.close();
});

describe('roles and account state against spaces', () => {
  it('a member with the initial password still owed reaches no file or group route', async () => {
    const gated = new Client(server.baseUrl);
    expect((await login(server, gated, MEMBER)).status).toBe(200);
    expectError(await gated.post(API.groupList, {}), ERRORS.PASSWORD_CHANGE_REQUIRED.code);
    expectError(await gated.post(API.fileList, { parentId: null, category: 1 }), ERRORS.PASSWORD_CHANGE_REQUIRED.code);
  });

  it("promotion gives a member the admin's reach into every group at once; demotion takes it away at once", async () => {
    await liftPasswordGate(server, MEMBER.username);
    const member = await loggedInClient(server, MEMBER);
    const group = await createGroup(admin, 'admins_only');
    const doc = await text(admin, 'plan.txt', 'plan', null, { spaceId: group.id });
    expect((await admin.post(API.lock, { ids: [doc.id] })).status).toBe(200);

    // A member outside the group: it does not exist for them.
    expectError(await member.post(API.fileList, { parentId: null, category: 1, spaceId: group.id }), ERRORS.NOT_FOUND.code, 404);
    expect((await member.post<{ data: SpaceInfo[] }>(API.groupList, {})).body.data.map((g) => g.id)).not.toContain(group.id);

    expect((await admin.post(API.setRoles, { userId: memberId, roles: ['admin'] })).status).toBe(200);
    // Same session, next request: every group of the tenant, and an admin may lift another's lock.
    expect((await member.post<{ data: SpaceInfo[] }>(API.groupList, {})).body.data.map((g) => g.id)).toContain(group.id);
    const listed = await member.post<{ data: FileListResponse }>(API.fileList, { parentId: null, category: 1, spaceId: group.id });
    expect(listed.body.data.items.map((i) => i.name)).toEqual(['plan.txt']);
    const unlocked = await member.post<{ data: IdsResponse }>(API.unlock, { ids: [doc.id] });
    expect(unlocked.body.data.items.map((i) => i.locked)).toEqual([false]);

    expect((await admin.post(API.setRoles, { userId: memberId, roles: ['member'] })).status).toBe(200);
    expectError(await member.post(API.fileList, { parentId: null, category: 1, spaceId: group.id }), ERRORS.NOT_FOUND.code, 404);
    expectError(await member.post(API.rename, { id: doc.id, name: 'taken.txt' }), ERRORS.NOT_FOUND.code, 404);
    expect((await member.post<{ data: SpaceInfo[] }>(API.groupList, {})).body.data.map((g) => g.id)).not.toContain(group.id);
  });

  it("a locked account's open session ends on file routes (400sec-core-301); its group membership and entries stay", async () => {
    const member = await loggedInClient(server, MEMBER);
    const group = await createGroup(admin, 'with_member');
    expect((await admin.post(API.groupMemberAdd, { id: group.id, username: MEMBER.username })).status).toBe(200);
    const own = await text(member, 'mine.txt', 'mine', null, { spaceId: group.id });

    expect((await admin.post(API.accountLock, { userId: memberId })).status).toBe(200);
    expectError(await member.post(API.fileList, { parentId: null, category: 1, spaceId: group.id }), ERRORS.SESSION_TERMINATED.code, ERRORS.SESSION_TERMINATED.status);
    expectError(await member.post(API.removeFiles, { ids: [own.id] }), ERRORS.SESSION_TERMINATED.code, ERRORS.SESSION_TERMINATED.status);

    const members = await admin.post<{ data: { members: Array<{ username: string }> } }>(API.groupMemberList, { id: group.id });
    expect(members.body.data.members.map((m) => m.username)).toContain(MEMBER.username);
    const listed = await admin.post<{ data: FileListResponse }>(API.fileList, { parentId: null, category: 1, spaceId: group.id });
    expect(listed.body.data.items.map((i) => i.name)).toEqual(['mine.txt']);

    expect((await admin.post(API.accountUnlock, { userId: memberId })).status).toBe(200);
    const again = await loggedInClient(server, MEMBER);
    expect((await again.post(API.removeFiles, { ids: [own.id] })).status).toBe(200);
  });
});
