/**
 * The product behind the balancer (issue 36): three real server processes on one real PostgreSQL
 * and one DATA_DIR, Debian's haproxy in front (startCluster, what `npm run start:cluster` runs).
 * Every call goes through the balancer, which names the answering process (X-Served-By, on with
 * DRIVE_TEST_HOOKS); where a test needs a given process it calls that process directly.
 *
 * Crash points are armed in one process at a time (a retry through the balancer must not meet
 * another armed one): s2's first start dies after renaming the chunks into a blob, s3's second start
 * (the test restarts it) dies after the commit, before answering. Each is restarted unarmed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, downloadUrl, zipDownloadUrl } from '../../common/api/paths';
import type { SystemNoticeEvent } from '../../common/api/notices';
import type { LinkDownloadResponse } from '../../common/api/sharing';
import type { FileEntry } from '../../common/api/types';
import { encryptPassword } from '../../common/crypto/password-cipher';
import { captchaOutboxFile } from '../../server/app';
import type { Cluster } from '../../server/cluster/start-cluster';
import { createNodeEngine, waitUntilSettled } from '../replay/engine-harness';
import { openFileSource } from '../replay/node-runtime';
import { downloadSha256, loggedInJar, writeRandomFile } from '../support/drive-server';
import { FAST_STALL_TIMEOUT_MS } from '../support/engine-deps';
import { readZip } from '../support/zip-entries';
import { ADMIN, Client, describeFile, login, putChunk, TEST_CHUNK_SIZE, uploadFile, type TestServer } from '../server/helpers';
import { names } from '../server/file-kit';
import { openStream, saveNotice } from '../server/notice-kit';
import { fetchBytes, link, openLink } from '../server/sharing-kit';
import { rawRequest, selfSignedCertificate, startTestCluster, storeProblems, withPg } from './cluster-kit';

const MiB = 1024 * 1024;
let dir: string;
let dataDir: string;
let cluster: Cluster;
let log: string[];
let admin: Client;

/** The PWA's kinds of files, as a build leaves them (a real build is e2e's; this checks what the balancer passes). */
async function writeStaticFixture(staticDir: string): Promise<void> {
  await fsp.mkdir(path.join(staticDir, 'assets'), { recursive: true });
  await fsp.writeFile(path.join(staticDir, 'index.html'), '<!doctype html><html><head><link rel="manifest" href="/manifest.webmanifest"></head><body>云盘</body></html>');
  await fsp.writeFile(path.join(staticDir, 'manifest.webmanifest'), JSON.stringify({ name: '云盘', start_url: '/' }));
  await fsp.writeFile(path.join(staticDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  await fsp.writeFile(path.join(staticDir, 'assets', 'index-Ab12Cd34.js'), script);
  await fsp.writeFile(path.join(staticDir, 'assets', 'index-Ab12Cd34.js.br'), brotliCompressSync(script));
}

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-cluster-test-'));
  dataDir = path.join(dir, 'data');
  const staticDir = path.join(dir, 'dist');
  await writeStaticFixture(staticDir);
  ({ cluster, log } = await startTestCluster(dataDir, {
    processes: 3,
    env: { STATIC_DIR: staticDir },
    processEnv: (i, start): Record<string, string> => {
      if (i === 1 && start === 1) return { DRIVE_TEST_CRASH_POINT: 'merge-after-rename' };
      if (i === 2 && start === 2) return { DRIVE_TEST_CRASH_POINT: 'merge-after-commit' };
      return {};
    },
  }));
  admin = new Client(cluster.url);
  const res = await login({ dataDir } as TestServer, admin, ADMIN);
  expect(res.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

const servedBy = (headers: Headers): string => headers.get('x-served-by') ?? '?';
const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** Opens an upload of `content` at the root and sends all its chunks through the balancer; the processes that took them. */
async function sendChunks(client: Client, content: Buffer, name: string): Promise<{ uploadId: string; takers: string[] }> {
  const { chunkDigests, fingerprint } = describeFile(content);
  const open = await client.post<{ data: { uploadId: string; chunkCount: number } }>(API.chunkExist, {
    fingerprint, size: content.length, chunkSize: TEST_CHUNK_SIZE, chunkDigests, name, parentId: null, category: 1,
  });
  expect(open.status, JSON.stringify(open.body)).toBe(200);
  const takers: string[] = [];
  for (let i = 0; i < open.body.data.chunkCount; i++) {
    const res = await putChunk(client, open.body.data.uploadId, i, content.subarray(i * TEST_CHUNK_SIZE, (i + 1) * TEST_CHUNK_SIZE));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    takers.push(servedBy(res.headers));
  }
  return { uploadId: open.body.data.uploadId, takers };
}

/** A merge as the transfer engine sends it: its item's clientKey makes a repeat after a lost answer return the file. */
const mergeBody = (uploadId: string, name: string, clientKey = `k${uploadId.slice(0, 20)}`) => JSON.stringify({ uploadId, name, parentId: null, category: 1, clientKey });


describe('a process killed mid-merge', () => {
  it('leaves no half file and loses no acknowledged file: the merge retried through the balancer completes once, byte-exact', async () => {
    // On s1, which is never armed (s2 would die in its merge).
    const s1 = Object.assign(new Client(cluster.processUrls[0]!), { cookie: admin.cookie });
    const before = await uploadFile(s1, randomBytes(3 * MiB), 'acknowledged-before.bin');
    expect(before.status).toBe(200);
    const cases = [
      { name: 'merge-after-rename.bin', process: 1 },
      { name: 'merge-after-commit.bin', process: 2 },
    ];
    for (const c of cases) {
      if (c.process === 2) {
        // Restarted into its armed start.
        await cluster.kill(2);
        await cluster.waitHealthy(2);
      }
      const content = randomBytes(2 * TEST_CHUNK_SIZE + 12345);
      const { uploadId } = await sendChunks(s1, content, c.name);
      const pid = cluster.pids()[c.process];
      // Straight to the armed process: it SIGKILLs itself mid-merge, the client sees the connection drop.
      const direct = await fetch(cluster.processUrls[c.process] + API.chunkMerge, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: admin.cookie },
        body: mergeBody(uploadId, c.name),
      }).then(
        (r) => `HTTP ${r.status}`,
        () => 'dropped',
      );
      expect(direct, `${c.name}: the armed process answered instead of dying`).toBe('dropped');
      // What the transfer engine does next: the same merge again, through the balancer.
      const retried = await admin.post<{ data: FileEntry }>(API.chunkMerge, JSON.parse(mergeBody(uploadId, c.name)));
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      expect(retried.body.data.size).toBe(content.length);
      const got = await admin.raw(downloadUrl(retried.body.data.id));
      expect(sha256(new Uint8Array(await got.arrayBuffer()))).toBe(sha256(content));
      await cluster.waitHealthy(c.process);
      expect(cluster.pids()[c.process]).not.toBe(pid);
    }
    const listed = await names(admin, null);
    for (const n of ['acknowledged-before.bin', ...cases.map((c) => c.name)]) expect(listed.filter((x) => x === n), n).toHaveLength(1);
    const again = await admin.raw(downloadUrl(before.body.data.id));
    expect((await again.arrayBuffer()).byteLength).toBe(3 * MiB);
    expect(await storeProblems(dataDir, cluster.dbUrl)).toEqual([]);
  });
});

describe('whichever process answers', () => {
  beforeAll(async () => {
    // The crash test's processes are back and in the balancer's rotation.
    for (let i = 0; i < cluster.names.length; i++) await cluster.waitHealthy(i);
  });

  it('a session made on one process is honoured by the others', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 9; i++) {
      const res = await admin.raw(API.tenantConfig);
      expect(res.status).toBe(200);
      seen.add(servedBy(res.headers));
    }
    expect([...seen].sort()).toEqual(['s1', 's2', 's3']);
  });

  it('a chunked upload whose chunks land on different processes merges byte-exact; Range downloads from any process', async () => {
    const content = randomBytes(5 * TEST_CHUNK_SIZE + 777);
    const { uploadId, takers } = await sendChunks(admin, content, 'spread.bin');
    expect(new Set(takers).size, `chunks taken by ${takers.join(',')}`).toBeGreaterThan(1);
    const merged = await admin.post<{ data: FileEntry }>(API.chunkMerge, JSON.parse(mergeBody(uploadId, 'spread.bin')));
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const whole = await admin.raw(downloadUrl(merged.body.data.id));
    expect(sha256(new Uint8Array(await whole.arrayBuffer()))).toBe(sha256(content));

    const rangeTakers = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const start = i * 3 * MiB + 11;
      const end = Math.min(start + MiB, content.length - 1);
      const part = await admin.raw(downloadUrl(merged.body.data.id), { headers: { range: `bytes=${start}-${end}` } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes ${start}-${end}/${content.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(content.subarray(start, end + 1))).toBe(true);
      rangeTakers.add(servedBy(part.headers));
    }
    expect(rangeTakers.size).toBeGreaterThan(1);
  });

  it('a ZIP of several files streams whole through the balancer', async () => {
    const a = await uploadFile(admin, Buffer.from('甲'.repeat(1000)), 'zip-a.txt');
    const b = await uploadFile(admin, randomBytes(6 * MiB), 'zip-b.bin');
    const res = await admin.raw(zipDownloadUrl([a.body.data.id, b.body.data.id], '打包'));
    expect(res.status).toBe(200);
    const entries = readZip(Buffer.from(await res.arrayBuffer()));
    expect(entries.map((e) => e.name).sort()).toEqual(['zip-a.txt', 'zip-b.bin']);
  });

  it('a share link opened and downloaded by a visitor, each step on whichever process', async () => {
    const content = randomBytes(MiB + 3);
    const file = (await uploadFile(admin, content, 'shared.bin')).body.data;
    const target = await link(admin, file.id);
    const visitor = new Client(cluster.url);
    const opened = await openLink(visitor, target.token, target.code);
    const ticket = await visitor.post<{ data: LinkDownloadResponse }>(API.linkDownload, { visit: opened.visit, ids: [file.id] });
    expect(ticket.status, JSON.stringify(ticket.body)).toBe(200);
    const first = await fetchBytes(visitor, ticket.body.data.url, { range: 'bytes=0-99999' });
    const rest = await fetchBytes(visitor, ticket.body.data.url, { range: 'bytes=100000-' });
    expect([first.status, rest.status]).toEqual([206, 206]);
    expect(Buffer.concat([first.body, rest.body]).equals(content)).toBe(true);
  });

  it("serves the PWA's files (page, manifest, service worker, precompressed assets) from every process", async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      for (const [p, type] of [
        ['/', 'text/html'],
        ['/manifest.webmanifest', 'manifest'],
        ['/sw.js', 'javascript'],
      ] as const) {
        const res = await fetch(cluster.url + p);
        expect(res.status, p).toBe(200);
        expect(res.headers.get('content-type'), p).toContain(type);
        seen.add(servedBy(res.headers));
      }
      const asset = await fetch(`${cluster.url}/assets/index-Ab12Cd34.js`, { headers: { 'accept-encoding': 'br' } });
      expect(asset.headers.get('content-encoding')).toBe('br');
      expect(await asset.text()).toContain('xxxx');
    }
    expect([...seen].sort()).toEqual(['s1', 's2', 's3']);
  });

  it('the notice stream (SSE) passes through unbuffered and carries what any process published', async () => {
    const stream = await openStream(admin);
    try {
      await stream.next((e) => e.event === 'counts', 10_000);
      // A notice published on each process in turn: the stream, open on one of them, gets all three.
      for (let i = 0; i < cluster.processUrls.length; i++) {
        const there = Object.assign(new Client(cluster.processUrls[i]!), { cookie: admin.cookie });
        const title = `维护通知 ${cluster.names[i]}`;
        await saveNotice(there, { title });
        const got = await stream.next((e) => e.event === 'system' && (e.data as SystemNoticeEvent).title === title, 10_000);
        expect((got.data as SystemNoticeEvent).change).toBe('published');
      }
    } finally {
      stream.close();
    }
  });
});

describe('TLS at the balancer', () => {
  let tls: Cluster;
  let ca: string;
  beforeAll(async () => {
    const certificate = await selfSignedCertificate(dir);
    ca = certificate.cert;
    // One more process on the same database and data directory, behind a balancer with a certificate.
    ({ cluster: tls } = await startTestCluster(dataDir, { processes: 1, dbUrl: cluster.dbUrl, tls: certificate }));
  });
  afterAll(async () => {
    await tls?.stop();
  });

  /** A captcha answered through the TLS balancer (the outbox is the test hook's). */
  async function captcha(localAddress: string): Promise<{ captchaId: string; captchaCode: string }> {
    const res = await rawRequest(tls.url + API.captcha, { ca, localAddress });
    const { captchaId } = (JSON.parse(res.body.toString()) as { data: { captchaId: string } }).data;
    const outbox = (await fsp.readFile(captchaOutboxFile(dataDir), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { captchaId: string; answer: string });
    return { captchaId, captchaCode: outbox.find((e) => e.captchaId === captchaId)!.answer };
  }

  const loginForm = async (localAddress: string, password: string) =>
    rawRequest(tls.url + API.login, {
      method: 'POST',
      ca,
      localAddress,
      // What the client claims is kept to the left of what haproxy appends: the server ignores it.
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '10.66.66.66', 'x-forwarded-proto': 'http' },
      body: new URLSearchParams({ username: ADMIN.username, password: encryptPassword(password), ...(await captcha(localAddress)) }).toString(),
    });

  it("terminates TLS: the session cookie is Secure; the session and the login throttle see the client's own address", async () => {
    expect(tls.url).toMatch(/^https:/);
    const ok = await loginForm('127.0.0.2', ADMIN.password);
    expect(ok.status, ok.body.toString()).toBe(200);
    const cookies = ([] as string[]).concat(ok.headers['set-cookie'] ?? []);
    const sid = cookies.find((c) => c.startsWith('sid='));
    expect(sid).toMatch(/;\s*Secure/i);
    const token = sid!.split(';')[0]!;
    // The session works through either balancer (over https here, plain http there).
    expect((await rawRequest(tls.url + API.tenantConfig, { ca, headers: { cookie: token } })).status).toBe(200);
    expect((await admin.raw(API.tenantConfig)).status).toBe(200);

    const wrong = await loginForm('127.0.0.3', 'Wrong@2024');
    expect(wrong.status).toBe(400);
    const seen = await withPg(cluster.dbUrl, async (c) => ({
      sessions: (await c.query<{ address: string }>('select address from sessions order by created_at desc limit 1')).rows.map((r) => r.address),
      failures: (await c.query<{ key: string }>("select key from login_failures where key like 'addr:%'")).rows.map((r) => r.key),
    }));
    expect(seen.sessions).toEqual(['127.0.0.2']);
    expect(seen.failures).toContain('addr:127.0.0.3');
    expect(seen.failures).not.toContain('addr:10.66.66.66');
    expect(seen.failures).not.toContain('addr:127.0.0.1');
  });
});

describe('a process killed mid-upload', () => {
  it("the engine's retries land on the other processes and the file completes byte-exact; the process is restarted", async () => {
    const size = 24 * MiB + 333;
    const source = path.join(dir, 'big.bin');
    const sourceSha = await writeRandomFile(source, size);
    const jar = await loggedInJar(cluster.url, dataDir);
    const { engine, close } = createNodeEngine(cluster.url, jar, { chunkConcurrency: 3, random: () => 0.5, stallTimeoutMs: FAST_STALL_TIMEOUT_MS });
    try {
      const [id] = await engine.enqueueUploads([await openFileSource(source)], { parentId: null, category: 1 });
      let killed = -1;
      const victim = 1;
      const pid = cluster.pids()[victim];
      const snapshot = await waitUntilSettled(engine, {
        ids: [id!],
        timeoutMs: 150_000,
        pollMs: 20,
        onSnapshot: async (s) => {
          if (killed < 0 && s.items[0]!.bytesDone >= size / 3) {
            killed = s.items[0]!.bytesDone;
            await cluster.kill(victim);
          }
        },
      });
      const item = snapshot.items[0]!;
      expect(killed, 'killed mid-upload').toBeGreaterThan(0);
      expect(item.state, item.lastError ?? '').toBe('done');
      expect(await downloadSha256(cluster.url, jar, item.fileId!)).toEqual({ sha256: sourceSha, size });
      await cluster.waitHealthy(victim);
      expect(cluster.pids()[victim]).not.toBe(pid);
      expect(await storeProblems(dataDir, cluster.dbUrl)).toEqual([]);
    } finally {
      await close();
    }
  });
});

afterAll(() => {
  // On failure the servers' last lines say why.
  if (log?.some((l) => /"level":(50|60)/.test(l))) console.warn(log.filter((l) => /"level":(50|60)|cluster\]/.test(l)).join('\n'));
});
