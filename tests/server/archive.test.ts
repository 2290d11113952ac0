import { execFile } from 'node:child_process';
import http from 'node:http';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API, namedPreviewUrl, zipDownloadUrl } from '../../common/api/paths';
import { zipStream, type ZipMember } from '../../server/http/zip-writer';
import { expectError, mkdir, text } from './file-kit';
import { ZIP_MAX_ENTRIES } from '../../common/api/types';
import { type Client, startServerAsAdmin, type TestServer, uploadFile, withDb } from './helpers';

const run = promisify(execFile);
let server: TestServer;
let admin: Client;
let tmp: string;
beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'zip-test-'));
});
afterAll(async () => {
  await server.close();
  await fsp.rm(tmp, { recursive: true, force: true });
});

/** Saves bytes and lets Info-ZIP's unzip test and list them (an independent reader). */
async function unzipList(bytes: Buffer, name = 'a.zip'): Promise<{ listing: string; file: string }> {
  const file = path.join(tmp, name);
  await fsp.writeFile(file, bytes);
  const test = await run('unzip', ['-t', file]);
  expect(test.stdout).toContain('No errors detected');
  return { listing: (await run('unzip', ['-Z1', file])).stdout, file };
}

describe('streamed ZIP download', () => {
  it('names an archive without a name after its first entry and the count (报告 等2个文件.zip), a lone folder after itself', async () => {
    const report = await text(admin, '报告.txt', '一');
    const other = await text(admin, '附件.txt', '二');
    const several = await admin.raw(zipDownloadUrl([report.id, other.id]));
    expect(several.status).toBe(200);
    expect(decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(several.headers.get('content-disposition') ?? '')?.[1] ?? '')).toBe('报告 等2个文件.zip');
    await several.arrayBuffer();
    const folder = await mkdir(admin, '季度资料');
    const lone = await admin.raw(zipDownloadUrl([folder.id]));
    expect(decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(lone.headers.get('content-disposition') ?? '')?.[1] ?? '')).toBe('季度资料.zip');
    await lone.arrayBuffer();
  });

  it('zips a folder tree and loose files with UTF-8 names; unzip reads every byte back', async () => {
    const folder = await mkdir(admin, '项目');
    const sub = await mkdir(admin, '子目录', folder.id);
    await text(admin, '说明.txt', '中文内容', sub.id);
    await mkdir(admin, '空文件夹', folder.id);
    const big = Buffer.alloc(300_000, 7);
    const loose = await uploadFile(admin, big, 'loose.zip');
    const res = await admin.raw(zipDownloadUrl([folder.id, loose.body.data.id], '打包'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain("filename*=UTF-8''%E6%89%93%E5%8C%85.zip");
    const { listing, file } = await unzipList(Buffer.from(await res.arrayBuffer()));
    expect(listing.trim().split('\n').sort()).toEqual(['loose.zip', '项目/', '项目/子目录/', '项目/子目录/说明.txt', '项目/空文件夹/'].sort());
    expect((await run('unzip', ['-p', file, '项目/子目录/说明.txt'])).stdout).toBe('中文内容');
    // Text is deflated, other kinds stored ('unzip -v' names the method per member).
    const verbose = (await run('unzip', ['-v', file])).stdout;
    expect(verbose).toMatch(/Defl:N.*说明\.txt/);
    expect(verbose).toMatch(/Stored.*loose\.zip/);
    const bin = await run('unzip', ['-p', file, 'loose.zip'], { encoding: 'buffer', maxBuffer: 1 << 20 });
    expect(Buffer.compare(bin.stdout, big)).toBe(0);
  });

  it('maps names Windows or a file system cannot hold, keeping them unique; unzip extracts every file', async () => {
    const folder = await mkdir(admin, '旧数据');
    // Names stored before the name rule (or by another client): put in the database directly.
    const longLatin = `${'x'.repeat(300)}.txt`;
    const longChinese = `${'长'.repeat(100)}.docx`;
    const raw = ['a:b*c?.txt', 'a_b_c_.txt', 'CON.txt', 'nul', 'trailing. ', 'quote"pipe|.md', longLatin, longChinese];
    const expected = new Map<string, string>();
    for (const [i, name] of raw.entries()) {
      const made = await text(admin, `plain-${i}.txt`, `content ${i}`, folder.id);
      await withDb(server, (db) => db.prepare('update files set name = ?, name_key = ? where id = ?').run(name, name.toLowerCase(), made.id));
      expected.set(`content ${i}`, name);
    }
    const res = await admin.raw(zipDownloadUrl([folder.id]));
    expect(res.status).toBe(200);
    const { file } = await unzipList(Buffer.from(await res.arrayBuffer()), 'portable.zip');
    const out = path.join(tmp, 'portable');
    await run('unzip', ['-q', file, '-d', out]);
    const extracted = await fsp.readdir(path.join(out, '旧数据'));
    expect(extracted).toHaveLength(raw.length);
    const byContent = new Map<string, string>();
    for (const name of extracted) {
      expect(Buffer.byteLength(name), name).toBeLessThanOrEqual(255);
      expect(name).not.toMatch(/[:"*?<>|\\]|[. ]$/);
      byContent.set(await fsp.readFile(path.join(out, '旧数据', name), 'utf8'), name);
    }
    expect([...byContent.keys()].sort()).toEqual([...expected.keys()].sort());
    const as = (content: string) => byContent.get(content)!;
    expect(as('content 2')).toBe('_CON.txt');
    expect(as('content 3')).toBe('_nul');
    expect(as('content 4')).toBe('trailing');
    expect(as('content 5')).toBe('quote_pipe_.md');
    expect([as('content 0'), as('content 1')].sort()).toEqual(['a_b_c_ (1).txt', 'a_b_c_.txt']);
    expect(as('content 6')).toMatch(/^x+\.txt$/);
    expect(as('content 7')).toMatch(/^长+\.docx$/);
    expect(Buffer.byteLength(as('content 7'))).toBeGreaterThan(240);
  });

  it('refuses more entries than ZIP_MAX_ENTRIES before sending anything; unknown ids are 404', async () => {
    const crowded = await mkdir(admin, 'crowded');
    await withDb(server, (db) => {
      const parent = db.prepare('select * from files where id = ?').get(crowded.id) as Record<string, unknown>;
      const insert = db.prepare(
        `insert into files (id, tenant_id, owner_id, parent_id, category, name, name_key, is_dir, size, blob_id, created_at, updated_at)
         values (?, ?, ?, ?, 1, ?, ?, 1, 0, null, 0, 0)`,
      );
      db.transaction(() => {
        for (let i = 0; i < ZIP_MAX_ENTRIES; i++) insert.run(`z${String(i).padStart(21, '0')}`, parent.tenant_id, parent.owner_id, crowded.id, `d${i}`, `d${i}`);
      })();
    });
    const res = await admin.get(zipDownloadUrl([crowded.id]));
    expectError(res, ERRORS.ZIP_TOO_LARGE.code);
    expect(res.headers.get('content-type')).toContain('application/json');
    expectError(await admin.get(zipDownloadUrl(['A'.repeat(22)])), ERRORS.NOT_FOUND.code, 404);
  });

  it('a client leaving mid-download leaves no stuck response (the server serves on and closes)', async () => {
    const big = Buffer.alloc(8 * 1024 * 1024, 3);
    const up = await uploadFile(admin, big, 'abort.bin');
    // A plain http request whose socket is destroyed after the first bytes: the client went away.
    const firstBytes = await new Promise<number>((resolve, reject) => {
      const req = http.get(server.baseUrl + zipDownloadUrl([up.body.data.id]), { headers: { cookie: admin.cookie } }, (res) => {
        res.once('data', (chunk: Buffer) => {
          req.destroy();
          resolve(chunk.length);
        });
      });
      req.on('error', reject);
    });
    expect(firstBytes).toBeGreaterThan(0);
    const again = await admin.raw(zipDownloadUrl([up.body.data.id]));
    expect(again.status).toBe(200);
    const { file } = await unzipList(Buffer.from(await again.arrayBuffer()), 'again.zip');
    const bytes = await run('unzip', ['-p', file, 'abort.bin'], { encoding: 'buffer', maxBuffer: 16 << 20 });
    expect(Buffer.compare(bytes.stdout, big)).toBe(0);
  });

  it('the writer emits valid ZIP64 records (forced at a tiny threshold) that unzip accepts', async () => {
    const members: ZipMember[] = [
      { name: 'd/', isDir: true, size: 0, modifiedAt: Date.now() },
      { name: 'd/one.txt', isDir: false, size: 5, modifiedAt: Date.now(), open: async function* () { yield Buffer.from('hello'); } },
      { name: 'two.txt', isDir: false, size: 6, modifiedAt: Date.now(), open: async function* () { yield Buffer.from('wor'); yield Buffer.from('ld!'); } },
      {
        name: 'three.txt',
        isDir: false,
        size: 300_000,
        modifiedAt: Date.now(),
        deflate: true,
        open: async function* () {
          for (let i = 0; i < 3; i++) yield Buffer.alloc(100_000, 'ab');
        },
      },
    ];
    const parts: Buffer[] = [];
    for await (const p of zipStream(members, { zip64Threshold: 1 })) parts.push(p);
    const bytes = Buffer.concat(parts);
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true); // ZIP64 end record
    const { listing, file } = await unzipList(bytes, 'z64.zip');
    expect(listing.trim().split('\n')).toEqual(['d/', 'd/one.txt', 'two.txt', 'three.txt']);
    expect((await run('unzip', ['-p', file, 'two.txt'])).stdout).toBe('world!');
    expect((await run('unzip', ['-p', file, 'three.txt'], { maxBuffer: 1 << 20 })).stdout).toBe('ab'.repeat(150_000));
    expect(bytes.length).toBeLessThan(10_000); // 300 kB of text deflated
  });
});

describe('previews', () => {
  it('answers the same preview under a trailing name, the stored name deciding the type (the PDF viewer titles it)', async () => {
    const txt = await text(admin, '说明.txt', '内容');
    const named = await admin.raw(namedPreviewUrl(txt.id, '说明.txt'));
    expect(named.status).toBe(200);
    expect(named.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await named.text()).toBe('内容');
    // a misleading name in the URL changes nothing
    const lying = await admin.raw(namedPreviewUrl(txt.id, 'x.html'));
    expect(lying.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(lying.headers.get('content-security-policy')).toBe('sandbox');
    await lying.text();
  });

  it('serves safe kinds inline with their type and Range; HTML and SVG have no preview, only a sandboxed download', async () => {
    const txt = await text(admin, 'preview.txt', 'plain <b>text</b>');
    const inline = await admin.raw(API.previewPrefix + txt.id);
    expect(inline.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(inline.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(inline.headers.get('x-content-type-options')).toBe('nosniff');
    expect(inline.headers.get('content-security-policy')).toBe('sandbox');
    expect(await inline.text()).toBe('plain <b>text</b>');
    const ranged = await admin.raw(API.previewPrefix + txt.id, { headers: { range: 'bytes=6-' } });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe('<b>text</b>');

    for (const [name, body] of [
      ['page.html', '<script>alert(1)</script>'],
      ['image.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
    ] as const) {
      const file = await text(admin, name, body);
      // A preview is a rendition or nothing, never the original as an attachment (byte-access.ts).
      expectError(await admin.get(API.previewPrefix + file.id), ERRORS.PREVIEW_UNSUPPORTED.code);
      const dl = await admin.raw(API.downloadPrefix + file.id);
      expect(dl.headers.get('content-type'), name).toBe('application/octet-stream');
      expect(dl.headers.get('content-disposition'), name).toMatch(/^attachment;/);
      expect(dl.headers.get('content-security-policy'), name).toBe('sandbox');
      expect(dl.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(await dl.text(), name).toBe(body);
      expectError(await admin.get(API.thumbnailPrefix + file.id), ERRORS.NO_THUMBNAIL.code);
    }
  });

  it('makes a WebP thumbnail of a picture, at most 256 px, and answers 304 to its ETag', async () => {
    const png = await sharp({ create: { width: 1200, height: 600, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer();
    const up = await uploadFile(admin, png, 'photo.png');
    const res = await admin.raw(API.thumbnailPrefix + up.body.data.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 128]);
    const again = await admin.raw(API.thumbnailPrefix + up.body.data.id, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
    await again.arrayBuffer();
    const inline = await admin.raw(API.previewPrefix + up.body.data.id);
    expect(inline.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await inline.arrayBuffer()).equals(png)).toBe(true);
  });

  it('decides the format by content: an SVG named .png gets no thumbnail (never rasterised); a JPEG named .png does', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" height="400" fill="red"/><script>alert(1)</script></svg>';
    const disguised = await text(admin, 'disguised.png', svg);
    expectError(await admin.get(API.thumbnailPrefix + disguised.id), ERRORS.NO_THUMBNAIL.code);
    const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 0, g: 90, b: 200 } } }).jpeg().toBuffer();
    const misnamed = await uploadFile(admin, jpeg, 'really-a-jpeg.png');
    const res = await admin.raw(API.thumbnailPrefix + misnamed.body.data.id);
    expect(res.status).toBe(200);
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).format).toBe('webp');
  });
});
