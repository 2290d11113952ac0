/**
 * Sharing at the scale, on what a newcomer runs (`npm start`: the production build and one
 * server process), over HTTP:
 *  - 共享文件 with 10,000 entries shared with one person: 100 colleagues each share 100 entries
 *    (5 % folders) with the person (60 %), their department (30 %) or the department above it
 *    (10 %); 500 of them are shared twice (person and department: shown once); 20,000 more shares go
 *    to other people and departments of the tenant. Timed per request: the first page of the root
 *    (with the count per sharer: `sharedListFirstPageP99Ms`), a page 50 pages deep by its cursor
 *    (`sharedListDeepPageP99Ms`), the first page of one sharer (`sharedListBySharerP99Ms`), and the
 *    whole inbox walked page by page (`sharedListFullWalkMs`, which also checks every entry comes
 *    once).
 *  - The link page a visitor opens (`/shareLink/<token>`, a folder of 1,000 entries, extraction
 *    code): in a fresh Chromium context each round (empty cache, no session, no service worker),
 *    from navigation to the code form (`linkPageCodeFormMs`, median) and from submitting the code
 *    to the opened folder's rows (`linkPageOpenedMs`, median), with the compressed JS the visitor loaded
 *    (`linkPageJsKB`) and, as a reference taken at the same moments, the login page to its form
 *    (`linkPageLoginFormMs`): on a shared machine the ratio says more than the milliseconds.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import { chromium } from 'playwright-core';
import { API } from '../../../common/api/paths';
import { shareLinkPath, type LinkInfo, type SharedListResponse } from '../../../common/api/sharing';
import { encryptPassword } from '../../../common/crypto/password-cipher';
import { CHROMIUM_ARGS, CHROMIUM_MISSING_MESSAGE, findChromium } from '../../support/chromium';
import { startNpmStart } from '../../support/npm-start';
import { liftPasswordGate, loggedInClient, withDb, type Client, type TestServer } from '../../server/helpers';
import { fillFolder } from '../lib/big-folder';
import type { BenchModule, BenchRow } from '../lib/report';

const SHARERS = 100;
const PER_SHARER = 100;
const SHARED = SHARERS * PER_SHARER;
const TWICE = 500;
const NOISE = 20_000;
const PAGE = 100;
const ITERATIONS = 100;
const WARMUP = 10;
const LINK_ENTRIES = 1000;
const LINK_ROUNDS = 10;
/** Rows per request of the link page (listLink in src/lib/data/sharing.ts). */
const LINK_PAGE = 200;
const PASSWORD = 'Bench@2024x';
const RECIPIENT = 'bench.recipient';
const CODE = 'k7m2';

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const id = () => randomBytes(16).toString('base64url');

async function data<T>(client: Client, url: string, body: unknown): Promise<T> {
  const res = await client.post<{ data: T }>(url, body);
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

interface Org {
  tenantId: string;
  recipientId: string;
  team: string;
  division: string;
  elsewhere: string;
}

/** Colleagues, their entries and the shares, in one transaction; answers one sharer's id and how many distinct entries reach the recipient. */
function seedShares(db: SqliteDatabase, org: Org): { sharerId: string; distinct: number } {
  const { password_hash: hash } = db.prepare("select password_hash from users where username = 'admin'").get() as { password_hash: string };
  const now = Date.now();
  const insertUser = db.prepare(
    `insert into users (id, tenant_id, username, username_key, nick_name, phone, avatar, role, password_hash, must_change_password,
       password_changed_at, quota, used_size, created_at, locked, outer_login, department_id) values (?, ?, ?, ?, ?, '', '', 'member', ?, 0, ?, ?, 0, ?, 0, 0, ?)`,
  );
  const insertFile = db.prepare(
    `insert into files (id, tenant_id, owner_id, parent_id, category, name, name_key, is_dir, size, blob_id, created_at, updated_at)
     values (?, ?, ?, null, 1, ?, ?, ?, ?, null, ?, ?)`,
  );
  const insertShare = db.prepare(
    `insert into shares (id, tenant_id, file_id, owner_id, recipient_type, recipient_id, permission, expires_at, created_at, updated_at, revoked_at, application_id)
     values (?, ?, ?, ?, ?, ?, ?, null, ?, ?, null, null)`,
  );
  const permissions = ['preview', 'download', 'edit'] as const;
  const others: string[] = [];
  let sharerId = '';
  db.transaction(() => {
    for (let s = 0; s < SHARERS; s++) {
      const userId = id();
      if (s === 0) sharerId = userId;
      others.push(userId);
      insertUser.run(userId, org.tenantId, `colleague${s}`, `colleague${s}`, `同事${s}`, hash, now, 10 * 1024 ** 3, now, org.elsewhere);
      for (let f = 0; f < PER_SHARER; f++) {
        const i = s * PER_SHARER + f;
        const fileId = id();
        const isDir = i % 20 === 0 ? 1 : 0;
        const name = isDir ? `资料夹-${i}` : `报告-${i}.docx`;
        const at = now - i * 37_000;
        insertFile.run(fileId, org.tenantId, userId, name, name.toLowerCase(), isDir, isDir ? 0 : (i * 2654435761) % 50_000_000, at, at);
        const to = i % 10 < 6 ? ['user', org.recipientId] : i % 10 < 9 ? ['dept', org.team] : ['dept', org.division];
        insertShare.run(id(), org.tenantId, fileId, userId, to[0], to[1], permissions[i % 3], at, at);
        // Shared a second way as well (the department too): listed once, at its newest share.
        if (i % (SHARED / TWICE) === 1 && to[0] === 'user') insertShare.run(id(), org.tenantId, fileId, userId, 'dept', org.team, 'download', at + 1000, at + 1000);
      }
    }
    // Shares reaching someone else: each entry once more to the next colleague, and a second time
    // to another department or the colleague after that (one share per entry and recipient).
    const files = db.prepare('select id, owner_id from files where tenant_id = ? and owner_id != ?').all(org.tenantId, org.recipientId) as Array<{ id: string; owner_id: string }>;
    const indexOf = new Map(others.map((u, i) => [u, i]));
    for (let n = 0; n < NOISE; n++) {
      const file = files[n % files.length]!;
      const owner = indexOf.get(file.owner_id);
      if (owner === undefined) continue;
      const second = Math.floor(n / files.length) % 2 === 1;
      const recipient = !second ? ['user', others[(owner + 1) % SHARERS]!] : n % 3 === 0 ? ['dept', org.elsewhere] : ['user', others[(owner + 2) % SHARERS]!];
      const at = now - n * 11_000;
      insertShare.run(id(), org.tenantId, file.id, file.owner_id, recipient[0], recipient[1], 'download', at, at);
    }
  })();
  db.exec('analyze');
  return { sharerId, distinct: SHARED };
}

export const sharingBenchmark: BenchModule = {
  name: 'sharing',
  columns: ['measure', 'p50 ms', 'p99 ms', 'max ms', 'entries'],
  async run() {
    const chromePath = findChromium();
    if (!chromePath) throw new Error(CHROMIUM_MISSING_MESSAGE);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'drive-bench-sharing-'));
    const dataDir = path.join(dir, 'data');
    const app = await startNpmStart({ DATA_DIR: dataDir, STATIC_DIR: path.join(dir, 'dist'), DRIVE_TEST_HOOKS: '1', LOG_REQUESTS: '0' }, path.join(dir, 'npm-start.log'));
    const server = { baseUrl: app.baseUrl, dataDir } as TestServer;
    const browser = await chromium.launch({ executablePath: chromePath, args: CHROMIUM_ARGS });
    try {
      const admin = await loggedInClient(server);
      const division = (await data<{ id: string }>(admin, API.departmentCreate, { parentId: null, name: '研发中心' })).id;
      const team = (await data<{ id: string }>(admin, API.departmentCreate, { parentId: division, name: '平台组' })).id;
      const elsewhere = (await data<{ id: string }>(admin, API.departmentCreate, { parentId: null, name: '市场部' })).id;
      const recipientId = (
        await data<{ id: string }>(admin, API.userAdd, {
          website: RECIPIENT,
          nickName: '接收人',
          phone: '',
          departmentId: team,
          role: 'member',
          quota: 10 * 1024 ** 3,
          outerLogin: false,
          password: encryptPassword(PASSWORD),
        })
      ).id;
      await liftPasswordGate(server, RECIPIENT);
      const tenantId = await withDb(server, (db) => (db.prepare('select tenant_id from users where id = ?').get(recipientId) as { tenant_id: string }).tenant_id);
      const seeded = await withDb(server, (db) => seedShares(db, { tenantId, recipientId, team, division, elsewhere }));
      const recipient = await loggedInClient(server, { username: RECIPIENT, password: PASSWORD });

      const rows: BenchRow[] = [];
      const list = (body: Record<string, unknown>) => data<SharedListResponse>(recipient, API.shareFileList, { parentId: null, pageSize: PAGE, ...body });
      const time = async (label: string, body: Record<string, unknown>): Promise<number> => {
        const times: number[] = [];
        let n = 0;
        for (let i = 0; i < WARMUP + ITERATIONS; i++) {
          const start = performance.now();
          const page = await list(body);
          const ms = performance.now() - start;
          if (i >= WARMUP) times.push(ms);
          n = page.items.length;
        }
        if (n !== PAGE) throw new Error(`${label}: ${n} entries on the page`);
        times.sort((a, b) => a - b);
        rows.push({ label, cells: { 'p50 ms': percentile(times, 50).toFixed(2), 'p99 ms': percentile(times, 99).toFixed(2), 'max ms': times[times.length - 1]!.toFixed(2), entries: String(n) } });
        return percentile(times, 99);
      };

      // The whole inbox page by page: every entry once, the counts per sharer add up.
      const walkStart = performance.now();
      const seen = new Set<string>();
      let cursor: string | null = null;
      let deepCursor: string | null = null;
      let pages = 0;
      let sharerTotal = 0;
      do {
        const page: SharedListResponse = await list({ cursor });
        if (pages === 0) sharerTotal = (page.sharers ?? []).reduce((sum, s) => sum + s.count, 0);
        for (const item of page.items) {
          if (seen.has(item.id)) throw new Error(`entry ${item.id} listed twice`);
          seen.add(item.id);
        }
        cursor = page.nextCursor;
        pages++;
        if (pages === 50) deepCursor = cursor;
      } while (cursor);
      const fullWalkMs = performance.now() - walkStart;
      if (seen.size !== seeded.distinct) throw new Error(`the walk found ${seen.size} entries, not ${seeded.distinct}`);
      if (sharerTotal !== seeded.distinct) throw new Error(`the sharers add up to ${sharerTotal}, not ${seeded.distinct}`);
      rows.push({ label: `whole inbox walked (${pages} pages of ${PAGE})`, cells: { 'p50 ms': '', 'p99 ms': '', 'max ms': fullWalkMs.toFixed(0), entries: String(seen.size) } });

      const firstPage = await time('共享文件 first page (with the count per sharer)', {});
      const deepPage = await time('共享文件 page 51 (by its cursor)', { cursor: deepCursor });
      const bySharer = await time('共享文件 first page of one sharer', { sharerId: seeded.sharerId });

      // The link page: a folder of 1,000 entries with an extraction code, opened by visitors.
      const folder = await data<{ id: string }>(admin, API.mkdir, { parentId: null, category: 1, name: '对外资料' });
      const adminId = await withDb(server, (db) => (db.prepare("select id from users where username = 'admin'").get() as { id: string }).id);
      await withDb(server, (db) => fillFolder(db, { id: folder.id, tenantId, ownerId: adminId, category: 1 }, LINK_ENTRIES));
      const link = await data<LinkInfo>(admin, API.linkCreate, { fileId: folder.id, code: CODE, validityDays: 0, downloadLimit: null, previewOnly: false });
      const loginForm: number[] = [];
      const codeForm: number[] = [];
      let linkJsKB = 0;
      const opened: number[] = [];
      for (let round = 0; round < LINK_ROUNDS + 1; round++) {
        // Reference on the same machine at the same moment: the login page to its form, fresh too.
        const reference = await browser.newContext({ serviceWorkers: 'block' });
        const loginPage = await reference.newPage();
        const loginStart = performance.now();
        await loginPage.goto(app.baseUrl + '/login');
        await loginPage.getByTestId('login-submit').waitFor();
        if (round > 0) loginForm.push(performance.now() - loginStart);
        await reference.close();

        const context = await browser.newContext({ serviceWorkers: 'block' });
        const page = await context.newPage();
        let scriptBytes = 0;
        page.on('requestfinished', (request) => {
          if (request.resourceType() !== 'script') return;
          void request.sizes().then(
            (sizes) => (scriptBytes += sizes.responseBodySize),
            () => undefined,
          );
        });
        const start = performance.now();
        const res = await page.goto(app.baseUrl + shareLinkPath(link.token));
        if (res?.headers()['referrer-policy'] !== 'no-referrer') throw new Error('the link page has no Referrer-Policy: no-referrer');
        await page.getByTestId('link-code-entry').waitFor();
        const formMs = performance.now() - start;
        await page.getByTestId('link-code-entry').fill(CODE);
        const submitted = performance.now();
        await page.getByTestId('link-code-submit').click();
        await page.getByTestId('link-row').first().waitFor();
        const openedMs = performance.now() - submitted;
        await page.waitForLoadState('networkidle');
        linkJsKB = Math.round(scriptBytes / 1000);
        if (round === 0) {
          // The folder comes a page at a time: 加载更多 brings the next one.
          const shown = await page.getByTestId('link-row').count();
          if (shown !== LINK_PAGE) throw new Error(`the link page shows ${shown} rows`);
          await page.getByTestId('link-more').click();
          await page.getByTestId('link-row').nth(2 * LINK_PAGE - 1).waitFor();
        }
        // The first round warms the server (its first SQL statements, the static files read once).
        if (round > 0) {
          codeForm.push(formMs);
          opened.push(openedMs);
        }
        await context.close();
      }
      loginForm.sort((a, b) => a - b);
      codeForm.sort((a, b) => a - b);
      opened.sort((a, b) => a - b);
      const row = (label: string, times: number[], entries: string) =>
        rows.push({ label, cells: { 'p50 ms': percentile(times, 50).toFixed(0), 'p99 ms': '', 'max ms': times[times.length - 1]!.toFixed(0), entries } });
      row(`link page, navigation to the code form (fresh browser, ${LINK_ROUNDS} rounds; ${linkJsKB} kB of JS)`, codeForm, '');
      row('reference: /login, navigation to the form (fresh browser)', loginForm, '');
      row('link page, code submitted to the folder shown', opened, String(LINK_ENTRIES));

      return {
        rows,
        metrics: {
          sharedListFirstPageP99Ms: Math.round(firstPage * 100) / 100,
          sharedListDeepPageP99Ms: Math.round(deepPage * 100) / 100,
          sharedListBySharerP99Ms: Math.round(bySharer * 100) / 100,
          sharedListFullWalkMs: Math.round(fullWalkMs),
          linkPageCodeFormMs: Math.round(percentile(codeForm, 50)),
          linkPageOpenedMs: Math.round(percentile(opened, 50)),
          linkPageLoginFormMs: Math.round(percentile(loginForm, 50)),
          linkPageJsKB: linkJsKB,
        },
      };
    } finally {
      await browser.close();
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
