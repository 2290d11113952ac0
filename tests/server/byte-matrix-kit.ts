import sharp from 'sharp';
import { expect } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API, downloadUrl, linkPreviewUrl, linkThumbnailUrl, namedPreviewUrl, previewUrl, thumbnailUrl, versionDownloadUrl, zipDownloadUrl } from '../../common/api/paths';
import type { LinkDownloadResponse } from '../../common/api/sharing';
import type { CreateTxtResponse, FileEntry, VersionListResponse } from '../../common/api/types';
import { mkdir } from './file-kit';
import { randomContent, uploadFile, type Client } from './helpers';
import { link, openLink, share } from './sharing-kit';

/**
 * The byte-serving routes × grant kinds (issue 35; the rules: common/api/byte-access.ts), run by the
 * access matrix on its server. Each cell names what the answer must be; every cell is asked for real.
 */

interface StoredFile {
  id: string;
  bytes: Buffer;
}

export interface ByteFixture {
  folderId: string;
  txt: StoredFile;
  bin: StoredFile;
  png: StoredFile;
  /** The txt's earlier version. */
  version: StoredFile;
}

/**
 * - original: the stored bytes as an attachment; zip: an archive attachment;
 * - inline / inline-no-store: the bytes as they are, shown inline (no-store: a view-only grant);
 * - marked: a WebP of the picture with the viewer burnt in (no-store); thumb: a WebP thumbnail;
 * - saved: copied into the visitor's 个人文件;
 * - no-rendition: PREVIEW_UNSUPPORTED; preview-only: SHARE_PREVIEW_ONLY; not-found: 404;
 *   visit-gone: LINK_VISIT_EXPIRED (no link was opened).
 */
export type Outcome = 'original' | 'zip' | 'inline' | 'inline-no-store' | 'marked' | 'thumb' | 'saved' | 'no-rendition' | 'preview-only' | 'not-found' | 'visit-gone';

export const SESSION_GRANTS = ['owner', 'download share', 'preview share', 'none', 'other tenant'] as const;
export type SessionGrant = (typeof SESSION_GRANTS)[number];
export const LINK_GRANTS = ['link', 'preview-only link', 'no link'] as const;
export type LinkGrant = (typeof LINK_GRANTS)[number];

type FileKey = 'txt' | 'bin' | 'png' | 'version';
interface SessionRoute {
  file: FileKey;
  path: (f: ByteFixture) => string;
  headers?: Record<string, string>;
  cells: Record<SessionGrant, Outcome>;
}

const SESSION_DENIED = { none: 'not-found', 'other tenant': 'not-found' } as const;

export const SESSION_ROUTES: Record<string, SessionRoute> = {
  'GET download (text)': { file: 'txt', path: (f) => downloadUrl(f.txt.id), cells: { owner: 'original', 'download share': 'original', 'preview share': 'preview-only', ...SESSION_DENIED } },
  'GET download (.bin), Range bytes=0-': {
    file: 'bin',
    path: (f) => downloadUrl(f.bin.id),
    headers: { range: 'bytes=0-' },
    cells: { owner: 'original', 'download share': 'original', 'preview share': 'preview-only', ...SESSION_DENIED },
  },
  'GET version download': { file: 'version', path: (f) => versionDownloadUrl(f.version.id), cells: { owner: 'original', 'download share': 'original', 'preview share': 'preview-only', ...SESSION_DENIED } },
  'GET zip (folder)': { file: 'txt', path: (f) => zipDownloadUrl([f.folderId]), cells: { owner: 'zip', 'download share': 'zip', 'preview share': 'preview-only', ...SESSION_DENIED } },
  'GET preview (text)': { file: 'txt', path: (f) => previewUrl(f.txt.id), cells: { owner: 'inline', 'download share': 'inline', 'preview share': 'inline-no-store', ...SESSION_DENIED } },
  'GET preview (picture)': { file: 'png', path: (f) => previewUrl(f.png.id), cells: { owner: 'inline', 'download share': 'inline', 'preview share': 'marked', ...SESSION_DENIED } },
  'GET preview (.bin)': { file: 'bin', path: (f) => previewUrl(f.bin.id), cells: { owner: 'no-rendition', 'download share': 'no-rendition', 'preview share': 'no-rendition', ...SESSION_DENIED } },
  'GET preview (.bin)/x.pdf, Range bytes=0-': {
    file: 'bin',
    path: (f) => namedPreviewUrl(f.bin.id, 'x.pdf'),
    headers: { range: 'bytes=0-' },
    cells: { owner: 'no-rendition', 'download share': 'no-rendition', 'preview share': 'no-rendition', ...SESSION_DENIED },
  },
  'GET thumbnail (picture)': { file: 'png', path: (f) => thumbnailUrl(f.png.id), cells: { owner: 'thumb', 'download share': 'thumb', 'preview share': 'thumb', ...SESSION_DENIED } },
};

interface LinkRoute {
  file: FileKey;
  /** The answer to judge, asked with the visit key (a ticket is issued first where the route is a download). */
  ask: (visitor: Client, visit: string, f: ByteFixture) => Promise<Response>;
  cells: Record<LinkGrant, Outcome>;
}

/** Issues a download of `ids` and fetches its ticket (or answers the refusal as it came). */
async function throughTicket(visitor: Client, visit: string, ids: string[]): Promise<Response> {
  const issued = await visitor.raw(API.linkDownload, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ visit, ids }) });
  if (issued.status !== 200) return issued;
  const { data } = (await issued.json()) as { data: LinkDownloadResponse };
  return visitor.raw(data.url);
}

export const LINK_ROUTES: Record<string, LinkRoute> = {
  'GET shareLink/preview (text)': {
    file: 'txt',
    ask: (c, v, f) => c.raw(linkPreviewUrl(f.txt.id, v)),
    cells: { link: 'inline', 'preview-only link': 'inline-no-store', 'no link': 'visit-gone' },
  },
  'GET shareLink/preview (picture)': {
    file: 'png',
    ask: (c, v, f) => c.raw(linkPreviewUrl(f.png.id, v)),
    cells: { link: 'inline', 'preview-only link': 'marked', 'no link': 'visit-gone' },
  },
  'GET shareLink/preview (.bin), Range bytes=0-': {
    file: 'bin',
    ask: (c, v, f) => c.raw(linkPreviewUrl(f.bin.id, v), { headers: { range: 'bytes=0-' } }),
    cells: { link: 'no-rendition', 'preview-only link': 'no-rendition', 'no link': 'visit-gone' },
  },
  'GET shareLink/thumbnail (picture)': {
    file: 'png',
    ask: (c, v, f) => c.raw(linkThumbnailUrl(f.png.id, v)),
    cells: { link: 'thumb', 'preview-only link': 'thumb', 'no link': 'visit-gone' },
  },
  'POST shareLink/download + GET its ticket (.bin)': {
    file: 'bin',
    ask: (c, v, f) => throughTicket(c, v, [f.bin.id]),
    cells: { link: 'original', 'preview-only link': 'preview-only', 'no link': 'visit-gone' },
  },
  'POST shareLink/download + GET its ticket (folder, ZIP)': {
    file: 'txt',
    ask: (c, v, f) => throughTicket(c, v, [f.folderId]),
    cells: { link: 'zip', 'preview-only link': 'preview-only', 'no link': 'visit-gone' },
  },
  'POST shareLink/save (text)': {
    file: 'txt',
    ask: (c, v, f) => c.raw(API.linkSave, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ visit: v, ids: [f.txt.id], targetParentId: null }) }),
    cells: { link: 'saved', 'preview-only link': 'preview-only', 'no link': 'visit-gone' },
  },
};

const coded = (def: { code: string }, status: number) => ({ def, status });
const REFUSALS: Partial<Record<Outcome, { def: { code: string }; status: number }>> = {
  'no-rendition': coded(ERRORS.PREVIEW_UNSUPPORTED, 400),
  'preview-only': coded(ERRORS.SHARE_PREVIEW_ONLY, 400),
  'not-found': coded(ERRORS.NOT_FOUND, 404),
  'visit-gone': coded(ERRORS.LINK_VISIT_EXPIRED, 400),
};

/** What is wrong with an answer for its cell (null when it is right); never leaves a body unread. */
export async function judge(res: Response, outcome: Outcome, file: StoredFile): Promise<string | null> {
  const body = Buffer.from(await res.arrayBuffer());
  const disposition = res.headers.get('content-disposition') ?? '';
  const got = `${res.status} ${disposition.split(';')[0] || '-'} ${res.headers.get('cache-control') ?? '-'} ${body.length} bytes${body.equals(file.bytes) ? ' (the original)' : ''}`;
  const wrong = (why: string) => `${why}; got ${got}${res.status >= 300 ? ` ${body.subarray(0, 120).toString('utf8')}` : ''}`;
  const refusal = REFUSALS[outcome];
  if (refusal) {
    let code: unknown;
    try {
      code = (JSON.parse(body.toString('utf8')) as { errorCode?: string }).errorCode;
    } catch {
      code = undefined;
    }
    return res.status === refusal.status && code === refusal.def.code && !disposition ? null : wrong(`want ${refusal.status} ${refusal.def.code}`);
  }
  if (res.status >= 300) return wrong('want a success');
  const type = res.headers.get('content-type');
  const cache = res.headers.get('cache-control');
  switch (outcome) {
    case 'original':
      return disposition.startsWith('attachment;') && body.equals(file.bytes) ? null : wrong('want the original as an attachment');
    case 'zip':
      return type === 'application/zip' && disposition.startsWith('attachment;') ? null : wrong('want a ZIP attachment');
    case 'inline':
    case 'inline-no-store': {
      const wantCache = outcome === 'inline' ? 'private, no-cache' : 'private, no-store';
      return disposition.startsWith('inline;') && cache === wantCache && body.equals(file.bytes) ? null : wrong(`want the bytes inline, ${wantCache}`);
    }
    case 'marked':
      return type === 'image/webp' && cache === 'private, no-store' && !body.equals(file.bytes) ? null : wrong('want a watermarked WebP, no-store');
    case 'thumb':
      return type === 'image/webp' ? null : wrong('want a WebP thumbnail');
    case 'saved':
      return body.toString('utf8') === JSON.stringify({ data: { saved: 1 } }) ? null : wrong('want {saved: 1}');
    default:
      return wrong(`unknown outcome ${outcome}`);
  }
}

/** The folder and files of the matrix, owned by `owner`, with one earlier version of the text. */
export async function byteFixture(owner: Client): Promise<ByteFixture> {
  const folder = await mkdir(owner, 'byte-matrix');
  const txtName = 'doc.txt';
  const first = await owner.post<{ data: CreateTxtResponse }>(API.createTxt, { parentId: folder.id, category: 1, name: txtName, content: 'one' });
  const txt = (first.body.data as { file: FileEntry }).file;
  const held = await owner.post<{ data: { holdId: string } }>(API.createTxt, { parentId: folder.id, category: 1, name: txtName, content: 'two' });
  expect((await owner.post(API.keepOnCreateTxt, { holdId: held.body.data.holdId, decision: 'newVersion' })).status).toBe(200);
  const versions = await owner.post<{ data: VersionListResponse }>(API.versionList, { id: txt.id });
  const binBytes = randomContent(3000);
  const pngBytes = await sharp({ create: { width: 160, height: 120, channels: 3, background: { r: 250, g: 250, b: 250 } } }).png().toBuffer();
  const bin = (await uploadFile(owner, binBytes, 'blob.bin', { parentId: folder.id })).body.data;
  const png = (await uploadFile(owner, pngBytes, 'picture.png', { parentId: folder.id })).body.data;
  return {
    folderId: folder.id,
    txt: { id: txt.id, bytes: Buffer.from('two') },
    bin: { id: bin.id, bytes: binBytes },
    png: { id: png.id, bytes: pngBytes },
    version: { id: versions.body.data.versions.find((v) => !v.current)!.id, bytes: Buffer.from('one') },
  };
}

/** Gives the grants: a download and a preview share of the folder, and two links (one preview-only) opened by `visitor`. */
export async function grantBytes(owner: Client, f: ByteFixture, recipients: { download: string; preview: string }, visitor: Client): Promise<Record<Exclude<LinkGrant, 'no link'>, string>> {
  await share(owner, [f.folderId], [{ type: 'user', id: recipients.download }], 'download');
  await share(owner, [f.folderId], [{ type: 'user', id: recipients.preview }], 'preview');
  const plain = await link(owner, f.folderId);
  const previewOnly = await link(owner, f.folderId, { previewOnly: true });
  return {
    link: (await openLink(visitor, plain.token, plain.code)).visit,
    'preview-only link': (await openLink(visitor, previewOnly.token, previewOnly.code)).visit,
  };
}

export function fileOf(f: ByteFixture, key: FileKey): StoredFile {
  return f[key];
}
