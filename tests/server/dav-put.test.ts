import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entries, mkdir } from './file-kit';
import { randomContent, TEST_CHUNK_SIZE, withDb, type Client, type TestServer } from './helpers';
import { lastSeq, logRows, oneRowOf, rowsOf } from './action-log-kit';
import { startDav, type DavClient, encodePath, parseMultistatus } from './dav-kit';

let server: TestServer;
let admin: Client;
let dav: DavClient;
let folderId: string;

beforeAll(async () => {
  ({ server, admin, dav } = await startDav());
  folderId = (await mkdir(admin, '上传')).id;
});
afterAll(async () => server?.close());

async function uploadsLeft(): Promise<number> {
  return withDb(server, (db) => (db.prepare('select count(*) as n from uploads').get() as { n: number }).n);
}

/** A chunked body (no Content-Length), as Finder sends. */
function chunked(bytes: Buffer, pieces = 3): ReadableStream<Uint8Array> {
  const step = Math.ceil(bytes.length / pieces);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + step));
      at += step;
    },
  });
}

describe('PUT', () => {
  it('creates a file (201) through the chunk-upload path, across several chunks, recorded as file.upload by client webdav', async () => {
    const bytes = randomContent(2 * TEST_CHUNK_SIZE + 12345);
    const row = await oneRowOf(server, async () => expect((await dav.put('/dav/个人文件/上传/大文件.bin', bytes)).status).toBe(201));
    expect(row.action).toBe('file.upload');
    expect(row.platform).toBe('webdav');
    expect(row.outcome).toBe('ok');
    expect(row.parsedTargets[0]!.name).toBe('大文件.bin');
    const back = await dav.raw('GET', '/dav/个人文件/上传/大文件.bin');
    expect(Buffer.from(await back.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await entries(admin, folderId)).map((e) => e.name)).toContain('大文件.bin');
    expect(await uploadsLeft()).toBe(0);
  });

  it('overwriting makes a new version (204); the ETag changes', async () => {
    await dav.put('/dav/个人文件/上传/版本.txt', 'one');
    const before = parseMultistatus((await dav.propfind('/dav/个人文件/上传/版本.txt', '0')).text)[0]!.props.getetag;
    const row = await oneRowOf(server, async () => expect((await dav.put('/dav/个人文件/上传/版本.txt', 'two')).status).toBe(204));
    expect(row.action).toBe('file.versionNew');
    const after = parseMultistatus((await dav.propfind('/dav/个人文件/上传/版本.txt', '0')).text)[0]!.props.getetag;
    expect(after).not.toBe(before);
    expect((await dav.get('/dav/个人文件/上传/版本.txt')).text).toBe('two');
    const file = (await entries(admin, folderId)).find((e) => e.name === '版本.txt')!;
    expect(file.versionCount).toBeGreaterThanOrEqual(1);
    // If-Match with the old ETag: refused, nothing written.
    expect((await dav.put('/dav/个人文件/上传/版本.txt', 'three', { 'if-match': before! })).status).toBe(412);
    expect((await dav.get('/dav/个人文件/上传/版本.txt')).text).toBe('two');
  });

  it('a chunked body without any length, and one with Finder\'s X-Expected-Entity-Length', async () => {
    const bytes = randomContent(TEST_CHUNK_SIZE + 777);
    const a = await dav.raw('PUT', '/dav/个人文件/上传/chunked.bin', { body: chunked(bytes), duplex: 'half' });
    expect(a.status).toBe(201);
    const b = await dav.raw('PUT', '/dav/个人文件/上传/finder.bin', { body: chunked(bytes), duplex: 'half', headers: { 'x-expected-entity-length': String(bytes.length) } });
    expect(b.status).toBe(201);
    for (const name of ['chunked.bin', 'finder.bin']) {
      const back = await dav.raw('GET', `/dav/个人文件/上传/${name}`);
      expect(Buffer.from(await back.arrayBuffer()).equals(bytes), name).toBe(true);
    }
  });

  it('refuses with a status and a body that says why: bad names 400, blocked types 403, a missing parent 409, quota 507', async () => {
    const bad = await dav.put('/dav/个人文件/上传/a*b.txt', 'x');
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/\S/);
    const exe = await dav.put('/dav/个人文件/上传/tool.exe', 'MZ');
    expect(exe.status).toBe(403);
    expect(exe.text).toContain('UPL-');
    expect((await dav.put('/dav/个人文件/没有的文件夹/x.txt', 'x')).status).toBe(409);
    expect((await dav.put('/dav/x.txt', 'x')).status).toBe(403);
    expect((await dav.put('/dav/共享文件/x.txt', 'x')).status).toBe(403);
    const used = await withDb(server, (db) => (db.prepare("select used_size from users where username = 'admin'").get() as { used_size: number }).used_size);
    await withDb(server, (db) => db.prepare("update users set quota = ? where username = 'admin'").run(Number(used) + 10));
    try {
      const full = await dav.put('/dav/个人文件/上传/满.bin', randomContent(100));
      expect(full.status).toBe(507);
      expect(full.text).toContain('空间不足');
    } finally {
      await withDb(server, (db) => db.prepare("update users set quota = ? where username = 'admin'").run(10 * 1024 ** 3));
    }
    expect(await uploadsLeft()).toBe(0);
  });

  it('a client gone mid-body leaves no file and no upload session, and is recorded as a refused upload', async () => {
    const url = new URL(server.baseUrl + encodePath('/dav/个人文件/上传/断开.bin'));
    const total = 3 * TEST_CHUNK_SIZE;
    const before = await lastSeq(server);
    const refusedRows = async () => (await logRows(server)).filter((r) => r.seq > (before.get(r.tenant_id) ?? 0) && r.action === 'file.upload' && r.outcome === 'refused');
    await new Promise<void>((resolve) => {
      const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'PUT', headers: { ...dav.auth, 'content-length': String(total) } });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(randomContent(TEST_CHUNK_SIZE + 1000), () => setTimeout(() => req.destroy(), 200));
    });
    // The server notices the cut, drops the session, then records the refusal: wait for both (on S3 the
    // multipart abort between them takes long enough for the row to land in the next test's window).
    for (let i = 0; i < 100 && ((await uploadsLeft()) > 0 || (await refusedRows()).length === 0); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await uploadsLeft()).toBe(0);
    const refused = await refusedRows();
    expect(refused.map((r) => `${r.action} ${r.outcome} ${r.platform}`)).toEqual(['file.upload refused webdav']);
    expect((await dav.propfind('/dav/个人文件/上传/断开.bin', '0')).status).toBe(404);
  });

  it('small bodies (≤ the batch limit) commit through the small-file batch: side by side in shared commits, each file its own row, no session', async () => {
    const files = Array.from({ length: 8 }, (_, i) => ({ name: `小-${i}.bin`, bytes: randomContent(4096 + i) }));
    const usedBefore = await withDb(server, (db) => Number((db.prepare("select used_size from users where username = 'admin'").get() as { used_size: number }).used_size));
    const rows = await rowsOf(server, async () => {
      const answers = await Promise.all(files.map((f) => dav.put(`/dav/个人文件/上传/${f.name}`, f.bytes)));
      expect(answers.map((a) => a.status)).toEqual(files.map(() => 201));
    });
    // One file.upload per PUT, recorded as a single file (not as a batch of many), by webdav.
    expect(rows.map((r) => `${r.action} ${r.outcome} ${String(r.parsedDetail?.method)} ${r.platform}`).sort()).toEqual(files.map(() => 'file.upload ok single webdav'));
    expect(rows.map((r) => r.parsedTargets[0]!.name).sort()).toEqual(files.map((f) => f.name).sort());
    for (const f of files) {
      const back = await dav.raw('GET', `/dav/个人文件/上传/${f.name}`);
      expect(Buffer.from(await back.arrayBuffer()).equals(f.bytes), f.name).toBe(true);
    }
    const usedAfter = await withDb(server, (db) => Number((db.prepare("select used_size from users where username = 'admin'").get() as { used_size: number }).used_size));
    expect(usedAfter - usedBefore).toBe(files.reduce((n, f) => n + f.bytes.length, 0));
    // No upload session, and no intent left behind (the commit forgot those it took).
    expect(await uploadsLeft()).toBe(0);
    expect(await withDb(server, (db) => (db.prepare('select count(*) as n from blob_intents').get() as { n: number }).n)).toBe(0);
    // Overwritten side by side: each a new version, recorded as the chunk path records one.
    const again = await rowsOf(server, async () => {
      const answers = await Promise.all(files.map((f) => dav.put(`/dav/个人文件/上传/${f.name}`, `v2 ${f.name}`)));
      expect(answers.map((a) => a.status)).toEqual(files.map(() => 204));
    });
    expect(again.map((r) => r.action)).toEqual(files.map(() => 'file.versionNew'));
    expect((await dav.get(`/dav/个人文件/上传/${files[3]!.name}`)).text).toBe(`v2 ${files[3]!.name}`);
  });

  it('MKCOL of a folder that is there (rclone asks before every file) answers 405 and leaves no row; over a file it is refused and logged', async () => {
    expect(await rowsOf(server, async () => expect((await dav.request('MKCOL', '/dav/个人文件/上传/')).status).toBe(405))).toEqual([]);
    const row = await oneRowOf(server, async () => expect((await dav.request('MKCOL', '/dav/个人文件/上传/版本.txt')).status).toBe(405));
    expect(`${row.action} ${row.outcome} ${row.error_code}`).toBe('file.mkdir refused DAV-405');
  });

  it('Finder\'s .DS_Store and ._ files are taken and dropped', async () => {
    expect((await dav.put('/dav/个人文件/上传/.DS_Store', 'x')).status).toBe(201);
    expect((await dav.put('/dav/个人文件/上传/._大文件.bin', 'x')).status).toBe(201);
    expect((await dav.propfind('/dav/个人文件/上传/.DS_Store', '0')).status).toBe(404);
    expect((await entries(admin, folderId)).map((e) => e.name)).not.toContain('.DS_Store');
  });
});
