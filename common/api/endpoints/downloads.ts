import { Type } from 'typebox';
import { bytes, endpoint } from '../endpoint';
import { API } from '../paths';
import { IdParams, IdString, NameString } from '../schemas';
import { BATCH_MAX_IDS } from '../types';

/**
 * A member's bytes (ours: the spec does not show these calls): a file's download, a ZIP of entries,
 * inline previews and thumbnails. Each asks the one decision of what the caller may do with the bytes
 * (rules: ../byte-access.ts; server/services/sharing/byte-gate.ts); the web app builds their URLs with
 * the helpers in ../paths.ts.
 */

/**
 * `confirm`: keepOnDownload's confirmation of a flagged exchange-area file (../sharing.ts). The
 * download honours Range (and If-Range); HEAD answers its headers.
 */
export const DownloadQuery = Type.Object({ confirm: Type.Optional(Type.String({ maxLength: 512 })) });

/**
 * `ids=a,b,c&name=archive`: the entries comma-separated (1..BATCH_MAX_IDS ids of at most 64
 * characters, checked by the handler: the bound here only caps the string), `name` without .zip.
 */
export const ZipQuery = Type.Object({
  ids: Type.String({ minLength: 1, maxLength: 64 * BATCH_MAX_IDS }),
  name: Type.Optional(Type.String({ maxLength: 255 })),
});

/** `/:id/:name`: the name is ignored by the server (the stored name decides the type). */
export const NamedPreviewParams = Type.Object({ id: IdString, name: NameString });

const member = 'member' as const;

export const DOWNLOADS = {
  /** A file's bytes, always an attachment of an opaque type; Range honoured (URL: downloadUrl). */
  download: endpoint({ method: 'GET', path: `${API.downloadPrefix}:id`, access: member, action: 'file.download', params: IdParams, query: DownloadQuery, response: bytes }),
  /**
   * A streamed ZIP (deflated text, stored media, UTF-8 names, ZIP64 when needed) of the files and
   * folder trees; capped by ZIP_MAX_ENTRIES / ZIP_MAX_BYTES (URL: zipDownloadUrl).
   */
  zip: endpoint({ method: 'GET', path: API.zipDownload, access: member, action: 'file.zip', query: ZipQuery, response: bytes }),
  /**
   * A rendition shown inline (URL: previewUrl): the safe-inline kinds as they are with their type
   * (PREVIEW_INLINE_TYPES), Range honoured; a watermarked WebP of a picture and `no-store` through a
   * preview-only share; any other type answers PREVIEW_UNSUPPORTED, never an attachment. Always
   * `nosniff`; `Content-Security-Policy: sandbox` on all but PDF.
   */
  preview: endpoint({ method: 'GET', path: `${API.previewPrefix}:id`, access: member, action: 'file.preview', params: IdParams, response: bytes }),
  /**
   * The same answer as `preview`, with the file's name as the last segment: the browser's PDF viewer
   * titles the document with it (URL: namedPreviewUrl). Its refusals are logged as access.denied.
   */
  namedPreview: endpoint({ method: 'GET', path: `${API.previewPrefix}:id/:name`, access: member, action: null, params: NamedPreviewParams, response: bytes }),
  /** A server-made WebP of at most THUMBNAIL_SIZE px for pictures; ETag / 304 (URL: thumbnailUrl). */
  thumbnail: endpoint({ method: 'GET', path: `${API.thumbnailPrefix}:id`, access: member, action: null, params: IdParams, response: bytes }),
};
