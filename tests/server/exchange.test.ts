import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_NETWORK_ENV, HEADER_PLATFORM } from '../../common/api/client-env';
import { ERRORS } from '../../common/api/errors';
import { API, downloadUrl, zipDownloadUrl } from '../../common/api/paths';
import type { InterceptedFile, KeepOnDownloadResponse, ProcessedListResponse, SwapCheckResponse } from '../../common/api/sharing';
import type { FileEntry, FileListResponse } from '../../common/api/types';
import { expectError } from './file-kit';
import { ADMIN, Client, liftPasswordGate, loggedInClient, login, MEMBER, startServer, withDb, type TestServer } from './helpers';
import { rowsOf } from './action-log-kit';

/**
 * The exchange area (category 3) between the internal and the public network builds: a file put in
 * from one build is usable from the other only after checkSwap passes the tenant's rules; a file that
 * fails is intercepted with its reason, listed, dealt with, and downloaded on its own build only after
 * keepOnDownload; the switch holds at once.
 */
let server: TestServer;
let admin: Client;
let inner: Client; // the member through the internal build
let outer: Client; // the same member through the public build

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const platform = { [HEADER_PLATFORM]: 'web' };

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  await liftPasswordGate(server, MEMBER.username);
  await withDb(server, (db) => db.prepare("update users set outer_login = 1 where username = 'member'").run());
  inner = await loggedInClient(server, MEMBER);
  outer = new Client(server.baseUrl);
  expect((await login(server, outer, MEMBER, { [HEADER_NETWORK_ENV]: 'public' })).status).toBe(200);
});
afterAll(async () => {
  await server.close();
});

async function put(client: Client, name: string, content: string, parentId: string | null = null): Promise<FileEntry> {
  const res = await client.post<{ data: { status: string; file: FileEntry } }>(API.createTxt, { parentId, category: 3, name, content });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.file;
}

async function listed(client: Client): Promise<FileEntry[]> {
  const res = await client.post<{ data: FileListResponse }>(API.fileList, { parentId: null, category: 3, pageSize: 500 });
  return res.body.data.items;
}

describe('crossing', () => {
  it('a file put in from the internal build is usable there at once, from the public build only after checkSwap', async () => {
    const f = await put(inner, 'handover.txt', 'plain words');
    expect((await listed(inner)).find((e) => e.id === f.id)?.exchange).toMatchObject({ side: 'internal', state: 'pending' });
    expect((await inner.raw(downloadUrl(f.id))).status).toBe(200);
    expectError(await outer.get(downloadUrl(f.id)), ERRORS.EXCHANGE_NOT_PASSED.code);
    expectError(await outer.get(zipDownloadUrl([f.id])), ERRORS.EXCHANGE_NOT_PASSED.code);
    expectError(await outer.post(API.copy, { ids: [f.id], targetParentId: null, targetCategory: 1 }), ERRORS.EXCHANGE_NOT_PASSED.code);
    const rows = await rowsOf(server, async () => {
      const res = await inner.post<{ data: SwapCheckResponse }>(API.checkSwap, { ids: [f.id] });
      expect(res.body.data.results).toEqual([{ id: f.id, name: 'handover.txt', passed: true, reason: null }]);
    });
    expect(rows.map((r) => [r.action, r.outcome])).toEqual([['exchange.check', 'ok']]);
    expect((await listed(outer)).find((e) => e.id === f.id)?.exchange).toMatchObject({ side: 'internal', state: 'passed' });
    const got = await outer.raw(downloadUrl(f.id));
    expect(got.status).toBe(200);
    expect(await got.text()).toBe('plain words');
  });

  it('the rules: blocked and not allowed types, the size cap, keywords in the name and in text content', async () => {
    expect(
      (await admin.post(API.fileSecurityUpdate, { exchangeRules: { allowedExtensions: ['txt', 'md'], keywordCheck: true, maxFileSize: 64 } })).status,
    ).toBe(200);
    const ok = await put(inner, 'fine.md', 'nothing to see');
    const type = await put(inner, 'table.csv', 'a,b');
    const big = await put(inner, 'big.txt', 'x'.repeat(100));
    const name = await put(inner, '机密-计划.txt', 'x');
    const content = await put(inner, 'minutes.txt', '这是一份绝密会议纪要');
    const safe = await inner.post<{ data: SwapCheckResponse }>(API.fileSafeCheck, { ids: [ok.id, type.id, big.id, name.id, content.id] });
    expect(safe.body.data.results.map((r) => [r.name, r.passed, r.reason])).toEqual([
      ['fine.md', true, null],
      ['table.csv', false, '文件类型不在允许交换的类型中（.csv）'],
      ['big.txt', false, '文件超过交换大小上限（64 B）'],
      ['机密-计划.txt', false, '文件名含敏感词“机密”'],
      ['minutes.txt', false, '文件内容含敏感词“绝密”'],
    ]);
    // fileSafe/check changes nothing.
    expect((await listed(inner)).find((e) => e.id === content.id)?.exchange?.state).toBe('pending');
    await admin.post(API.fileSecurityUpdate, { exchangeRules: { allowedExtensions: [], keywordCheck: true, maxFileSize: 0 } });
  });

  it('an intercepted file is listed with its reason, downloaded on its own build only after keepOnDownload, and dealt with', async () => {
    const f = await put(inner, '秘密.txt', 'x');
    const checked = await inner.post<{ data: SwapCheckResponse }>(API.checkSwap, { ids: [f.id] });
    expect(checked.body.data.results[0]).toMatchObject({ passed: false, reason: '文件名含敏感词“秘密”' });
    const held = await inner.get<{ data: InterceptedFile[] }>(`${API.unProcessList}?scope=exchange`);
    expect(held.body.data.map((i) => [i.name, i.reason, i.side])).toEqual([['秘密.txt', '文件名含敏感词“秘密”', 'internal']]);
    expectError(await inner.get(downloadUrl(f.id)), ERRORS.DOWNLOAD_CONFIRM_REQUIRED.code);
    expectError(await outer.get(downloadUrl(f.id)), ERRORS.EXCHANGE_NOT_PASSED.code);
    expectError(await inner.get(`${API.keepOnDownload}?id=${f.id}`), ERRORS.PLATFORM_HEADER_REQUIRED.code);
    const confirm = await inner.request<{ data: KeepOnDownloadResponse }>('GET', `${API.keepOnDownload}?id=${f.id}`, undefined, platform);
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
    expect((await inner.raw(confirm.body.data.url)).status).toBe(200);
    // Another user cannot use the confirmation, nor can the public build.
    expect((await admin.get(confirm.body.data.url)).status).toBe(404);
    expectError(await outer.get(confirm.body.data.url), ERRORS.EXCHANGE_NOT_PASSED.code);
    const dealt = await inner.post<{ data: ProcessedListResponse }>(API.processedList, { ids: [f.id], decision: 'dismiss' });
    expect(dealt.body.data.items.map((i) => [i.name, i.processing])).toEqual([['秘密.txt', 'dismiss']]);
    expect((await inner.get<{ data: InterceptedFile[] }>(`${API.unProcessList}?scope=exchange`)).body.data).toEqual([]);
    // The held-uploads list is still the default of unProcess/list.
    expect((await inner.get(API.unProcessList)).status).toBe(200);
  });

  it('the exchange switch off: nothing crosses, at once; a new version is a new crossing', async () => {
    const f = await put(outer, 'from-outside.txt', 'hello inside');
    expect((await listed(inner)).find((e) => e.id === f.id)?.exchange?.side).toBe('public');
    expect((await outer.post(API.checkSwap, { ids: [f.id] })).status).toBe(200);
    expect((await inner.raw(downloadUrl(f.id))).status).toBe(200);
    expect((await admin.raw(API.switchExchange, { method: 'POST', headers: form, body: 'value=0' })).status).toBe(200);
    try {
      expectError(await inner.get(downloadUrl(f.id)), ERRORS.EXCHANGE_DISABLED.code);
      expectError(await outer.post(API.checkSwap, { ids: [f.id] }), ERRORS.EXCHANGE_DISABLED.code);
      expect((await outer.raw(downloadUrl(f.id))).status).toBe(200);
    } finally {
      await admin.raw(API.switchExchange, { method: 'POST', headers: form, body: 'value=1' });
    }
    const held = await outer.post<{ data: { status: string; holdId: string } }>(API.createTxt, { parentId: null, category: 3, name: 'from-outside.txt', content: 'changed' });
    expect((await outer.post(API.keepOnCreateTxt, { holdId: held.body.data.holdId, decision: 'newVersion' })).status).toBe(200);
    expectError(await inner.get(downloadUrl(f.id)), ERRORS.EXCHANGE_NOT_PASSED.code);
    // Only exchange-area entries are checked.
    const personal = await inner.post<{ data: { file: FileEntry } }>(API.createTxt, { parentId: null, category: 1, name: 'p.txt', content: 'p' });
    expectError(await inner.post(API.checkSwap, { ids: [personal.body.data.file.id] }), ERRORS.EXCHANGE_NOT_IN_AREA.code);
  });
});
