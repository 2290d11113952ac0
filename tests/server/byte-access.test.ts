import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API, downloadUrl, linkPreviewUrl, namedPreviewUrl, previewUrl, zipDownloadUrl } from '../../common/api/paths';
import type { LinkDownloadResponse, LinkSaveResponse, MyLinksResponse } from '../../common/api/sharing';
import { FILE_CATEGORY, type FileEntry, type SynContentResponse } from '../../common/api/types';
import type { FileMessage } from '../../common/api/notices';
import { expectError, mkdir, text } from './file-kit';
import { allMessages } from './notice-kit';
import { ADMIN, Client, describeFile, liftPasswordGate, loggedInClient, MEMBER, randomContent, startServer, uploadFile, userIdOf, type TestServer } from './helpers';
import { department, fetchBytes, link, openLink, person, share, type Person } from './sharing-kit';

/**
 * Issue 35, finding 1: what a caller may do with a file's bytes is one decision (common/api/byte-access.ts).
 * A preview is a rendition a browser shows inline, never an attachment of the original; a type with no
 * rendition answers PREVIEW_UNSUPPORTED for everyone; a preview never substitutes for a (counted)
 * download; content fingerprints go only to callers who may read the original.
 */
let server: TestServer;
let owner: Person; // 'member', who shares
let viewer: Person; // preview-only recipient
let taker: Person; // download recipient
const anonymous = () => new Client(server.baseUrl);
const WHOLE_AND_RANGED: Array<Record<string, string>> = [{}, { range: 'bytes=0-' }];

/** A small PDF (the type is decided by the stored name; the bytes only need to look like one). */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

beforeAll(async () => {
  server = await startServer();
  const admin = await loggedInClient(server, ADMIN);
  await liftPasswordGate(server, MEMBER.username);
  owner = { id: await userIdOf(server, 'member'), account: 'member', client: await loggedInClient(server, MEMBER) };
  const dept = await department(admin, '字节部');
  viewer = await person(server, admin, 'viewer', dept);
  taker = await person(server, admin, 'taker', dept);
});
afterAll(async () => {
  await server.close();
});

/** The answer must be the coded refusal, carrying no byte of `content`. */
async function expectNoRendition(res: Response, content: Buffer, label: string): Promise<void> {
  const body = Buffer.from(await res.arrayBuffer());
  expect(res.status, label).toBe(400);
  expect(res.headers.get('content-disposition'), label).toBeNull();
  expect(JSON.parse(body.toString('utf8')), label).toEqual({ errorCode: ERRORS.PREVIEW_UNSUPPORTED.code, errorMessage: '该文件类型不支持预览' });
  expect(body.includes(content.subarray(0, 16)), label).toBe(false);
}

describe('preview through a preview-only share', () => {
  let bin: FileEntry;
  let binBytes: Buffer;

  beforeAll(async () => {
    binBytes = randomContent(3000);
    bin = (await uploadFile(owner.client, binBytes, 'report.bin')).body.data;
    await share(owner.client, [bin.id], [{ type: 'user', id: viewer.id }], 'preview');
  });

  it('a .bin answers PREVIEW_UNSUPPORTED through both preview routes, with /x.pdf appended and with Range', async () => {
    // Download, ZIP and copy were refused before; they still are.
    expectError(await viewer.client.get(downloadUrl(bin.id)), ERRORS.SHARE_PREVIEW_ONLY.code);
    expectError(await viewer.client.get(zipDownloadUrl([bin.id])), ERRORS.SHARE_PREVIEW_ONLY.code);
    expectError(await viewer.client.post(API.copy, { ids: [bin.id], targetParentId: null, targetCategory: 1 }), ERRORS.SHARE_PREVIEW_ONLY.code);
    for (const path of [previewUrl(bin.id), namedPreviewUrl(bin.id, 'x.pdf'), namedPreviewUrl(bin.id, 'report.bin')]) {
      for (const headers of [{}, { range: 'bytes=0-' }, { range: 'bytes=0-99' }] as Array<Record<string, string>>) {
        await expectNoRendition(await viewer.client.raw(path, { headers }), binBytes, `${path} ${JSON.stringify(headers)}`);
      }
    }
  });

  it('a PDF and a text are shown inline with no-store, never as an attachment', async () => {
    const pdf = (await uploadFile(owner.client, PDF, '方案.pdf')).body.data;
    const note = await text(owner.client, 'note.txt', '只给你看');
    await share(owner.client, [pdf.id, note.id], [{ type: 'user', id: viewer.id }], 'preview');
    for (const [path, type, body] of [
      [namedPreviewUrl(pdf.id, '方案.pdf'), 'application/pdf', PDF],
      [previewUrl(note.id), 'text/plain; charset=utf-8', Buffer.from('只给你看')],
    ] as const) {
      const res = await fetchBytes(viewer.client, path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe(type);
      expect(res.headers.get('content-disposition'), path).toMatch(/^inline;/);
      expect(res.headers.get('cache-control'), path).toBe('private, no-store');
      expect(res.body.equals(body), path).toBe(true);
      // No content fingerprint, not even as the ETag (the owner's preview has it).
      expect(res.headers.get('etag'), path).not.toContain(describeFile(body).fingerprint);
      expect((await fetchBytes(owner.client, path)).headers.get('etag'), path).toBe(`"${describeFile(body).fingerprint}"`);
    }
  });
});

describe('preview through a link', () => {
  it('a preview-only link: a .bin answers PREVIEW_UNSUPPORTED, also with Range', async () => {
    const bytes = randomContent(2000);
    const f = (await uploadFile(owner.client, bytes, 'link-report.bin')).body.data;
    const target = await link(owner.client, f.id, { previewOnly: true });
    const visitor = anonymous();
    const opened = await openLink(visitor, target.token, target.code);
    expectError(await visitor.post(API.linkDownload, { visit: opened.visit, ids: [f.id] }), ERRORS.SHARE_PREVIEW_ONLY.code);
    for (const headers of WHOLE_AND_RANGED) {
      await expectNoRendition(await visitor.raw(linkPreviewUrl(f.id, opened.visit), { headers }), bytes, JSON.stringify(headers));
    }
  });

  it('a used-up download limit: the preview URL never serves the original, an inline rendition still shows', async () => {
    const folder = await mkdir(owner.client, '外发一次');
    const bytes = randomContent(2500);
    const bin = (await uploadFile(owner.client, bytes, 'once.bin', { parentId: folder.id })).body.data;
    const note = await text(owner.client, 'readme.txt', '说明文字', folder.id);
    const target = await link(owner.client, folder.id, { downloadLimit: 1 });
    const visitor = anonymous();
    const opened = await openLink(visitor, target.token, target.code);
    const first = await visitor.post<{ data: LinkDownloadResponse }>(API.linkDownload, { visit: opened.visit, ids: [bin.id] });
    expect(first.body.data.downloadsLeft).toBe(0);
    expect((await fetchBytes(visitor, first.body.data.url)).body.equals(bytes)).toBe(true);
    const again = await visitor.post(API.linkDownload, { visit: opened.visit, ids: [bin.id] });
    expect(again.body).toMatchObject({ errorCode: ERRORS.DOWNLOAD_EXCEEDED.code });
    for (let i = 0; i < 3; i++) {
      for (const headers of WHOLE_AND_RANGED) {
        await expectNoRendition(await visitor.raw(linkPreviewUrl(bin.id, opened.visit), { headers }), bytes, `#${i} ${JSON.stringify(headers)}`);
      }
    }
    const shown = await fetchBytes(visitor, linkPreviewUrl(note.id, opened.visit));
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(shown.body.toString('utf8')).toBe('说明文字');
    const mine = await owner.client.post<{ data: MyLinksResponse }>(API.linkMine, {});
    expect(mine.body.data.items.find((l) => l.id === target.id)).toMatchObject({ downloads: 1, state: 'exhausted' });
  });

  it('saving into 个人文件 takes the original: it is a counted download, refused once the limit is used up', async () => {
    const f = await text(owner.client, 'save-once.txt', '一份');
    const target = await link(owner.client, f.id, { downloadLimit: 1 });
    const opened = await openLink(taker.client, target.token, target.code);
    const saved = await taker.client.post<{ data: LinkSaveResponse }>(API.linkSave, { visit: opened.visit, ids: [f.id], targetParentId: null });
    expect(saved.body).toEqual({ data: { saved: 1 } });
    const again = await taker.client.post(API.linkSave, { visit: opened.visit, ids: [f.id], targetParentId: null });
    expect(again.status).toBe(500);
    expect(again.body).toMatchObject({ errorCode: ERRORS.DOWNLOAD_EXCEEDED.code });
    expect((await taker.client.post(API.linkDownload, { visit: opened.visit, ids: [f.id] })).body).toMatchObject({ errorCode: ERRORS.DOWNLOAD_EXCEEDED.code });
    const mine = await owner.client.post<{ data: MyLinksResponse }>(API.linkMine, {});
    expect(mine.body.data.items.find((l) => l.id === target.id)).toMatchObject({ downloads: 1, state: 'exhausted' });
    // The sharer hears of it as of a download (messages are written after the answer).
    const deadline = Date.now() + 10_000;
    let heard: FileMessage[] = [];
    while (heard.length === 0 && Date.now() < deadline) {
      heard = (await allMessages(owner.client)).filter((m) => m.type === 'link.downloaded' && m.file?.id === f.id);
      if (heard.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(heard).toHaveLength(1);
  });
});

describe('preview is never a download, for anyone', () => {
  it('the owner previewing a type with no rendition gets PREVIEW_UNSUPPORTED; the download is the way to the original', async () => {
    const bytes = randomContent(1500);
    const f = (await uploadFile(owner.client, bytes, 'own.bin')).body.data;
    await expectNoRendition(await owner.client.raw(previewUrl(f.id)), bytes, 'own preview');
    const dl = await fetchBytes(owner.client, downloadUrl(f.id));
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(dl.body.equals(bytes)).toBe(true);
  });
});

describe('content fingerprints', () => {
  it('go to a download recipient of a synced folder, never to a preview-only one', async () => {
    const synced = { category: FILE_CATEGORY.synced };
    const folder = await mkdir(owner.client, '同步资料', null, synced);
    const inner = await mkdir(owner.client, '子目录', folder.id, synced);
    await text(owner.client, 'a.txt', '甲', folder.id, synced);
    await text(owner.client, 'b.txt', '乙', inner.id, synced);
    await share(owner.client, [folder.id], [{ type: 'user', id: viewer.id }], 'preview');
    await share(owner.client, [folder.id], [{ type: 'user', id: taker.id }], 'download');
    const listing = async (client: Client) => {
      const res = await client.post<{ data: SynContentResponse }>(API.syncContent, { rootId: folder.id, token: null });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.items.filter((i) => !i.isDir).map((i) => [i.name, i.fingerprint]).sort();
    };
    const own = await listing(owner.client);
    expect(own.map(([, fp]) => typeof fp)).toEqual(['string', 'string']);
    expect(await listing(taker.client)).toEqual(own);
    expect(await listing(viewer.client)).toEqual([
      ['a.txt', null],
      ['b.txt', null],
    ]);
  });
});
