import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { LinkSummary } from '../../common/api/sharing';
import type { SystemConfig } from '../../common/api/types';
import { LINK_PAGE_DATA_ID, LINK_PAGE_SLOT_END, LINK_PAGE_SLOT_START, type ServedLinkPage } from '../../common/link-page/served';
import { LINK_PAGE_TEMPLATE_FILE, linkPageHole as hole, type LinkPageTemplates } from '../../common/link-page/template';
import { text } from './file-kit';
import { ADMIN, Client, loggedInClient, startServer, withDb, type TestServer } from './helpers';
import { link } from './sharing-kit';

/**
 * Issue 44 item 6: a share link's page comes with the link drawn in (server/routes/link-page-html.ts),
 * so it paints before any script. What it draws is exactly what the summary call tells a visitor
 * without a session — escaped — and a link that ended shows its end, never its file.
 */
let server: TestServer;
let staticDir: string;
let admin: Client;
const LOADING = '<div aria-busy="true">加载中…</div>';
const HOSTILE_SHARER = `<img src=x onerror="alert(1)">&'张三`;
const HOSTILE_NAME = `</script><script>alert(2)</script>报告.txt`;
/** The build's templates in short (tests/unit/src/link-page-template.test.ts checks the real ones are React's markup). */
function templates(): LinkPageTemplates {
  const brand = `<span title="${hole('brand')}"><img src="${hole('logo')}">${hole('brand')}</span>`;
  const summary = `<section data-testid="link-summary">${hole('initial')}<strong>${hole('sharer')}</strong>${hole('shared')}<span class="lp-kind">${hole('icon')}</span><div>${hole('name')}</div>${hole('detail')}<div>${hole('expiry')}</div></section>`;
  const page = (body: string) => ({ wide: `<main class="lp-main">${brand}${body}</main>`, compact: `<main class="lp-main lp-compact">${brand}${body}</main>` });
  const icon = (kind: string) => `<span data-kind="${kind}"><svg></svg></span>`;
  return {
    pages: { code: page(`${summary}<input data-testid="link-code-entry">`), opening: page(`${summary}<div data-testid="link-opening"></div>`), gone: page('<div data-testid="link-gone">分享链接已失效</div>') },
    icons: { word: icon('word'), excel: icon('excel'), ppt: icon('ppt'), pdf: icon('pdf'), txt: icon('txt'), picture: icon('picture'), video: icon('video'), music: icon('music'), package: icon('package'), unknown: icon('unknown'), folder: icon('folder'), groupFolder: icon('groupFolder') },
  };
}

beforeAll(async () => {
  staticDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-link-page-'));
  await fsp.writeFile(path.join(staticDir, 'index.html'), '<!doctype html><html><head><title>app</title></head><body><div id="root"></div></body></html>');
  await fsp.writeFile(
    path.join(staticDir, 'link.html'),
    `<!doctype html><html><head><title>分享链接</title><script type="module" src="/assets/link-Ab12.js"></script></head><body><div id="root">${LINK_PAGE_SLOT_START}${LOADING}${LINK_PAGE_SLOT_END}</div></body></html>`,
  );
  await fsp.writeFile(path.join(staticDir, LINK_PAGE_TEMPLATE_FILE), JSON.stringify(templates()));
  server = await startServer({ staticDir });
  admin = await loggedInClient(server, ADMIN);
});
afterAll(async () => {
  await server.close();
  await fsp.rm(staticDir, { recursive: true, force: true });
});

const page = async (p: string, cookie?: string) => {
  const res = await fetch(server.baseUrl + p, { headers: cookie ? { cookie } : {} });
  return { status: res.status, headers: res.headers, html: await res.text() };
};
function dataOf(html: string): ServedLinkPage {
  const m = new RegExp(`<script type="application/json" id="${LINK_PAGE_DATA_ID}">([^<]*)</script>`).exec(html);
  if (!m) throw new Error('no data block');
  return JSON.parse(m[1]!) as ServedLinkPage;
}
const setSwitch = async (on: boolean) => expect((await admin.raw(API.switchPublicDownload, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `value=${on ? 1 : 0}` })).status).toBe(200);

describe("a link's page drawn by the server", () => {
  it('names the sharer and the file with the code entry, escaped, and carries exactly what the summary call tells a visitor without a session', async () => {
    const f = await text(admin, 'hostile.txt', 'x');
    await withDb(server, (db) => {
      db.prepare("update users set nick_name = ? where username = 'admin'").run(HOSTILE_SHARER);
      db.prepare('update files set name = ? where id = ?').run(HOSTILE_NAME, f.id);
    });
    const l = await link(admin, f.id, { code: 'k7m2', validityDays: 7 });
    const res = await page(`/shareLink/${l.token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const { html } = res;
    expect(html).not.toContain(LOADING);
    expect(html).toContain('data-testid="link-summary"');
    expect(html).toContain('data-testid="link-code-entry"');
    expect(html).toContain('data-kind="txt"');
    // Escaped where they are shown, and unable to leave the data block.
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#x27;张三');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;报告.txt');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>alert(2)');
    expect(html.match(/<script/g)).toHaveLength(2); // the build's module and the data block
    // The data block is outside #root, which holds only what React renders there.
    expect(html.indexOf(`id="${LINK_PAGE_DATA_ID}"`)).toBeGreaterThan(html.indexOf('</main></div>'));
    // Exactly the summary and the brand an anonymous visitor gets from the calls.
    const visitor = new Client(server.baseUrl);
    const summary = (await visitor.post<{ data: LinkSummary }>(API.linkSummary, { token: l.token })).body.data;
    const config = (await visitor.get<{ data: SystemConfig }>(API.systemConfig)).body.data;
    expect(dataOf(html)).toEqual({ token: l.token, summary, config });
    expect(summary).toMatchObject({ needCode: true, sharedBy: { nickName: HOSTILE_SHARER }, name: HOSTILE_NAME });
    // Nothing the visitor may not see: no code, no ids, no counts.
    expect(html).not.toContain('k7m2');
    expect(html).not.toContain(f.id);
    expect(html).not.toContain(l.id);
    expect(html).toContain(`<title>${config.brandName} · 分享</title>`);
  });

  it('a link without a code shows its summary while it opens; /downLoadM is the tight page', async () => {
    const f = await text(admin, 'open-at-once.txt', 'x');
    // The tenant asks for codes (keyCreate): a link made before it did has none.
    const l = await link(admin, f.id, { code: 'ab12' });
    await withDb(server, (db) => db.prepare('update share_links set code_sealed = null where id = ?').run(l.id));
    const open = await page(`/shareLink/${l.token}`);
    expect(open.html).toContain('data-testid="link-opening"');
    expect(open.html).not.toContain('data-testid="link-code-entry"');
    const phone = await page(`/downLoadM/${l.token}`);
    expect(phone.html).toContain('class="lp-main lp-compact"');
  });

  it('a revoked, an expired and an unknown link show their end and nothing of the file', async () => {
    const revoked = await link(admin, (await text(admin, 'revoked-secret.txt', 'x')).id, { code: 'ab12' });
    expect((await admin.post(API.linkRevoke, { ids: [revoked.id] })).status).toBe(200);
    const expired = await link(admin, (await text(admin, 'expired-secret.txt', 'x')).id, { code: 'ab12', validityDays: 7 });
    await withDb(server, (db) => db.prepare('update share_links set expires_at = ? where id = ?').run(Date.now() - 1000, expired.id));
    for (const [token, secret] of [[revoked.token, 'revoked-secret'], [expired.token, 'expired-secret'], ['A'.repeat(32), null]] as const) {
      const { status, html } = await page(`/shareLink/${token}`);
      expect(status).toBe(200);
      expect(html).toContain('data-testid="link-gone"');
      expect(html).toContain('分享链接已失效');
      expect(html).not.toContain('data-testid="link-summary"');
      if (secret) expect(html).not.toContain(secret);
      expect(dataOf(html)).toMatchObject({ token, gone: true });
      expect(Object.keys(dataOf(html)).sort()).toEqual(['config', 'gone', 'token']);
    }
  });

  it('publicDownLoad off (about the public space\'s downloads) draws the page alike, with or without a session', async () => {
    const f = await text(admin, 'drawn-anyway.txt', 'x');
    const l = await link(admin, f.id, { code: 'ab12' });
    await setSwitch(false);
    try {
      for (const cookie of [undefined, admin.cookie]) {
        const { html } = await page(`/shareLink/${l.token}`, cookie);
        expect(html).toContain('drawn-anyway.txt');
        expect(html).toContain(LINK_PAGE_DATA_ID);
      }
    } finally {
      await setSwitch(true);
    }
  });

  it('is sent compressed when the browser accepts it', async () => {
    const l = await link(admin, (await text(admin, 'compressed.txt', 'x')).id, { code: 'ab12' });
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(`${server.baseUrl}/shareLink/${l.token}`, { headers: { 'accept-encoding': encoding } });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(await res.text()).toContain('compressed.txt');
    }
  });

  it('/downloadExceeded and the app are sent as built', async () => {
    expect((await page('/downloadExceeded')).html).toContain(LOADING);
    expect((await page('/main/file/personal')).html).toContain('<title>app</title>');
  });
});
