/**
 * What a caller may do with a file's bytes (issue 35): ONE decision, written here once and asked by
 * every route that sends bytes or hands the original elsewhere. The server asks it through ByteGate
 * (server/services/sharing/byte-gate.ts); the web app reads the same rules to offer 预览 and 下载.
 *
 * Uses:
 * - view: a rendition a browser shows inline, nothing more — the preview routes
 *   (`GET /api/file/preview/:id`, `…/:id/:name`, `GET /api/v2/shareLink/preview/:id?v=`) and the
 *   thumbnails. A rendition is a picture, a PDF, a text or CSV (as text/plain), an audio or a video as
 *   it is, with its inline type (common/files/preview.ts); Range works on it. Through a grant that
 *   allows only viewing (a 预览 share, a preview-only link) a picture is a WebP with the viewer and the
 *   time burnt in, and every answer is `Cache-Control: private, no-store`. A type with no rendition
 *   answers PREVIEW_UNSUPPORTED (该文件类型不支持预览) to EVERY caller, the owner too: a preview is
 *   never an attachment of the original, never counted, and never a way around a download's rules (a
 *   link whose downloads are used up still shows renditions, and only renditions).
 * - read: the original kept by the caller without an attachment — copying or moving out of a share,
 *   saving a link's entries into 个人文件, and the content fingerprints of the sync listing
 *   (`POST /api/syn/content` answers `fingerprint: null` to a caller who may not read).
 * - download: the original as an attachment — download, version download, ZIP, and a link's
 *   download ticket (the counted copy; the ticket rules are beside the link types in sharing.ts).
 * - edit: giving a file new content or renaming inside a share (uploading a version, restoring one).
 *
 * | grant                                   | view | read    | download | edit              |
 * |-----------------------------------------|------|---------|----------|-------------------|
 * | own entry, or a space the caller is in  | yes  | yes     | yes      | the space role    |
 * | share 预览 (preview)                     | yes  | no      | no       | no                |
 * | share 下载 (download)                    | yes  | yes     | yes      | no                |
 * | share 编辑 (edit)                        | yes  | yes     | yes      | yes               |
 * | link, preview-only                      | yes  | no      | no       | no                |
 * | approval: the current approver of a     | yes  | no      | no       | no                |
 * |   pending application, its own entries  |      |         |          |                   |
 * | link                                    | yes  | counted | counted  | no                |
 * | a link's download ticket                | no   | no      | yes      | no                |
 * | none, another tenant                    | 404 before this decision, like an unknown id |
 *
 * "approval": an approver judges what they are asked to let out (`GET /api/v2/shareApply/preview/:id`),
 * only while the application waits for them, only the files it names (not what lies in a folder it
 * names), as a 预览 share would show them — and nobody else through it.
 *
 * "counted": each use takes one of the link's downloads (DOWNLOAD_EXCEEDED past the limit); saving
 * into 个人文件 counts like a download, since the saved copy is the original. A "no" answers
 * SHARE_PREVIEW_ONLY where the grant allows viewing only, FORBIDDEN otherwise. After this decision
 * the exchange area's crossing rule still applies (sharing.ts).
 */
import { fileKindOf } from '../files/kind';
import { documentKindOf } from '../files/documents';
import { previewTypeOf } from '../files/preview';
import type { SharePermission } from './sharing';

export type ByteUse = 'view' | 'read' | 'download' | 'edit';

/** What lets the caller at the bytes (after the tenant and space checks found the entry). */
export type ByteGrant =
  | { via: 'own' }
  | { via: 'share'; permission: SharePermission }
  | { via: 'link'; previewOnly: boolean }
  | { via: 'approval' }
  | { via: 'ticket' };

/**
 * - yes: allowed;
 * - counted: allowed as one of the link's downloads (the caller claims it);
 * - view-only: refused, the grant allows viewing only (SHARE_PREVIEW_ONLY);
 * - no: refused (FORBIDDEN).
 */
export type ByteVerdict = 'yes' | 'counted' | 'view-only' | 'no';

export function byteVerdict(grant: ByteGrant, use: ByteUse): ByteVerdict {
  switch (grant.via) {
    case 'own':
      // Changes in a space are further decided by the space role (common/files/space-roles.ts).
      return 'yes';
    case 'share':
      if (use === 'view') return 'yes';
      if (grant.permission === 'preview') return 'view-only';
      return use === 'edit' && grant.permission !== 'edit' ? 'no' : 'yes';
    case 'link':
      if (use === 'view') return 'yes';
      if (use === 'edit') return 'no';
      return grant.previewOnly ? 'view-only' : 'counted';
    case 'approval':
      return use === 'view' ? 'yes' : 'view-only';
    case 'ticket':
      return use === 'download' ? 'yes' : 'no';
  }
}

/** The grant allows renditions and nothing else (watermarked pictures, `no-store`). */
export function viewsOnly(grant: ByteGrant): boolean {
  return byteVerdict(grant, 'view') === 'yes' && byteVerdict(grant, 'read') === 'view-only';
}

/**
 * What a preview shows of a file:
 * - original: the stored bytes as they are, inline with this type; `sandbox` for all but PDF (Chrome's
 *   viewer does not run in a sandboxed document; a PDF's scripts run in the viewer, never on our origin);
 * - watermarked-picture: a WebP of the picture with the viewer and time burnt in (a picture that
 *   cannot be decoded has no rendition);
 * - document-pdf: an Office document's PDF rendition, made by LibreOffice in the background (issue 41,
 *   docs/documents.md): the same PDF to every grant, the original never. While it is being made the
 *   preview answers PREVIEW_PENDING (正在生成预览, ask again); when it cannot be made (the conversion
 *   failed, LibreOffice is not installed) PREVIEW_UNSUPPORTED;
 * - null: no rendition, PREVIEW_UNSUPPORTED.
 */
export type Rendition = { as: 'original'; contentType: string; sandbox: boolean } | { as: 'watermarked-picture' } | { as: 'document-pdf' };

export function renditionOf(name: string, grant: ByteGrant): Rendition | null {
  // Any raster picture the server decodes (never SVG: it is not decoded at all).
  if (viewsOnly(grant) && fileKindOf(name, false) === 'picture' && !/\.svgz?$/i.test(name)) return { as: 'watermarked-picture' };
  const type = previewTypeOf(name);
  if (type) return { as: 'original', contentType: type, sandbox: type !== 'application/pdf' };
  return documentKindOf(name) === 'office' ? { as: 'document-pdf' } : null;
}

/** How the web app shows a rendition. */
export type PreviewMode = 'image' | 'pdf' | 'text' | 'csv' | 'audio' | 'video';

/**
 * The mode the web app previews a file in: exactly the files that have a rendition for this grant
 * (null: none, the server would answer PREVIEW_UNSUPPORTED), so the app never offers what the
 * server refuses.
 */
export function previewModeOf(name: string, grant: ByteGrant): PreviewMode | null {
  const rendition = renditionOf(name, grant);
  if (!rendition) return null;
  if (rendition.as === 'watermarked-picture') return 'image';
  if (rendition.as === 'document-pdf') return 'pdf';
  if (/\.csv$/i.test(name)) return 'csv';
  const type = rendition.contentType.split(';')[0]!;
  if (type === 'application/pdf') return 'pdf';
  if (type === 'text/plain') return 'text';
  const family = type.split('/')[0];
  return family === 'image' ? 'image' : family === 'audio' ? 'audio' : family === 'video' ? 'video' : null;
}
