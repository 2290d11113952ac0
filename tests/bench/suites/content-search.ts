/**
 * Search inside files: 100,000 extracted texts of generated Chinese and English prose (each blob with
 * one file, every file the searching user's), written straight into a real server's database (the
 * API would take an hour for 100k), then requested through the real route with `app.inject`, for
 * keywords of one, two and three or more characters, Chinese, English and mixed, frequent and rare:
 * the 内容 group's first page alone (a content cursor before every text) — `contentSearchP99Ms`, the
 * worst p99 over the keywords (issue 41: ≤ 100 ms on SQLite) — and the unified first page, names and
 * content together as the 统一搜索 page asks (`contentSearchUnifiedP99Ms`; its name half walks the
 * 100k names, the list suite's search figure). `contentSearchScanMs`: one rare short keyword by reading
 * every text, what trigrams alone would do for 1–2 characters. CONTENT_SEARCH_DOCS=n for a smaller run.
 *
 * Then the same texts on PostgreSQL (a throwaway cluster of Debian's binaries, as the server tests'
 * DRIVE_TEST_DB=pg): `contentSearchP99MsPg` and `contentSearchUnifiedP99MsPg`. Skipped where
 * PostgreSQL is not installed, or with CONTENT_SEARCH_PG=0 (CONTENT_SEARCH_SQLITE=0: PostgreSQL alone).
 * CONTENT_SEARCH_PG_DIR=dir keeps that cluster and its texts for the next run.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { API } from '../../../common/api/paths';
import type { FileEntry, SearchResponse } from '../../../common/api/types';
import { nameSortKey } from '../../../common/files/name-sort-key';
import { postgresBinDir, startPostgresCluster } from '../../../server/cluster/postgres-cluster';
import { charTokens } from '../../../server/db/dialect';
import { startServerAsAdmin, withDb, type Client, type TestServer } from '../../server/helpers';
import type { BenchModule, BenchRow } from '../lib/report';

const DOCS = Number(process.env.CONTENT_SEARCH_DOCS ?? 100_000);
// Common and rare, Chinese, English and mixed, 1 to 19 characters; 'quality data policy' is three common
// words that meet in a few dozen texts (the page walks the whole index to find them).
const KEYWORDS = ['图', '鑫', '合同', '违约', '编号', 'report', 'annual report', 'quality data policy', '年度报告', '鑫源项目', 'q3', 'Q3总结', 'budget预算', '4242', '没有这个词'];
/** Requests per keyword for the content page: 100, so that its p99 is not simply the slowest one. */
const ITERATIONS = 100;
const UNIFIED_ITERATIONS = 60;
/** PostgreSQL's pages cost up to seconds at 100k texts (docs/documents.md): fewer samples there (its p99 is the slowest). */
const PG_ITERATIONS = Number(process.env.CONTENT_SEARCH_PG_ITERATIONS ?? 20);
const PG_UNIFIED_ITERATIONS = 10;
const WARMUP = 10;

const ZH = '合同 报告 项目 年度 财务 预算 会议 纪要 设计 方案 采购 违约 条款 客户 销售 市场 管理 制度 流程 审批 人员 培训 计划 总结 质量 安全 生产 技术 研发 产品 服务 数据 系统 平台 运营 风险 控制 投资 收益 成本 图表 附件 说明 规范 标准 目标 考核 部门 公司 合作'.split(' ');
const EN = 'report contract annual budget meeting minutes design plan purchase clause customer sales market management policy process approval staff training summary quality safety production technology research product service data system platform operations risk control investment revenue cost chart appendix standard target review department company partner'.split(' ');

/** A small deterministic generator (the same texts every run). */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** About 400–900 characters: Chinese sentences (no spaces) and English ones, a rare word now and then. */
function generateText(i: number): { text: string; pageStarts: number[] } {
  const rnd = prng(i + 1);
  const parts: string[] = [];
  const pageStarts = [0];
  const sentences = 10 + Math.floor(rnd() * 14);
  let length = 0;
  for (let s = 0; s < sentences; s++) {
    let sentence: string;
    if (rnd() < 0.7) {
      const n = 4 + Math.floor(rnd() * 8);
      sentence = Array.from({ length: n }, () => ZH[Math.floor(rnd() * ZH.length)]).join('') + (rnd() < 0.5 ? '，' : '。');
    } else {
      const n = 5 + Math.floor(rnd() * 10);
      sentence = Array.from({ length: n }, () => EN[Math.floor(rnd() * EN.length)]).join(' ') + '. ';
    }
    if (i % 997 === 0 && s === 2) sentence += '鑫源项目编号4242。';
    if (s > 0 && s % 6 === 0) {
      sentence = `\f${sentence}`;
      pageStarts.push(length + 1);
    }
    parts.push(sentence);
    length += sentence.length;
  }
  const text = parts.join('');
  return { text, pageStarts };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

interface Generated {
  body: string;
  pageStarts: number[];
  blobId: string;
  fileId: string;
  name: string;
  at: number;
}

/** The texts in batches, each with its blob's and file's ids and the file's name (newest first by file). */
function* batches(size: number): Generator<Generated[]> {
  const now = Date.now();
  for (let from = 0; from < DOCS; from += size) {
    const batch: Generated[] = [];
    for (let i = from; i < Math.min(DOCS, from + size); i++) {
      const { text: body, pageStarts } = generateText(i);
      const name = `文档-${i}.${i % 3 === 0 ? 'pdf' : i % 3 === 1 ? 'docx' : 'txt'}`;
      batch.push({ body, pageStarts, blobId: randomBytes(16).toString('base64url'), fileId: randomBytes(16).toString('base64url'), name, at: now - i * 1000 });
    }
    yield batch;
  }
}

/** The folder the texts go in, and its tenant and owner (every file the searching admin's). */
interface Owner {
  tenantId: string;
  ownerId: string;
  folderId: string;
}

/** SQLite: straight into the server's file, the text index (triggers) and the single-character index. */
async function loadSqlite(server: TestServer, folderId: string): Promise<number> {
  let textChars = 0;
  await withDb(server, (db) => {
    const row = db.prepare('select tenant_id, owner_id from files where id = ?').get(folderId) as { tenant_id: string; owner_id: string };
    const owner: Owner = { tenantId: row.tenant_id, ownerId: row.owner_id, folderId };
    const blob = db.prepare('insert into blobs (id, tenant_id, fingerprint, size, storage_key, created_at, fingerprint_chunk_size) values (?, ?, ?, ?, ?, ?, ?)');
    const file = db.prepare(
      `insert into files (id, tenant_id, owner_id, parent_id, category, name, name_key, sort_key, is_dir, size, blob_id, created_at, updated_at)
       values (?, ?, ?, ?, 1, ?, ?, ?, 0, ?, ?, ?, ?)`,
    );
    const text = db.prepare('insert into blob_texts (blob_id, tenant_id, body, page_starts, chars, truncated, created_at, scanned_hash) values (?, ?, ?, ?, ?, 0, ?, null)');
    const chars = db.prepare('insert into blob_text_chars (rowid, body) values (?, ?)');
    db.transaction(() => {
      for (const batch of batches(1000)) {
        for (const g of batch) {
          textChars += g.body.length;
          blob.run(g.blobId, owner.tenantId, randomBytes(32).toString('hex'), g.body.length * 3, `bench/${g.blobId}`, g.at, 4194304);
          file.run(g.fileId, owner.tenantId, owner.ownerId, owner.folderId, g.name, g.name.toLowerCase(), nameSortKey(g.name), g.body.length * 3, g.blobId, g.at, g.at);
          const doc = text.run(g.blobId, owner.tenantId, g.body, JSON.stringify(g.pageStarts), g.body.length, g.at).lastInsertRowid;
          chars.run(doc, charTokens(g.body));
        }
      }
    })();
    db.exec('analyze');
  });
  return textChars;
}

/** PostgreSQL: the same rows, 1,000 per statement (unnest of arrays), the GIN indexes kept as they go. */
async function loadPostgres(dbUrl: string, folderId: string): Promise<number> {
  let textChars = 0;
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const row = (await client.query<{ tenant_id: string; owner_id: string }>('select tenant_id, owner_id from files where id = $1', [folderId])).rows[0]!;
    const owner: Owner = { tenantId: row.tenant_id, ownerId: row.owner_id, folderId };
    for (const batch of batches(1000)) {
      textChars += batch.reduce((n, g) => n + g.body.length, 0);
      await client.query('begin');
      await client.query(
        `insert into blobs (id, tenant_id, fingerprint, size, storage_key, created_at, fingerprint_chunk_size)
         select id, $2, fp, size, 'bench/' || id, at, 4194304 from unnest($1::text[], $3::text[], $4::bigint[], $5::bigint[]) as b(id, fp, size, at)`,
        [batch.map((g) => g.blobId), owner.tenantId, batch.map(() => randomBytes(32).toString('hex')), batch.map((g) => g.body.length * 3), batch.map((g) => g.at)],
      );
      await client.query(
        `insert into files (id, tenant_id, owner_id, parent_id, category, name, name_key, sort_key, is_dir, size, blob_id, created_at, updated_at)
         select id, $2, $3, $4, 1, name, name_key, sort_key, 0, size, blob_id, at, at
         from unnest($1::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[], $10::bigint[]) as f(id, name, name_key, sort_key, size, blob_id, at)`,
        [
          batch.map((g) => g.fileId),
          owner.tenantId,
          owner.ownerId,
          owner.folderId,
          batch.map((g) => g.name),
          batch.map((g) => g.name.toLowerCase()),
          batch.map((g) => nameSortKey(g.name)),
          batch.map((g) => g.body.length * 3),
          batch.map((g) => g.blobId),
          batch.map((g) => g.at),
        ],
      );
      await client.query(
        `insert into blob_texts (blob_id, tenant_id, body, page_starts, chars, truncated, created_at, scanned_hash)
         select blob_id, $2, body, pages, chars, 0, at, null from unnest($1::text[], $3::text[], $4::text[], $5::int[], $6::bigint[]) as t(blob_id, body, pages, chars, at)`,
        [batch.map((g) => g.blobId), owner.tenantId, batch.map((g) => g.body), batch.map((g) => JSON.stringify(g.pageStarts)), batch.map((g) => g.body.length), batch.map((g) => g.at)],
      );
      await client.query('commit');
    }
    // As autovacuum leaves a loaded table (visibility map set, the GIN indexes' pending lists merged), so
    // that it does not run in the middle of the timings.
    await client.query('vacuum (analyze)');
  } finally {
    await client.end();
  }
  return textChars;
}

interface EngineRun {
  rows: BenchRow[];
  p99: number;
  unifiedP99: number;
  generateMs: number;
  textChars: number;
}

/**
 * Loads the texts with `load` (null: they are there already, a kept cluster's), then times every keyword's
 * content page and unified page through the route.
 */
async function measure(
  server: TestServer,
  admin: Client,
  label: string,
  load: ((folderId: string) => Promise<number>) | null,
  iterations = { content: ITERATIONS, unified: UNIFIED_ITERATIONS },
): Promise<EngineRun> {
  const generated = performance.now();
  let textChars = 0;
  if (load) {
    const folder = (await admin.post<{ data: FileEntry }>(API.mkdir, { parentId: null, category: 1, name: 'texts' })).body.data;
    textChars = await load(folder.id);
  }
  const generateMs = performance.now() - generated;
  const cookie = admin.cookie;
  const rows: BenchRow[] = [];
  const contentP99s: number[] = [];
  const unifiedP99s: number[] = [];
  // The content hits' first page alone: a content cursor before every doc (what the 内容 group's
  // first page costs), and the unified first page (names and content, as the search page asks).
  const firstContentCursor = Buffer.from(`c${'9'.repeat(15)}`).toString('base64url');
  const time = async (url: string, iterations: number): Promise<{ sorted: number[]; hits: number }> => {
    const times: number[] = [];
    let hits = 0;
    for (let i = 0; i < WARMUP + iterations; i++) {
      const start = performance.now();
      const res = await server.app.inject({ method: 'GET', url, headers: { cookie } });
      const ms = performance.now() - start;
      if (res.statusCode !== 200) throw new Error(`search failed: ${res.body}`);
      if (i >= WARMUP) times.push(ms);
      hits = (res.json() as { data: SearchResponse }).data.content?.items.length ?? 0;
    }
    return { sorted: times.sort((a, b) => a - b), hits };
  };
  for (const keyword of KEYWORDS) {
    const q = `${API.unifiedSearch}?keyword=${encodeURIComponent(keyword)}`;
    const content = await time(`${q}&contentCursor=${firstContentCursor}`, iterations.content);
    const unified = await time(q, iterations.unified);
    contentP99s.push(percentile(content.sorted, 99));
    unifiedP99s.push(percentile(unified.sorted, 99));
    rows.push({
      label: `${label}${keyword}`,
      cells: {
        chars: String([...keyword].length),
        'content hits': String(content.hits),
        'p50 ms': percentile(content.sorted, 50).toFixed(2),
        'p99 ms': percentile(content.sorted, 99).toFixed(2),
        'max ms': content.sorted[content.sorted.length - 1]!.toFixed(2),
        'unified p99 ms': percentile(unified.sorted, 99).toFixed(2),
      },
    });
  }
  return { rows, p99: Math.max(...contentP99s), unifiedP99: Math.max(...unifiedP99s), generateMs, textChars };
}

export const contentSearchBenchmark: BenchModule = {
  name: 'content-search',
  columns: ['keyword', 'chars', 'content hits', 'p50 ms', 'p99 ms', 'max ms', 'unified p99 ms'],
  async run() {
    const metrics: Record<string, number | string> = { contentSearchDocs: DOCS };
    const rows: BenchRow[] = [];
    if (process.env.CONTENT_SEARCH_SQLITE !== '0') {
      const { server, admin } = await startServerAsAdmin({ logger: false });
      try {
        const run = await measure(server, admin, '', (folderId) => loadSqlite(server, folderId));
        rows.push(...run.rows);
        // What the index saves: a rare short keyword by reading every text (all a trigram index allows for
        // one or two characters), once.
        let scanMs = 0;
        await withDb(server, (db) => {
          const start = performance.now();
          db.prepare('select count(*) as n from blob_texts where instr(lower(body), ?) > 0').get('鑫');
          scanMs = performance.now() - start;
        });
        rows.push({ label: '鑫 by reading every text (no index)', cells: { chars: '1', 'p50 ms': scanMs.toFixed(2) } });
        const dbBytes = ['drive.sqlite', 'drive.sqlite-wal'].reduce((sum, f) => sum + (existsSync(path.join(server.dataDir, f)) ? statSync(path.join(server.dataDir, f)).size : 0), 0);
        Object.assign(metrics, {
          contentSearchTextMB: round2((run.textChars * 3) / 1e6),
          contentSearchP99Ms: round2(run.p99),
          contentSearchUnifiedP99Ms: round2(run.unifiedP99),
          contentSearchScanMs: round2(scanMs),
          contentSearchDbMB: round2(dbBytes / 1e6),
          contentSearchGenerateMs: Math.round(run.generateMs),
        });
      } finally {
        await server.close();
      }
    }
    if (process.env.CONTENT_SEARCH_PG !== '0' && postgresBinDir()) {
      // CONTENT_SEARCH_PG_DIR: a kept cluster there; the texts are loaded the first time only (a load of
      // 100k takes 7–20 minutes on the 2 cores), so later runs time the searches alone.
      const keptDir = process.env.CONTENT_SEARCH_PG_DIR;
      const cluster = await startPostgresCluster(keptDir ? { dir: keptDir } : {});
      try {
        const admin = new pg.Client({ connectionString: cluster.url('postgres') });
        await admin.connect();
        const loaded = await (async () => {
          if (!keptDir || (await admin.query("select 1 from pg_database where datname = 'drive'")).rowCount === 0) return false;
          const drive = new pg.Client({ connectionString: cluster.url('drive') });
          await drive.connect();
          const texts = await drive.query<{ n: string }>('select count(*) as n from blob_texts').finally(() => drive.end());
          if (Number(texts.rows[0]!.n) === DOCS) return true;
          await admin.query('drop database drive with (force)');
          return false;
        })();
        if (!loaded) await admin.query('create database drive');
        await admin.end();
        const dbUrl = cluster.url('drive');
        const { server, admin: client } = await startServerAsAdmin({ logger: false, dbUrl });
        try {
          const load = loaded ? null : (folderId: string) => loadPostgres(dbUrl, folderId);
          const run = await measure(server, client, 'pg: ', load, { content: PG_ITERATIONS, unified: PG_UNIFIED_ITERATIONS });
          rows.push(...run.rows);
          const size = new pg.Client({ connectionString: dbUrl });
          await size.connect();
          const bytes = Number((await size.query<{ n: string }>('select pg_database_size(current_database()) as n').finally(() => size.end())).rows[0]!.n);
          Object.assign(metrics, {
            contentSearchP99MsPg: round2(run.p99),
            contentSearchUnifiedP99MsPg: round2(run.unifiedP99),
            contentSearchDbMBPg: round2(bytes / 1e6),
            ...(load ? { contentSearchGenerateMsPg: Math.round(run.generateMs) } : { contentSearchPgKeptTexts: DOCS }),
          });
        } finally {
          await server.close();
        }
      } finally {
        await cluster.stop();
      }
    }
    return { rows, metrics };
  },
};
