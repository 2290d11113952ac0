import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { SearchResponse } from '../../common/api/types';
import { PUBLIC_SPACE_ID } from '../../common/api/types';
import { nameSortKey } from '../../common/files/name-sort-key';
import { createGroup, mkdir, text } from './file-kit';
import { addTenantWithUser, type Client, liftPasswordGate, loggedInClient, MEMBER, startServerAsAdmin, type TestServer } from './helpers';

/**
 * Keyword search answers the same on both engines (this suite runs in the SQLite and the PostgreSQL
 * stage): for keywords of one, two and three or more characters — which PostgreSQL looks up in
 * different indexes (files_name_grams of migration 0089 by the keyword itself for one or two, by its
 * pairs of adjacent characters for longer ones with Chinese or without a run of three ASCII letters or
 * digits, the trigram index of 0086 for other ASCII ones, docs/postgresql.md) while SQLite walks
 * files_search — every page, in pages of two,
 * holds exactly the live entries of the caller's scope whose name contains the keyword (ASCII case
 * ignored, LIKE's % and _ literal), in name order. The expected answer is computed here from the
 * names, not read from either engine.
 */
let server: TestServer;
let admin: Client;
let member: Client;
let stranger: Client;

/** Names by who may find them: the scope's entries, as the oracle sees them. */
const adminPersonal: string[] = [];
const adminOtherCategory: string[] = [];
const memberPersonal: string[] = [];
const publicSpace: string[] = [];
const memberGroup: string[] = [];
const otherGroup: string[] = [];
const strangerNames = ['合同.docx', '报告.pdf', '图.png'];
let memberGroupId = '';
let otherGroupId = '';

async function put(client: Client, list: string[], name: string, parentId: string | null = null, extra: Record<string, unknown> = {}): Promise<string> {
  const entry = name.includes('.') ? await text(client, name, name, parentId, extra) : await mkdir(client, name, parentId, extra);
  list.push(name);
  return entry.id;
}

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
  await liftPasswordGate(server, MEMBER.username);
  member = await loggedInClient(server, MEMBER);
  await addTenantWithUser(server, 'stranger', 'Stranger@2024');
  stranger = await loggedInClient(server, { username: 'stranger', password: 'Stranger@2024' });

  // The admin's personal files (category 1), at several depths.
  await put(admin, adminPersonal, '合同.docx');
  const folder = await put(admin, adminPersonal, '项目资料');
  await put(admin, adminPersonal, '2024年度合同汇总.xlsx', folder);
  await put(admin, adminPersonal, '报告.pdf', folder);
  await put(admin, adminPersonal, '年度报告.docx', folder);
  const drawings = await put(admin, adminPersonal, '图纸', folder);
  await put(admin, adminPersonal, '流程图.vsd', drawings);
  await put(admin, adminPersonal, '地图.png', drawings);
  for (const name of ['Report-Q3.txt', 'q3总结.txt', '50%折扣.txt', 'a_b.txt', 'axb.txt', 'A%B.txt', '😀笑脸.txt', '会议纪要 合同.txt']) await put(admin, adminPersonal, name);
  // In the recycle bin: never found.
  const gone = await text(admin, '合同-旧.txt', 'old');
  expect((await admin.post(API.removeFiles, { ids: [gone.id] })).status).toBe(200);
  // Another category of the admin's: found by unified search only.
  await put(admin, adminOtherCategory, '图表合同.txt', null, { category: 3 });
  // Spaces: the public one, a group the member belongs to, one it does not.
  await put(admin, publicSpace, '公共报告.pdf', null, { spaceId: PUBLIC_SPACE_ID });
  const group = await createGroup(admin, '项目组');
  memberGroupId = group.id;
  expect((await admin.post(API.groupMemberAdd, { id: group.id, username: 'member' })).status).toBe(200);
  await put(admin, memberGroup, '项目合同.docx', null, { spaceId: group.id });
  const icons = await put(admin, memberGroup, '图库', null, { spaceId: group.id });
  await put(member, memberGroup, '图标.png', icons, { spaceId: group.id });
  otherGroupId = (await createGroup(admin, '机密组')).id;
  await put(admin, otherGroup, '机密合同.docx', null, { spaceId: otherGroupId });
  // The member's own files, and another tenant's with the same names.
  await put(member, memberPersonal, '成员合同.txt');
  await put(member, memberPersonal, 'Q3图.png');
  // Every pair of 同合同 but not the keyword; a pair repeated (哈哈); 6+ characters, mixed with ASCII.
  for (const name of ['同合 合同书.txt', '哈哈哈哈.txt', '2024年度合同汇总表 v2.xlsx', '审计报告(终稿)2023.pdf']) await put(member, memberPersonal, name);
  for (const name of strangerNames) await text(stranger, name, name);
});
afterAll(async () => {
  await server.close();
});

const KEYWORDS = ['合', '同', '图', '%', '_', '.', 'q', 'Q', '😀', '合同', '报告', 'q3', 'Q3', 'a_', 'A%', '%折', '😀笑', ' 合', '合同汇', '年度报告', '流程图', 'q3总', 'report', '会议纪要 合', '不存在', 'zz',
  // 3+ characters by their pairs on PostgreSQL: 3, 4, 6 and more characters, pairs without the keyword, repeated pairs, mixed, wildcards.
  '同合同', '同合', '哈哈哈', '哈哈哈哈哈', '年度合同汇总', '年度合同汇总表 V2', '报告(终稿)2023', '50%折扣', '😀笑脸', 'A%B', 'a_b', 'b.t', '3总结'];

/** What a search must answer: the names containing the keyword (trimmed; ASCII case ignored), in name order. */
function expected(names: readonly string[], keyword: string): string[] {
  const key = keyword.trim().toLowerCase();
  return names.filter((n) => n.toLowerCase().includes(key)).sort((a, b) => (nameSortKey(a) < nameSortKey(b) ? -1 : nameSortKey(a) > nameSortKey(b) ? 1 : 0));
}

/** Every page of a search, two entries a page, following the cursor. */
async function searchAll(client: Client, path: string, params: Record<string, string>): Promise<string[]> {
  const found: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const query: string = new URLSearchParams({ ...params, pageSize: '2', ...(cursor ? { cursor } : {}) }).toString();
    const res: { status: number; body: { data: SearchResponse } } = await client.get<{ data: SearchResponse }>(`${path}?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.items.length).toBeLessThanOrEqual(2);
    found.push(...res.body.data.items.map((i) => i.name));
    cursor = res.body.data.nextCursor;
    if (!cursor) return found;
  }
  throw new Error('more than 50 pages');
}

describe('keyword search of 1, 2 and 3+ characters', () => {
  it('in one category: the caller’s own live entries at any depth, page after page in name order', async () => {
    for (const keyword of KEYWORDS) {
      expect(await searchAll(admin, API.keywordList, { keyword, category: '1' }), keyword).toEqual(expected(adminPersonal, keyword));
    }
    // Checks on the oracle itself: the fixtures exercise what they claim to.
    expect(expected(adminPersonal, '合同')).toEqual(['2024年度合同汇总.xlsx', '合同.docx', '会议纪要 合同.txt']);
    expect(expected(adminPersonal, '%')).toEqual(['50%折扣.txt', 'A%B.txt']);
    expect(expected(adminPersonal, 'q3')).toEqual(['q3总结.txt', 'Report-Q3.txt']);
    expect(expected(adminPersonal, '年度合同汇总')).toEqual(['2024年度合同汇总.xlsx']);
    expect(expected([...memberPersonal, ...publicSpace, ...memberGroup], '同合同')).toEqual([]);
    expect(expected([...memberPersonal, ...publicSpace, ...memberGroup], '哈哈哈')).toEqual(['哈哈哈哈.txt']);
  });

  it('unified: own entries of every category, the public space and the caller’s groups only', async () => {
    const mine = [...memberPersonal, ...publicSpace, ...memberGroup];
    for (const keyword of KEYWORDS) {
      expect(await searchAll(member, API.unifiedSearch, { keyword }), keyword).toEqual(expected(mine, keyword));
    }
    const adminSees = [...adminPersonal, ...adminOtherCategory, ...publicSpace, ...memberGroup, ...otherGroup];
    for (const keyword of ['合', '图', '合同', '图表合']) {
      expect(await searchAll(admin, API.unifiedSearch, { keyword }), keyword).toEqual(expected(adminSees, keyword));
    }
  });

  it('in one space: its entries only (not its root); a group the caller is not in is unknown', async () => {
    for (const keyword of ['图', '合同', '图标', '项目合同', '项目']) {
      expect(await searchAll(member, API.keywordList, { keyword, spaceId: memberGroupId }), keyword).toEqual(expected(memberGroup, keyword));
    }
    const refused = await member.get(`${API.keywordList}?${new URLSearchParams({ keyword: '合同', spaceId: otherGroupId }).toString()}`);
    expect(refused.status).toBe(404);
  });

  it('another tenant’s entries with the same names are never found', async () => {
    for (const keyword of ['合', '图', '合同', '报告', '合同.d']) {
      expect(await searchAll(stranger, API.unifiedSearch, { keyword }), keyword).toEqual(expected(strangerNames, keyword));
    }
  });
});
