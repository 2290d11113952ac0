import { promises as fsp } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import { PERSONAL_FRAME_BRAND, PERSONAL_FRAME_LOGO } from '../../common/personal-frame';
import { CONTENT_SECURITY_POLICY } from '../../server/http/security-headers';
import { withBrand } from '../../server/routes/static-routes';
import type { SystemConfig } from '../../common/api/types';
import { startServer, type TestServer } from './helpers';

/**
 * How the built app is delivered (issues 13 and 19): security headers on every page response
 * (CSP with frame-ancestors 'none', X-Frame-Options, Referrer-Policy, Permissions-Policy, nosniff),
 * hashed assets precompressed and immutable, index.html revalidated (ETag → 304).
 */
let server: TestServer;
let staticDir: string;
const script = `console.log(${JSON.stringify('x'.repeat(5000))});`;

beforeAll(async () => {
  staticDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-static-'));
  await fsp.mkdir(path.join(staticDir, 'assets'));
  await fsp.writeFile(path.join(staticDir, 'index.html'), '<!doctype html><html><head><script type="module" src="/assets/app-Ab12Cd34.js"></script></head><body></body></html>');
  await fsp.writeFile(path.join(staticDir, 'link.html'), '<!doctype html><html><head><title>link pages</title><script type="module" src="/assets/link-Ab12Cd34.js"></script></head><body></body></html>');
  // 个人文件's frame (the build's personal.html), the brand to be written over its marks.
  await fsp.writeFile(path.join(staticDir, 'personal.html'), `<!doctype html><html><head><title>frame</title></head><body><div id="boot-frame"><img src="${PERSONAL_FRAME_LOGO}"><span>${PERSONAL_FRAME_BRAND}</span></div><div id="root"></div></body></html>`);
  await fsp.writeFile(path.join(staticDir, 'assets', 'app-Ab12Cd34.js'), script);
  await fsp.writeFile(path.join(staticDir, 'assets', 'app-Ab12Cd34.js.br'), brotliCompressSync(script));
  await fsp.writeFile(path.join(staticDir, 'assets', 'app-Ab12Cd34.js.gz'), gzipSync(script));
  server = await startServer({ staticDir });
});
afterAll(async () => {
  await server.close();
  await fsp.rm(staticDir, { recursive: true, force: true });
});

const get = (p: string, headers: Record<string, string> = {}) => fetch(server.baseUrl + p, { headers });

/** A raw GET (node:http): no automatic decompression, no headers added by a fetch implementation. */
function rawGet(p: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(server.baseUrl + p, { headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      })
      .on('error', reject);
  });
}
const statusOf = async (p: string, headers: Record<string, string>) => (await rawGet(p, headers)).status;

describe('page responses', () => {
  it('index.html and deep links carry the security headers and are revalidated', async () => {
    for (const p of ['/', '/main/file/personal?dir=abc']) {
      const res = await get(p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('permissions-policy')).toContain('camera=()');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      await res.text();
    }
    const first = await get('/index.html');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    await first.text();
    // node:http, not fetch: fetch adds Cache-Control: no-cache to a conditional request, as the fetch
    // standard says for a request it cannot cache itself, and the server rightly answers in full then.
    expect(await statusOf('/index.html', { 'if-none-match': etag! })).toBe(304);
  });

  it('个人文件 gets the frame with the brand written in, the same for everyone, revalidated; other pages index.html', async () => {
    const brand = (await (await get(API.systemConfig)).json()) as { data: { brandName: string; logo: string } };
    for (const p of ['/main/file/personal', '/main/file/personal?dir=abc']) {
      const res = await get(p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const html = await res.text();
      expect(html).toContain('<title>frame</title>');
      expect(html).toContain(`"><span>${brand.data.brandName}</span>`);
      expect(html).not.toContain(PERSONAL_FRAME_LOGO);
      expect(html).not.toContain(PERSONAL_FRAME_BRAND);
    }
    const etag = (await rawGet('/main/file/personal', {})).headers.etag;
    expect(etag).toBeTruthy();
    expect(await statusOf('/main/file/personal', { 'if-none-match': String(etag) })).toBe(304);
    const other = await (await get('/main/file/share')).text();
    expect(other).toContain('/assets/app-Ab12Cd34.js');
    expect(other).not.toContain('boot-frame');
  });

  it('个人文件 after a deployment into the running server: the new build\'s frame, never the old one naming chunks it no longer has', async () => {
    const framePath = path.join(staticDir, 'personal.html');
    const before = await fsp.readFile(framePath, 'utf8');
    const etag = (await rawGet('/main/file/personal', {})).headers.etag;
    try {
      // A new build writes its own personal.html (other chunk names) while the server keeps running.
      await fsp.writeFile(framePath, before.replace('<title>frame</title>', '<title>frame</title><link rel="modulepreload" href="/assets/shell-New12345.js">'));
      const html = await (await get('/main/file/personal')).text();
      expect(html).toContain('/assets/shell-New12345.js');
      expect(await statusOf('/main/file/personal', { 'if-none-match': String(etag) })).toBe(200);
      // Mid-deployment, without the file: the app's index.html, not an error.
      await fsp.rm(framePath);
      const meanwhile = await get('/main/file/personal');
      expect(meanwhile.status).toBe(200);
      expect(await meanwhile.text()).toContain('/assets/app-Ab12Cd34.js');
    } finally {
      await fsp.writeFile(framePath, before);
    }
    expect(await (await get('/main/file/personal')).text()).not.toContain('shell-New12345');
  });

  it("writes a brand name and logo into the frame as they are, even with a replacement pattern's `$&` or `$'` in them", () => {
    const frame = `<img src="${PERSONAL_FRAME_LOGO}"><span>${PERSONAL_FRAME_BRAND}</span>`;
    const config = { brandName: "云$&盘$'<b>", logo: '/l$`o$1.png' } as SystemConfig;
    expect(withBrand(frame, config)).toBe('<img src="/l$`o$1.png"><span>云$&amp;盘$&#39;&lt;b&gt;</span>');
  });

  it('share-link pages send no referrer at all (their address holds the token)', async () => {
    for (const p of ['/shareLink/AbCdEfGhIjKlMnOpQrStUvWxYz012345', '/openShareLink/AbCdEfGhIjKlMnOpQrStUvWxYz012345', '/downLoadM/AbCdEfGhIjKlMnOpQrStUvWxYz012345', '/shareLink']) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('referrer-policy'), p).toBe('no-referrer');
      expect(res.headers.get('content-security-policy'), p).toBe(CONTENT_SECURITY_POLICY);
      await res.text();
    }
    // Not a prefix match on look-alikes.
    const other = await get('/shareLinks');
    expect(other.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    await other.text();
  });

  it("an outsider's pages from a link get the link pages' lean entry (link.html), everything else the app", async () => {
    for (const p of ['/shareLink/AbCdEfGhIjKlMnOpQrStUvWxYz012345', '/downLoadM/AbCdEfGhIjKlMnOpQrStUvWxYz012345', '/downloadExceeded', '/shareLink/AbCd?x=1']) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(await res.text(), p).toContain('link pages');
      expect(res.headers.get('content-security-policy'), p).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers.get('cache-control'), p).toBe('no-cache');
    }
    expect((await get('/shareLink/AbCd')).headers.get('referrer-policy')).toBe('no-referrer');
    // In-app link pages, a bare /shareLink (paste a link: it needs a session), and the rest: the app.
    for (const p of ['/openShareLink/AbCdEfGhIjKlMnOpQrStUvWxYz012345', '/shareLink', '/shareLink/a/b', '/login', '/main/file/personal']) {
      expect(await (await get(p)).text(), p).not.toContain('link pages');
    }
  });

  it('API answers are nosniff and keep their own policy', async () => {
    const res = await get(API.systemConfig);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBeNull();
    await res.text();
  });
});

describe('hashed assets', () => {
  it('are sent precompressed (brotli, else gzip, else as they are), immutable for a year, with Vary', async () => {
    const br = await rawGet('/assets/app-Ab12Cd34.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toContain('javascript');
    expect(brotliDecompressSync(br.body).toString()).toBe(script);

    const gz = await rawGet('/assets/app-Ab12Cd34.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);

    const plain = await rawGet('/assets/app-Ab12Cd34.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });
});
