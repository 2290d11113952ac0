import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import { PUBLIC_SPACE_ID, type CreateTxtResponse, type FileEntry, type VersionListResponse } from '../../common/api/types';
import type { MultipleFileCheckResponse, UnprocessedUpload } from '../../common/transfer/checks';
import { createGroup, download, mkdir, text } from './file-kit';
import { addUser, type Answer, type Client, loggedInClient, randomContent, startServerWithMember, uploadFile, withDb, type TestServer } from './helpers';
import { secondUpload } from './second-upload-kit';

/**
 * Issue 19 (High): every path that gives an EXISTING file new content obeys the same rule as rename
 * (common/files/space-roles.ts): in group spaces owners and managers may replace any file, members
 * only their own; in the public space everyone only their own (tenant admins: any). Each row below
 * is one path × one space × one actor, and its answer must be exactly the one a rename of the same
 * file by the same actor gets. A refused overwrite leaves the owner's content and version list as
 * they were.
 */

let server: TestServer;
let admin: Client;
let member: Client;
let manager: Client;

const PASSWORD = 'Manager@2024';

beforeAll(async () => {
  ({ server, admin, member } = await startServerWithMember());
  const tenantId = await withDb(server, (db) => (db.prepare("select tenant_id from users where username = 'admin'").get() as { tenant_id: string }).tenant_id);
  await addUser(server, tenantId, 'manager1', PASSWORD);
  manager = await loggedInClient(server, { username: 'manager1', password: PASSWORD });
});
afterAll(async () => {
  await server.close();
});

/** One way of replacing `name` in `folderId`; `prepare` runs before the target exists (restore needs its own entry there first). */
interface OverwritePath {
  title: string;
  prepare(actor: Client, folderId: string, name: string, content: Buffer): Promise<() => Promise<Answer>>;
}

const PATHS: OverwritePath[] = [
  {
    title: 'chunk merge with onConflict newVersion',
    prepare: async (actor, folderId, name, content) => () => uploadFile(actor, content, name, { parentId: folderId, onConflict: 'newVersion' }),
  },
  {
    title: 'second upload with onConflict newVersion',
    prepare: async (actor, _folderId, name, content) => {
      // The tenant must hold the bytes already: the actor uploads them to their own files first.
      expect((await uploadFile(actor, content, `seed-${name}`)).status).toBe(200);
      return async () => (await secondUpload(actor, content, name, { parentId: _folderId, onConflict: 'newVersion' })).answer;
    },
  },
  {
    title: 'createTxt held on the clash, then keepOnCreateTxt newVersion',
    prepare: async (actor, folderId, name, content) => async () => {
      const held = await actor.post<{ data: CreateTxtResponse }>(API.createTxt, { parentId: folderId, category: 1, name, content: content.toString('utf8') });
      expect(held.status, JSON.stringify(held.body)).toBe(200);
      expect(held.body.data.status).toBe('held');
      const holdId = (held.body.data as { holdId: string }).holdId;
      return actor.post(API.keepOnCreateTxt, { holdId, decision: 'newVersion' });
    },
  },
  {
    title: 'copy with decision overwrite',
    prepare: async (actor, folderId, name, content) => {
      const source = await text(actor, name, content.toString('utf8'));
      return () => actor.post(API.copy, { ids: [source.id], targetParentId: folderId, targetCategory: 1, decisions: { [source.id]: 'overwrite' } });
    },
  },
  {
    title: 'move with decision overwrite',
    prepare: async (actor, folderId, name, content) => {
      const source = await text(actor, name, content.toString('utf8'));
      return () => actor.post(API.move, { ids: [source.id], targetParentId: folderId, targetCategory: 1, decisions: { [source.id]: 'overwrite' } });
    },
  },
  {
    title: 'recycle-bin restore with decision overwrite',
    prepare: async (actor, folderId, name, content) => {
      // The actor's own entry of that name, deleted before the target was created in its place.
      const own = await text(actor, name, content.toString('utf8'), folderId);
      expect((await actor.post(API.removeFiles, { ids: [own.id] })).status).toBe(200);
      return () => actor.post(API.recycleRestore, { ids: [own.id], decisions: { [own.id]: 'overwrite' } });
    },
  },
];

/** Who owns the target and who tries to replace it, and whether the rule lets them. */
interface Case {
  space: 'group' | 'public';
  owner: () => Client;
  ownerName: string;
  actor: () => Client;
  actorName: string;
  allowed: boolean;
}

const CASES: Case[] = [
  { space: 'group', owner: () => admin, ownerName: 'owner (admin)', actor: () => member, actorName: 'member', allowed: false },
  { space: 'group', owner: () => manager, ownerName: 'manager', actor: () => member, actorName: 'member', allowed: false },
  { space: 'group', owner: () => member, ownerName: 'member', actor: () => member, actorName: 'member (own file)', allowed: true },
  { space: 'group', owner: () => member, ownerName: 'member', actor: () => manager, actorName: 'manager', allowed: true },
  { space: 'group', owner: () => member, ownerName: 'member', actor: () => admin, actorName: 'owner (admin)', allowed: true },
  { space: 'public', owner: () => admin, ownerName: 'admin', actor: () => member, actorName: 'member', allowed: false },
  { space: 'public', owner: () => member, ownerName: 'member', actor: () => manager, actorName: 'another member', allowed: false },
  { space: 'public', owner: () => member, ownerName: 'member', actor: () => member, actorName: 'member (own file)', allowed: true },
  { space: 'public', owner: () => member, ownerName: 'member', actor: () => admin, actorName: 'tenant admin', allowed: true },
];

const folders: Record<Case['space'], string> = { group: '', public: '' };

beforeAll(async () => {
  const group = await createGroup(admin, 'overwrite_rules');
  expect((await admin.post(API.groupMemberAdd, { id: group.id, username: 'member' })).status).toBe(200);
  expect((await admin.post(API.groupMemberAdd, { id: group.id, username: 'manager1', role: 'manager' })).status).toBe(200);
  folders.group = (await mkdir(admin, 'shared', null, { spaceId: group.id })).id;
  folders.public = (await mkdir(admin, 'shared', null, { spaceId: PUBLIC_SPACE_ID })).id;
});

async function versionCount(client: Client, id: string): Promise<number> {
  const res = await client.post<{ data: VersionListResponse }>(API.versionList, { id });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.versions.length;
}

let serial = 0;

describe('overwriting an existing file follows the rename rule on every path', () => {
  for (const path of PATHS) {
    for (const c of CASES) {
      it(`${path.title}: ${c.actorName} over ${c.ownerName}'s file in the ${c.space} space → ${c.allowed ? 'replaced' : 'refused'}`, async () => {
        const name = `target-${++serial}.txt`;
        const folderId = folders[c.space];
        const replacement = randomContent(4096 + serial).toString('hex');
        const run = await path.prepare(c.actor(), folderId, name, Buffer.from(replacement));
        const target: FileEntry = await text(c.owner(), name, 'original content', folderId);
        const versionsBefore = await versionCount(c.owner(), target.id);

        // The reference: what the same actor gets for renaming the same file.
        const rename = await c.actor().post(API.rename, { id: target.id, name: `${name}.renamed` });
        if (rename.status === 200) await c.actor().post(API.rename, { id: target.id, name });

        const answer = await run();
        if (c.allowed) {
          expect(rename.status, JSON.stringify(rename.body)).toBe(200);
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          expect(await download(c.owner(), target.id)).toBe(replacement);
          expect(await versionCount(c.owner(), target.id)).toBe(versionsBefore + 1);
        } else {
          expect(rename.body).toMatchObject({ errorCode: ERRORS.FORBIDDEN.code });
          expect({ status: answer.status, errorCode: (answer.body as { errorCode?: string }).errorCode }).toEqual({
            status: rename.status,
            errorCode: ERRORS.FORBIDDEN.code,
          });
          expect(await download(c.owner(), target.id)).toBe('original content');
          expect(await versionCount(c.owner(), target.id)).toBe(versionsBefore);
        }
      });
    }
  }

  it("restoring an old version of another's file is refused like rename (it was already; kept in the matrix)", async () => {
    const target = await text(admin, `versioned-${++serial}.txt`, 'v1', folders.public);
    const held = await admin.post<{ data: CreateTxtResponse }>(API.createTxt, { parentId: folders.public, category: 1, name: target.name, content: 'v2' });
    const holdId = (held.body.data as { holdId: string }).holdId;
    expect((await admin.post(API.keepOnCreateTxt, { holdId, decision: 'newVersion' })).status).toBe(200);
    const versions = (await admin.post<{ data: VersionListResponse }>(API.versionList, { id: target.id })).body.data.versions;
    const old = versions.find((v) => !v.current)!;
    const answer = await member.post(API.versionRestore, { id: target.id, versionId: old.id });
    expect(answer.body).toMatchObject({ errorCode: ERRORS.FORBIDDEN.code });
    expect(await download(admin, target.id)).toBe('v2');
  });

  it('the upload check says in advance which clashes the caller may not replace (only a rename is offered)', async () => {
    const theirs = await text(admin, `check-theirs-${++serial}.txt`, 'x', folders.group);
    const mine = await text(member, `check-mine-${++serial}.txt`, 'x', folders.group);
    const items = [theirs, mine].map((f, i) => ({ key: `k${serial}-${i}`, name: f.name, size: 5, parentId: folders.group, category: 1 }));
    const res = await member.post<{ data: MultipleFileCheckResponse }>(API.multipleFileCheck, { items });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.results.map((r) => [r.exists, r.replaceable])).toEqual([
      [true, false],
      [true, true],
    ]);
    const held = await member.get<{ data: UnprocessedUpload[] }>(API.unProcessList);
    const reasons = new Map(held.body.data.map((u) => [u.key, u.reason]));
    expect([reasons.get(items[0]!.key), reasons.get(items[1]!.key)]).toEqual(['existsNotYours', 'exists']);
  });
});

