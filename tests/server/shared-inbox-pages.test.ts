import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { ShareRecipient, SharedListResponse } from '../../common/api/sharing';
import type { FileEntry } from '../../common/api/types';
import { mkdir } from './file-kit';
import type { Client } from './helpers';
import { ADMIN, liftPasswordGate, loggedInClient, MEMBER, startServer, userIdOf, type TestServer } from './helpers';
import { department, person, share, sharedList, type Person } from './sharing-kit';

/**
 * 共享文件 page by page: the root is a merge of one index walk per recipient key (the person, their
 * department, the department above it), so paging must neither lose nor repeat an entry when the
 * keys interleave, when one entry reaches the person several ways (shown once, at its newest share),
 * when shares are revoked, and when only one sharer's entries are asked for.
 */
let server: TestServer;
let admin: Client;
let owner: Person;
let bob: Person;
let carol: Person;
let rd: string;
let frontend: string;

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  await liftPasswordGate(server, MEMBER.username);
  owner = { id: await userIdOf(server, 'member'), account: 'member', client: await loggedInClient(server, MEMBER) };
  rd = await department(admin, '研发部');
  frontend = await department(admin, '前端组', rd);
  const market = await department(admin, '市场部');
  carol = await person(server, admin, 'carol', frontend);
  bob = await person(server, admin, 'bob', market);
});
afterAll(async () => {
  await server.close();
});

async function walk(client: Client, extra: Record<string, unknown>): Promise<{ items: FileEntry[]; pages: number; first: SharedListResponse }> {
  const items: FileEntry[] = [];
  let cursor: string | null = null;
  let first: SharedListResponse | null = null;
  let pages = 0;
  do {
    const page: SharedListResponse = await sharedList(client, null, { pageSize: 7, cursor, ...extra });
    first ??= page;
    expect(page.items.length).toBeLessThanOrEqual(7);
    items.push(...page.items);
    cursor = page.nextCursor;
    pages++;
    expect(pages).toBeLessThan(100);
  } while (cursor);
  return { items, pages, first: first! };
}

describe('共享文件 pages', () => {
  const expected = new Map<string, string>(); // name → sharer id
  let twice: string[] = [];

  beforeAll(async () => {
    const recipients: ShareRecipient[] = [
      { type: 'user', id: carol.id },
      { type: 'dept', id: frontend },
      { type: 'dept', id: rd },
    ];
    const revoke: Array<{ by: Person; id: string }> = [];
    for (let i = 0; i < 60; i++) {
      const sharer = i % 3 === 2 ? bob : owner;
      const name = `条目-${String(i).padStart(2, '0')}`;
      const entry = await mkdir(sharer.client, name);
      // Uneven walks: two thirds to the person, the rest to the departments (a walk of the upper
      // department reaches far further back than one of the person's).
      const to = i % 6 < 4 ? 0 : i % 6 === 4 ? 1 : 2;
      const made = await share(sharer.client, [entry.id], [recipients[to]!], 'download');
      if (i % 10 === 4) revoke.push({ by: sharer, id: made.shares[0]!.id });
      else expected.set(name, sharer.id);
      // Shared a second way a little later: the entry is shown once, at this newer share.
      if (i % 2 === 1) {
        twice.push(name);
        await share(sharer.client, [entry.id], [recipients[(to + 1) % 3]!], 'preview');
      }
    }
    twice = twice.filter((n) => expected.has(n));
    for (const r of revoke) expect((await r.by.client.post(API.shareRevoke, { ids: [r.id] })).status).toBe(200);
  });

  it('every entry in force exactly once across pages, newest share first, twice-shared ones at their newer share', async () => {
    const { items, pages, first } = await walk(carol.client, {});
    expect(pages).toBe(Math.ceil(expected.size / 7));
    expect(items.map((i) => i.name).sort()).toEqual([...expected.keys()].sort());
    for (let i = 1; i < items.length; i++) expect(items[i - 1]!.share!.sharedAt).toBeGreaterThanOrEqual(items[i]!.share!.sharedAt);
    for (const item of items) expect(item.share!.sharedBy.id).toBe(expected.get(item.name));
    // The later share is the weaker one, but several shares add up to the strongest in force.
    for (const name of twice) expect(items.find((i) => i.name === name)!.share!.permission).toBe('download');
    const counts = Object.fromEntries((first.sharers ?? []).map((s) => [s.user.id, s.count]));
    expect(counts).toEqual({
      [owner.id]: [...expected.values()].filter((v) => v === owner.id).length,
      [bob.id]: [...expected.values()].filter((v) => v === bob.id).length,
    });
  });

  it('one sharer: only theirs, each once, across pages', async () => {
    const { items } = await walk(carol.client, { sharerId: bob.id });
    const bobs = [...expected].filter(([, v]) => v === bob.id).map(([k]) => k);
    expect(items.map((i) => i.name).sort()).toEqual(bobs.sort());
  });

  it('someone outside the departments sees none of it; the sharer’s own entries are not in their 共享文件', async () => {
    expect((await walk(bob.client, {})).items.filter((i) => i.share!.sharedBy.id === owner.id)).toEqual([]);
    expect((await walk(owner.client, {})).items.filter((i) => i.share!.sharedBy.id === owner.id)).toEqual([]);
  });
});
