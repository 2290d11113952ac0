import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { ApprovalCheckResponse, FileSecuritySettings } from '../../common/api/sharing';
import type { FileEntry } from '../../common/api/types';
import type { Database } from '../../server/db/schema';
import { ContentScanRepository } from '../../server/repositories/content-scan-repository';
import { ContentTextRepository } from '../../server/repositories/content-text-repository';
import { ContentScanJobs } from '../../server/services/content/content-scan-jobs';
import { keywordsHash } from '../../server/services/content/text-scan';
import { openTestKysely } from '../support/test-database';
import { entries, mkdir, text } from './file-kit';
import { type Client, startServerAsAdmin, type TestServer, withDb } from './helpers';
import { setPolicy } from './sharing-kit';

/**
 * Sensitive words in content: the tenant's keywords (文件安全) match the text extracted from files as
 * it arrives, mark the file 敏感 (with the keyword and page), count for the link policy's 含敏感词
 * check; a keyword change re-scans every text in the background with progress the admin sees, in a
 * job that resumes where it stopped and that one process works at a time.
 */
let server: TestServer;
let admin: Client;
let db: Kysely<Database>;

const blobOf = async (fileId: string): Promise<string> =>
  withDb(server, (d) => (d.prepare('select blob_id from files where id = ?').get(fileId) as { blob_id: string }).blob_id);

async function setKeywords(words: string[]): Promise<FileSecuritySettings> {
  const res = await admin.post<{ data: FileSecuritySettings }>(API.fileSecurityUpdate, { sensitiveKeywords: words });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function settings(): Promise<FileSecuritySettings> {
  return (await admin.get<{ data: FileSecuritySettings }>(API.fileSecurityGet)).body.data;
}

async function entryOf(name: string, parentId: string | null = null): Promise<FileEntry> {
  return (await entries(admin, parentId)).find((e) => e.name === name)!;
}

async function untilScanned(): Promise<FileSecuritySettings> {
  for (let i = 0; i < 200; i++) {
    const s = await settings();
    if (s.contentScan?.state === 'done') return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('re-scan did not finish');
}

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
  db = await openTestKysely<Database>(server.dataDir);
});
afterAll(async () => {
  await db?.destroy();
  await server?.close();
});

describe('sensitive words in content', () => {
  it('a text arriving with a keyword marks its file 敏感, with the keyword and the page', async () => {
    await setKeywords(['机密']);
    const file = await text(admin, 'quarterly.txt', 'plain bytes');
    expect((await entryOf('quarterly.txt')).sensitive).toBe(false);
    const put = await server.app.contentTexts.putText(await blobOf(file.id), { text: '第一页内容\f第二页：本文件为机密资料', pageStarts: [0, 6] });
    expect(put.sensitiveKeywords).toEqual(['机密']);
    expect(await entryOf('quarterly.txt')).toMatchObject({ sensitive: true, sensitiveContent: { keyword: '机密', page: 2 } });
  });

  it('counts for the link policy: a file, or a folder holding one, needs approval', async () => {
    await setPolicy(admin, { link: { always: false, sensitive: true } });
    try {
      const folder = await mkdir(admin, '资料夹');
      const inner = await text(admin, 'inner.txt', 'inner bytes', folder.id);
      const check = async (id: string) => (await admin.post<{ data: ApprovalCheckResponse }>(API.shareCheck, { kind: 'link', fileIds: [id] })).body.data.reasons;
      expect(await check(folder.id)).toEqual([]);
      await server.app.contentTexts.putText(await blobOf(inner.id), { text: '这份是机密' });
      expect(await check(inner.id)).toEqual(['分享的文件含有敏感词']);
      expect(await check(folder.id)).toEqual(['分享的文件含有敏感词']);
    } finally {
      await setPolicy(admin, { link: { sensitive: false } });
    }
  });

  it('a keyword change re-scans the stored texts in the background, with progress', async () => {
    const file = await text(admin, 'memo.txt', 'memo bytes');
    await server.app.contentTexts.putText(await blobOf(file.id), { text: 'this memo is TOP SECRET' });
    expect((await entryOf('memo.txt')).sensitive).toBe(false);
    const saved = await setKeywords(['top secret']);
    // The answer does not wait for the texts: the job has started.
    expect(saved.contentScan).toMatchObject({ finishedAt: null, done: 0 });
    const done = await untilScanned();
    expect(done.contentScan).toMatchObject({ state: 'done', hits: 1 });
    expect(done.contentScan!.done).toBe(done.contentScan!.total);
    expect(await entryOf('memo.txt')).toMatchObject({ sensitive: true, sensitiveContent: { keyword: 'top secret', page: null } });
    // The keyword dropped: its hits no longer count, at once.
    expect((await entryOf('quarterly.txt')).sensitive).toBe(false);
    await setKeywords(['机密']);
    await untilScanned();
    expect((await entryOf('quarterly.txt')).sensitive).toBe(true);
    expect((await entryOf('memo.txt')).sensitive).toBe(false);
  });

  it('the job resumes after the batch it stopped at, and two workers never work it together', async () => {
    const tenantId = (await db.selectFrom('users').select('tenant_id').where('username', '=', 'admin').executeTakeFirstOrThrow()).tenant_id;
    const blobs: string[] = [];
    for (let i = 0; i < 5; i++) {
      const f = await text(admin, `batch-${i}.txt`, `batch bytes ${i}`);
      blobs.push(await blobOf(f.id));
      await server.app.contentTexts.putText(blobs[i]!, { text: `batch text ${i} 机密` });
    }
    // As if checked against an older list: the walk must find them again.
    await db.deleteFrom('blob_text_hits').where('blob_id', 'in', blobs).execute();
    await db.updateTable('blob_texts').set({ scanned_hash: null }).where('blob_id', 'in', blobs).execute();
    // The workers' clock runs ahead: the server's own worker (on the real clock) never sees their leases run out.
    let now = Date.now() + 10_000_000;
    const worker = () =>
      new ContentScanJobs({ jobs: new ContentScanRepository(db), texts: new ContentTextRepository(db), keywordsOf: async () => ['机密'], batch: 2, leaseMs: 1000, now: () => now });
    const a = worker();
    const b = worker();
    // The row a keyword change writes, held (on the real clock) by a process that stopped.
    await new ContentScanRepository(db).start(tenantId, keywordsHash(['机密']), 99, now);
    await db.updateTable('content_scan_jobs').set({ lease_owner: 'a stopped process', lease_until: Date.now() + 600_000 }).where('tenant_id', '=', tenantId).execute();
    expect(await a.workOnce()).toBe(true);
    const afterOne = (await db.selectFrom('content_scan_jobs').selectAll().where('tenant_id', '=', tenantId).executeTakeFirstOrThrow());
    expect(afterOne).toMatchObject({ done: 2 });
    // a holds the lease: b finds nothing to do until it runs out.
    expect(await b.workOnce()).toBe(false);
    now += 2000;
    expect(await b.workOnce()).toBe(true);
    const afterTwo = await db.selectFrom('content_scan_jobs').selectAll().where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    expect(afterTwo.done).toBe(4);
    expect(Number(afterTwo.after_doc)).toBeGreaterThan(Number(afterOne.after_doc));
    // a lost the lease: it cannot write progress any more, b goes on to the end.
    expect(await a.workOnce()).toBe(false);
    while (await b.workOnce()) {
      /* batches */
    }
    const end = await db.selectFrom('content_scan_jobs').selectAll().where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    expect(end.finished_at).not.toBeNull();
    const texts = await db.selectFrom('blob_texts').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    expect(Number(end.done)).toBe(Number(texts.n));
    const hits = await db.selectFrom('blob_text_hits').select('blob_id').where('blob_id', 'in', blobs).where('keyword', '=', '机密').execute();
    expect(hits).toHaveLength(5);
  });
});
