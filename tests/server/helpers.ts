import { parseS3Location } from '../../server/storage/s3/s3-location';
import { testStoreEnv } from '../support/test-store';
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { API } from '../../common/api/paths';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import type { CaptchaImage, FileEntry, LoginResult } from '../../common/api/types';
import { encryptPassword } from '../../common/crypto/password-cipher';
import { type ChunkExistResponse, chunkCount } from '../../common/transfer/protocol';
import { buildApp, captchaOutboxFile, smsOutboxFile } from '../../server/app';
import { DEFAULTS, type ServerConfig } from '../../server/config';
import { sessionCookieAfter } from '../replay/node-runtime';
import { chunkDigestHex, fingerprintHex } from '../support/chunk-digest';
import { PsqlSyncDb } from '../support/psql-sync';
import { dropTestDatabase, onPostgres, testDbUrl } from '../support/test-database';

export const ADMIN = { username: 'admin', password: 'Admin@2024' };
export const MEMBER = { username: 'member', password: 'Member@2024' };
/**
 * Test servers announce 4 MiB chunks, not the product's 16 MiB: test files of a few MiB then span
 * several chunks, and fault-injection runs hit several chunk requests.
 */
export const TEST_CHUNK_SIZE = 4 * 1024 * 1024;

export interface TestServer {
  app: FastifyInstance;
  baseUrl: string;
  dataDir: string;
  close(): Promise<void>;
}

/** With DRIVE_TEST_STORE=s3, the data directory's bucket on the run's radosgw (support/test-store.ts); else the disk. */
async function testBlobStore(dataDir: string): Promise<Pick<ServerConfig, 'blobStore'>> {
  const env = await testStoreEnv(dataDir);
  return env.BLOB_STORE ? { blobStore: parseS3Location(env.BLOB_STORE) } : {};
}

/**
 * Builds the real server on 127.0.0.1:0 with a temp DATA_DIR (or `overrides.dataDir`, to start again
 * on the data of a server closed with `app.close()`) and the captcha test hook on. With
 * DRIVE_TEST_DB=pg its database is the data directory's PostgreSQL database (support/test-database.ts).
 */
export async function startServer(
  overrides: Partial<ServerConfig> = {},
  beforeListen?: (app: FastifyInstance) => void,
): Promise<TestServer> {
  const dataDir = overrides.dataDir ?? (await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-server-test-')));
  const config: ServerConfig = {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    ...(await testBlobStore(dataDir)),
    staticDir: path.join(dataDir, 'no-dist'),
    dbUrl: await testDbUrl(dataDir),
    publicBaseUrl: '',
    chunkSize: TEST_CHUNK_SIZE,
    maxFileSize: 1024 * 1024 * 1024,
    defaultQuota: DEFAULTS.defaultQuota,
    sessionTtlMs: DEFAULTS.sessionTtlMs,
    captchaTtlMs: DEFAULTS.captchaTtlMs,
    uploadExpiryMs: 24 * 3600 * 1000,
    sweepIntervalMs: 0,
    recycleRetentionDays: DEFAULTS.recycleRetentionDays,
    testHooks: true,
    logger: false,
    logRequests: false,
    trustProxy: [],
    // No document conversions unless a test asks (tests/server/documents.test.ts): LibreOffice in the
    // background of every suite that stores a .docx would cost CPU the suites share.
    documents: { workers: 0 },
    ...overrides,
  };
  const app = await buildApp(config);
  beforeListen?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    app,
    baseUrl: `http://127.0.0.1:${address.port}`,
    dataDir,
    async close() {
      await app.close();
      await fsp.rm(dataDir, { recursive: true, force: true });
      await dropTestDatabase(dataDir);
    },
  };
}

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** A tiny fetch client that keeps the `sid` cookie like a browser would. */
export class Client {
  cookie = '';

  constructor(readonly baseUrl: string) {}

  async raw(pathname: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set('cookie', this.cookie);
    const res = await fetch(this.baseUrl + pathname, { ...init, headers });
    this.cookie = sessionCookieAfter(this.cookie, res.headers.getSetCookie());
    return res;
  }

  async request<T = unknown>(method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await this.raw(pathname, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  get<T = unknown>(pathname: string): Promise<Answer<T>> {
    return this.request<T>('GET', pathname);
  }

  post<T = unknown>(pathname: string, body: unknown = {}): Promise<Answer<T>> {
    return this.request<T>('POST', pathname, body);
  }
}

/** Issues a captcha and reads its answer from the test outbox. */
export async function solveCaptcha(server: TestServer, client: Client): Promise<{ captchaId: string; answer: string }> {
  const res = await client.get<{ data: CaptchaImage }>(API.captcha);
  const captchaId = res.body.data.captchaId;
  const lines = (await fsp.readFile(captchaOutboxFile(server.dataDir), 'utf8')).trim().split('\n');
  for (const line of lines.reverse()) {
    const entry = JSON.parse(line) as { captchaId: string; answer: string };
    if (entry.captchaId === captchaId) return entry;
  }
  throw new Error(`captcha ${captchaId} not in the outbox`);
}

export async function postLoginForm(
  client: Client,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Answer<{ data: LoginResult }>> {
  const res = await client.raw(API.login, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { data: LoginResult } };
}

/** Logs in with a freshly solved captcha; returns the answer. */
export async function login(
  server: TestServer,
  client: Client,
  account: { username: string; password: string },
  headers: Record<string, string> = {},
): Promise<Answer<{ data: LoginResult }>> {
  const { captchaId, answer } = await solveCaptcha(server, client);
  return postLoginForm(
    client,
    { username: account.username, password: encryptPassword(account.password), captchaId, captchaCode: answer },
    headers,
  );
}

export async function loggedInClient(server: TestServer, account = ADMIN): Promise<Client> {
  const client = new Client(server.baseUrl);
  const res = await login(server, client, account);
  if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  return client;
}

/** Starts a server (see startServer) and logs its admin in. */
export async function startServerAsAdmin(overrides: Partial<ServerConfig> = {}): Promise<{ server: TestServer; admin: Client }> {
  const server = await startServer(overrides);
  return { server, admin: await loggedInClient(server, ADMIN) };
}

/** Starts a server and logs in its admin and its member (whose initial-password gate is lifted first). */
export async function startServerWithMember(): Promise<{ server: TestServer; admin: Client; member: Client }> {
  const { server, admin } = await startServerAsAdmin();
  await liftPasswordGate(server, MEMBER.username);
  return { server, admin, member: await loggedInClient(server, MEMBER) };
}

export const sha256Hex = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** Per-chunk digests and the fingerprint of a file, as a client computes them. */
export function describeFile(content: Buffer, chunkSize = TEST_CHUNK_SIZE): { chunkDigests: string[]; fingerprint: string } {
  const count = chunkCount(content.length, chunkSize);
  const chunkDigests: string[] = [];
  for (let i = 0; i < count; i++) chunkDigests.push(chunkDigestHex(content.subarray(i * chunkSize, (i + 1) * chunkSize)));
  return { chunkDigests, fingerprint: fingerprintHex(chunkDigests) };
}

/** Posts chunk/exist for `content` (opens or resumes its upload); returns the answer as it came. */
export function postChunkExist(
  client: Client,
  content: Buffer,
  name: string,
  opts: { parentId?: string | null; chunkSize?: number } = {},
): Promise<Answer<{ data: ChunkExistResponse }>> {
  const chunkSize = opts.chunkSize ?? TEST_CHUNK_SIZE;
  const { chunkDigests, fingerprint } = describeFile(content, chunkSize);
  return client.post<{ data: ChunkExistResponse }>(API.chunkExist, {
    fingerprint,
    size: content.length,
    chunkSize,
    chunkDigests,
    name,
    parentId: opts.parentId ?? null,
    category: 1,
  });
}

export const randomContent = (size: number): Buffer => randomBytes(size);

export async function putChunk(
  client: Client,
  uploadId: string,
  index: number,
  bytes: Uint8Array,
  digest = chunkDigestHex(bytes),
  /** Appended to the query, e.g. '&purpose=clientInstaller'. */
  extraQuery = '',
): Promise<Answer> {
  const res = await client.raw(`${API.chunkUpload}?uploadId=${encodeURIComponent(uploadId)}&index=${index}${extraQuery}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', 'x-chunk-sha256': digest },
    body: new Uint8Array(bytes), // a copy typed for fetch (Buffer views may be SharedArrayBuffer-backed)
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/**
 * Test setup only: lifts the initial-password gate of an account directly in the database (faster
 * than the info/modify flow, which password-change.test.ts covers), so a member can use the file APIs.
 */
export async function liftPasswordGate(server: TestServer, username: string): Promise<void> {
  await withDb(server, (db) => db.prepare('update users set must_change_password = 0 where username = ?').run(username));
}

/**
 * Test-only direct access to the server's database (inspection and setup the API cannot do yet):
 * the SQLite file, or with DRIVE_TEST_DB=pg the same calls on its PostgreSQL database (support/psql-sync.ts).
 */
export async function withDb<T>(server: { dataDir: string }, fn: (db: SqliteDatabase) => T): Promise<T> {
  if (onPostgres()) {
    const url = await testDbUrl(server.dataDir);
    return fn(new PsqlSyncDb(url!) as unknown as SqliteDatabase);
  }
  const { default: SQLite } = await import('better-sqlite3');
  const db = new SQLite(path.join(server.dataDir, 'drive.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    return fn(db);
  } finally {
    db.close();
  }
}

/** Adds a tenant with one member account (password gate lifted) straight into the database. */
export async function addTenantWithUser(server: TestServer, username: string, password: string, quota = 10 * 1024 ** 3): Promise<void> {
  const tenantId = randomBytes(16).toString('base64url');
  await withDb(server, (db) => {
    db.prepare('insert into tenants (id, name, brand_name, logo_key, created_at) values (?, ?, ?, null, ?)').run(tenantId, 'Other', 'Other', Date.now());
  });
  await addUser(server, tenantId, username, password, quota);
}

/**
 * Adds a member account (password gate lifted) to a tenant straight into the database (faster than
 * /api/v2/user/add, and for tenants made by addTenantWithUser); it has no department until the
 * server's first organisation read puts it into 未分配. Returns its id.
 */
export async function addUser(server: TestServer, tenantId: string, username: string, password: string, quota = 10 * 1024 ** 3): Promise<string> {
  const { hashPassword } = await import('../../server/services/password-hash');
  const hash = await hashPassword(password);
  const now = Date.now();
  const id = randomBytes(16).toString('base64url');
  await withDb(server, (db) => {
    db.prepare(
      `insert into users (id, tenant_id, username, username_key, nick_name, phone, avatar, role, password_hash, must_change_password,
         password_changed_at, quota, used_size, created_at) values (?, ?, ?, ?, ?, '', '', 'member', ?, 0, ?, ?, 0, ?)`,
    ).run(id, tenantId, username, username.toLowerCase(), username, hash, now, quota, now);
  });
  return id;
}

/** Uploads a whole file through chunk/exist, chunk upload and merge; returns the merge answer. */
export async function uploadFile(
  client: Client,
  content: Buffer,
  name: string,
  opts: { parentId?: string | null; onConflict?: string; chunkSize?: number; purpose?: string } = {},
): Promise<Answer<{ data: FileEntry; errorCode?: string }>> {
  const chunkSize = opts.chunkSize ?? TEST_CHUNK_SIZE;
  const { chunkDigests, fingerprint } = describeFile(content, chunkSize);
  const open = await client.post<{ data: { uploadId: string; chunkCount: number; existingChunks: number[] }; errorCode?: string }>(
    API.chunkExist,
    { fingerprint, size: content.length, chunkSize, chunkDigests, name, parentId: opts.parentId ?? null, category: 1, ...(opts.purpose ? { purpose: opts.purpose } : {}) },
  );
  if (open.status !== 200) return open as never;
  const { uploadId, chunkCount: count, existingChunks } = open.body.data;
  for (let i = 0; i < count; i++) {
    if (existingChunks.includes(i)) continue;
    const bytes = content.subarray(i * chunkSize, (i + 1) * chunkSize);
    const res = await putChunk(client, uploadId, i, bytes, chunkDigestHex(bytes), opts.purpose ? `&purpose=${opts.purpose}` : '');
    if (res.status !== 200) throw new Error(`chunk ${i}: ${JSON.stringify(res.body)}`);
  }
  return client.post(API.chunkMerge, { uploadId, name, parentId: opts.parentId ?? null, category: 1, onConflict: opts.onConflict, ...(opts.purpose ? { purpose: opts.purpose } : {}) });
}

/** The id of an account (test setup reads it from the database; no user-list API exists yet). */
export async function userIdOf(server: TestServer, username: string): Promise<string> {
  const row = await withDb(server, (db) => db.prepare('select id from users where username = ?').get(username) as { id: string } | undefined);
  if (!row) throw new Error(`no user ${username}`);
  return row.id;
}

/**
 * The newest SMS code the development gateway sent to `phone` after `since` (ms), or null when none
 * arrived within `waitMs` (the gateway is not awaited by the server, so the line may come a bit later).
 */
export async function readSmsCode(server: TestServer, phone: string, since: number, waitMs = 5000): Promise<string | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const text = await fsp.readFile(smsOutboxFile(server.dataDir), 'utf8').catch(() => '');
    const lines = text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { phone: string; text: string; sentAt: number });
    const hit = lines.reverse().find((l) => l.phone === phone && l.sentAt >= since);
    if (hit) return /(\d{6})/.exec(hit.text)?.[1] ?? null;
    if (Date.now() >= deadline) return null;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Test-only: a trigger that makes a write to `table` fail while `condition` (over `new.`) holds, to
 * prove a multi-step write rolls back whole. Written in each engine's trigger language; removed by
 * the returned function.
 */
export async function addFailingTrigger(
  server: { dataDir: string },
  name: string,
  event: string,
  table: string,
  condition: string,
): Promise<() => Promise<void>> {
  if (onPostgres()) {
    await withDb(server, (db) =>
      db.exec(`create function ${name}_fn() returns trigger language plpgsql as $fn$
          begin if ${condition} then raise exception 'boom'; end if; return new; end $fn$;
        create trigger ${name} ${event} on ${table} for each row execute function ${name}_fn();`),
    );
    return async () => {
      await withDb(server, (db) => db.exec(`drop trigger ${name} on ${table}; drop function ${name}_fn();`));
    };
  }
  await withDb(server, (db) => db.exec(`create trigger ${name} ${event} on ${table} when ${condition} begin select raise(abort, 'boom'); end`));
  return async () => {
    await withDb(server, (db) => db.exec(`drop trigger ${name}`));
  };
}
