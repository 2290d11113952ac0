import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { ContentHit, SearchResponse } from '../../common/api/types';
import { PUBLIC_SPACE_ID } from '../../common/api/types';
import { createGroup, text } from './file-kit';
import { addTenantWithUser, type Client, liftPasswordGate, loggedInClient, MEMBER, startServerAsAdmin, type TestServer, userIdOf, withDb } from './helpers';
import { share } from './sharing-kit';
import type { Database } from '../../server/db/schema';
import { ContentSearchRepository, type ContentMatchRow } from '../../server/repositories/content-search-repository';
import { keywordJunctions, wordJunctions } from '../../server/db/dialect';
import { onPostgres, openTestKysely } from '../support/test-database';

/**
 * Content hits of the unified search (search inside files) are scoped exactly as its name hits: the
 * caller's own files, the public space, their groups — never another user's files, whatever grant
 * points at them (download, preview-only, expired), never a group's once removed from it, never the
 * recycle bin, never another tenant, also where two files share one blob (one text). Keywords of one,
 * two and three or more characters take different indexes on each engine (dialect.ts
 * contentTextLookup); the expected answers are computed here from the texts.
 */
let server: TestServer;
let admin: Client;
let member: Client;
let stranger: Client;

interface Doc {
  name: string;
  text: string;
  pageStarts?: number[];
}
/** Who may find which file, as the oracle sees it. */
const visible = new Map<Client, Doc[]>();
const all: Doc[] = [];

const blobOf = async (fileId: string): Promise<string> =>
  withDb(server, (db) => (db.prepare('select blob_id from files where id = ?').get(fileId) as { blob_id: string }).blob_id);

/** A text file whose extracted text is `doc.text` (as docrend would put it), visible to `who`. */
async function put(owner: Client, doc: Doc, who: Client[], extra: Record<string, unknown> = {}, bytes = doc.name): Promise<{ id: string; blobId: string }> {
  const entry = await text(owner, doc.name, bytes, null, extra);
  const blobId = await blobOf(entry.id);
  const res = await server.app.contentTexts.putText(blobId, { text: doc.text, pageStarts: doc.pageStarts ?? null });
  expect(res.stored).toBe(true);
  all.push(doc);
  for (const c of who) visible.get(c)!.push(doc);
  return { id: entry.id, blobId };
}

function unified(client: Client, query: Record<string, string>) {
  return client.get<{ data: SearchResponse }>(`${API.unifiedSearch}?${new URLSearchParams(query).toString()}`);
}

async function contentHits(client: Client, keyword: string): Promise<ContentHit[]> {
  const out: ContentHit[] = [];
  let res = await unified(client, { keyword, pageSize: '2' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  for (let guard = 0; ; guard++) {
    const content = res.body.data.content!;
    expect(content.items.length).toBeLessThanOrEqual(2);
    out.push(...content.items);
    if (!content.nextCursor || guard > 50) break;
    res = await unified(client, { keyword, pageSize: '2', contentCursor: content.nextCursor });
    expect(res.status).toBe(200);
    expect(res.body.data.items).toEqual([]);
  }
  return out;
}

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
  await liftPasswordGate(server, MEMBER.username);
  member = await loggedInClient(server, MEMBER);
  await addTenantWithUser(server, 'stranger', 'Stranger@2024');
  stranger = await loggedInClient(server, { username: 'stranger', password: 'Stranger@2024' });
  for (const c of [admin, member, stranger]) visible.set(c, []);
  const memberId = await userIdOf(server, MEMBER.username);

  await put(admin, { name: 'admin-contract.txt', text: '本合同条款由双方签订。Annual REPORT for Q3总结 and the 图 appendix.' }, [admin]);
  // Holds the junction of 'annual report' (al re, in 'final review') and both words, but not the phrase.
  await put(admin, { name: 'admin-junction.txt', text: 'The final review of the annual plan; a report follows.' }, [admin]);
  await put(admin, { name: 'admin-accents.txt', text: 'ÉTÉ REPORT 2026' }, [admin]);
  await put(admin, { name: 'admin-paged.txt', text: 'first page text\fsecond page holds 合同 here\fthird 图表', pageStarts: [0, 16, 42] }, [admin]);
  await put(member, { name: 'member-own.txt', text: '会员自己的合同 memberonly report' }, [member]);
  await put(stranger, { name: 'stranger.txt', text: '别的租户的合同 report 图' }, [stranger]);
  await put(admin, { name: 'public.txt', text: '公共空间的合同范本 public report' }, [admin, member], { spaceId: PUBLIC_SPACE_ID });
  const both = await createGroup(admin, '内容组');
  expect((await admin.post(API.groupMemberAdd, { id: both.id, username: MEMBER.username })).status).toBe(200);
  await put(admin, { name: 'group.txt', text: '群组里的合同 group report' }, [admin, member], { spaceId: both.id });
  // Removed from this group: its files are no longer the member's to find.
  const left = await createGroup(admin, '离开的组');
  expect((await admin.post(API.groupMemberAdd, { id: left.id, username: MEMBER.username })).status).toBe(200);
  await put(admin, { name: 'left-group.txt', text: '离开后的合同 left report' }, [admin], { spaceId: left.id });
  expect((await admin.post(API.groupMemberRemove, { id: left.id, userId: memberId })).status).toBe(200);
  // Shared with the member three ways: still the admin's files, never the member's content hits.
  const dl = await put(admin, { name: 'shared-download.txt', text: '共享下载的合同 shared report' }, [admin]);
  const pv = await put(admin, { name: 'shared-preview.txt', text: '仅预览的合同 preview report' }, [admin]);
  const ex = await put(admin, { name: 'shared-expired.txt', text: '过期共享的合同 expired report' }, [admin]);
  await share(admin, [dl.id], [{ type: 'user', id: memberId }], 'download');
  await share(admin, [pv.id], [{ type: 'user', id: memberId }], 'preview');
  await share(admin, [ex.id], [{ type: 'user', id: memberId }], 'download', 1);
  await withDb(server, (db) => db.prepare('update shares set expires_at = ? where file_id = ?').run(Date.now() - 1000, ex.id));
  // In the recycle bin: nobody finds it.
  const gone = await put(admin, { name: 'deleted.txt', text: '删除了的合同 deleted report' }, []);
  expect((await admin.post(API.removeFiles, { ids: [gone.id] })).status).toBe(200);
  // The same bytes by two users: one blob, one text; each finds only their own file.
  const a = await put(admin, { name: 'same-admin.txt', text: '同一内容的合同 same report' }, [admin], {}, 'identical bytes');
  const m = await text(member, 'same-member.txt', 'identical bytes');
  expect(await blobOf(m.id)).toBe(a.blobId);
  visible.get(member)!.push({ name: 'same-member.txt', text: '同一内容的合同 same report' });
});
afterAll(async () => server?.close());

const KEYWORDS = ['合同', '图', '合同条款', 'report', 'REPORT', 'q3总结', 'memberonly', 're', '没有的词', 'annual report', 'ANNUAL Report for', 'final  review', 'review of the annual', 'REPORT for Q3总结', 'Été report'];

describe('content hits of the unified search', () => {
  for (const keyword of KEYWORDS) {
    it(`"${keyword}": each caller finds exactly the texts in their scope`, async () => {
      for (const client of [admin, member, stranger]) {
        const hits = await contentHits(client, keyword);
        const expected = visible
          .get(client)!
          .filter((d) => (keyword.length <= 2 && /^[a-z]+$/i.test(keyword) ? new RegExp(`\\b${keyword}`, 'i').test(d.text) : d.text.toLowerCase().includes(keyword.toLowerCase())))
          .map((d) => d.name)
          .sort();
        expect(hits.map((h) => h.name).sort(), `${keyword} as ${client === admin ? 'admin' : client === member ? 'member' : 'stranger'}`).toEqual(expected);
        for (const h of hits) {
          const marked = h.match.snippet.filter((s) => s.mark).map((s) => s.text.toLowerCase());
          expect(marked.length).toBeGreaterThan(0);
          for (const m of marked) expect(m).toBe(keyword.toLowerCase());
        }
      }
    });
  }

  it('says on which page of a paged text the first match is, and marks it in a snippet', async () => {
    const hits = await contentHits(admin, '合同');
    const paged = hits.find((h) => h.name === 'admin-paged.txt')!;
    expect(paged.match.page).toBe(2);
    expect(paged.match.snippet).toEqual([
      { text: '… page text second page holds ', mark: false },
      { text: '合同', mark: true },
      { text: ' here third 图表', mark: false },
    ]);
    expect(hits.find((h) => h.name === 'admin-contract.txt')!.match.page).toBeNull();
    const chart = (await contentHits(admin, '图表')).find((h) => h.name === 'admin-paged.txt')!;
    expect(chart.match.page).toBe(3);
  });

  it('the first page answers names and content together; a names page answers no content', async () => {
    const first = await unified(admin, { keyword: 'contract' });
    expect(first.body.data.items.map((i) => i.name)).toEqual(['admin-contract.txt']);
    expect(first.body.data.content).toEqual({ items: [], nextCursor: null });
    const names = await unified(admin, { keyword: 'txt', pageSize: '1' });
    const next = await unified(admin, { keyword: 'txt', pageSize: '1', cursor: names.body.data.nextCursor! });
    expect(next.body.data.content).toBeUndefined();
    expect((await unified(admin, { keyword: '合同', contentCursor: 'bogus' })).status).toBe(400);
  });

  it('SQLite walks the text index newest first and stops after the page: no sort of every match', async () => {
    if (onPostgres()) return;
    const db = await openTestKysely<Database>(server.dataDir);
    try {
      const repo = new ContentSearchRepository(db);
      for (const keyword of ['合同', 'report', '合同条款']) {
        const q = repo.searchQuery({ tenantId: 't', ownerId: 'u', category: null, spaceIds: ['s'] }, keyword, 5, 21)!.compile();
        const plan = await withDb(server, (d) => d.prepare(`explain query plan ${q.sql}`).all(...(q.parameters as unknown[])) as Array<{ detail: string }>);
        const details = plan.map((p) => p.detail).join('\n');
        expect(details, keyword).not.toMatch(/TEMP B-TREE/);
        expect(details, keyword).toMatch(/SCAN (blob_text_trigrams|c) VIRTUAL TABLE/);
      }
    } finally {
      await db.destroy();
    }
  });

  it('words joined by spaces are looked up by where they meet (SQLite), each window a substring of the keyword', () => {
    expect(wordJunctions('annual report')).toEqual(['al re']);
    expect(wordJunctions('quality data policy')).toEqual(['ty da', 'ta po']);
    expect(wordJunctions('final  review')).toEqual(['al  re']);
    expect(wordJunctions('a b')).toBeNull();
    expect(wordJunctions('report')).toBeNull();
    expect(wordJunctions('年度 报告')).toBeNull();
    expect(wordJunctions('for Q3 总结 and')).toEqual(['or Q3', 'Q3 总结', '总结 an']);
  });

  it('words joined by white space are looked up by where they meet (PostgreSQL): only the sides the keyword fixes', () => {
    expect(keywordJunctions('annual report')).toEqual([['annual', 'report']]);
    expect(keywordJunctions('quality data policy')).toEqual([
      ['quality', 'data'],
      ['data', 'policy'],
    ]);
    // A side of one or two characters at the keyword's end may be the end of a longer word in the text.
    expect(keywordJunctions('l report')).toBeNull();
    expect(keywordJunctions('annual re')).toBeNull();
    expect(keywordJunctions('x of y')).toBeNull();
    expect(keywordJunctions('for a b c')).toEqual([
      ['for', 'a'],
      ['a', 'b'],
    ]);
    expect(keywordJunctions('for Q3\t 总结报告')).toEqual([
      ['for', 'Q3'],
      ['Q3', '总结报告'],
    ]);
    expect(keywordJunctions('report')).toBeNull();
    expect(keywordJunctions(' report ')).toBeNull();
  });

  it('past the newest texts (PostgreSQL reads them first), the index finds the same files, page after page', async () => {
    const db = await openTestKysely<Database>(server.dataDir);
    try {
      const tenantId = await withDb(server, (d) => (d.prepare("select tenant_id from files where name = 'admin-contract.txt'").get() as { tenant_id: string }).tenant_id);
      const adminId = await userIdOf(server, 'admin');
      const scope = { tenantId, ownerId: adminId, category: null, spaceIds: [PUBLIC_SPACE_ID] };
      const pages = async (repo: ContentSearchRepository, keyword: string): Promise<string[]> => {
        const names: string[] = [];
        for (let before: number | null = null, guard = 0; guard < 50; guard++) {
          const rows: ContentMatchRow[] = (await repo.search(scope, keyword, before, 3)) ?? [];
          names.push(...rows.map((r) => r.name));
          if (rows.length < 3) break;
          before = rows[rows.length - 1]!.doc;
        }
        return names;
      };
      for (const keyword of ['合同', '图', 'report', 'annual report', 're', 'q3总结', '没有的词']) {
        const all = await pages(new ContentSearchRepository(db), keyword);
        expect(await pages(new ContentSearchRepository(db, 2), keyword), keyword).toEqual(all);
        expect(await pages(new ContentSearchRepository(db, 1), keyword), keyword).toEqual(all);
      }
      expect((await pages(new ContentSearchRepository(db, 2), '合同')).length).toBeGreaterThan(3);
    } finally {
      await db.destroy();
    }
  });

  it('however the hits lie, the walks of the newest texts and the index find what reading every text finds', async () => {
    // PostgreSQL reads the newest texts one by one, on through more of them only when the first held the
    // keyword, then asks the index (content-search-repository.ts searchRecentFirst): hits at both ends and
    // none between, hits every few texts, a phrase, a keyword only in the oldest texts — each stage's end
    // inside and outside the hits. The same answer for every length of the walks and page size.
    const fruit: string[] = [];
    for (let i = 0; i < 40; i++) {
      const words = [`fruit ${i}`];
      if (i <= 1 || i === 39) words.push('榴莲');
      if (i % 3 === 0) words.push('mango');
      if ([5, 6, 7, 30].includes(i)) words.push('kiwi fruit');
      if (i === 2 || i === 3) words.push('papaya');
      const body = words.join(' ');
      const entry = await text(admin, `fruit-${i}.txt`, `fruit bytes ${i}`);
      expect((await server.app.contentTexts.putText(await blobOf(entry.id), { text: body, pageStarts: null })).stored).toBe(true);
      fruit.unshift(body);
    }
    const db = await openTestKysely<Database>(server.dataDir);
    try {
      const tenantId = await withDb(server, (d) => (d.prepare("select tenant_id from files where name = 'fruit-0.txt'").get() as { tenant_id: string }).tenant_id);
      const scope = { tenantId, ownerId: await userIdOf(server, 'admin'), category: null, spaceIds: [PUBLIC_SPACE_ID] };
      for (const keyword of ['榴莲', 'mango', 'kiwi fruit', 'papaya']) {
        const expected = fruit.filter((body) => body.includes(keyword)).map((body) => `fruit-${/fruit (\d+)/.exec(body)![1]}.txt`);
        for (const [recentFirst, walkedAtMost] of [[1, 1], [1, 3], [2, 5], [7, 12]] as const) {
          for (const limit of [2, 5]) {
            const repo = new ContentSearchRepository(db, recentFirst, walkedAtMost);
            const found: string[] = [];
            for (let before: number | null = null, guard = 0; guard < 60; guard++) {
              const rows: ContentMatchRow[] = (await repo.search(scope, keyword, before, limit)) ?? [];
              found.push(...rows.map((r) => r.name));
              if (rows.length < limit) break;
              before = rows[rows.length - 1]!.doc;
            }
            expect(found.filter((name) => name.startsWith('fruit-')), `${keyword}, ${recentFirst}/${walkedAtMost} newest, pages of ${limit}`).toEqual(expected);
          }
        }
      }
    } finally {
      await db.destroy();
    }
  });

  it('a text replaced or removed is found as it is now', async () => {
    const { blobId } = await put(admin, { name: 'changing.txt', text: 'zebra crossing' }, []);
    expect((await contentHits(admin, 'zebra')).map((h) => h.name)).toEqual(['changing.txt']);
    await server.app.contentTexts.putText(blobId, { text: 'giraffe' });
    expect(await contentHits(admin, 'zebra')).toEqual([]);
    expect((await contentHits(admin, 'giraffe')).map((h) => h.name)).toEqual(['changing.txt']);
    await server.app.contentTexts.removeBlob(blobId);
    expect(await contentHits(admin, 'giraffe')).toEqual([]);
  });
});
