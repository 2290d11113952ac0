import { DavError } from './context';

/** Where the WebDAV tree is served. */
export const DAV_PREFIX = '/dav';

/**
 * The decoded segments of a request path below /dav/ (`/dav/个人文件/a%20b` → ['个人文件', 'a b']).
 * Empty segments (double or trailing slashes) are dropped; '.' and '..' and undecodable escapes are
 * refused with 400 (clients send neither; a relative segment would escape nothing here, but a name
 * is never '.' or '..').
 */
export function segmentsOf(urlPath: string): string[] {
  const pathOnly = urlPath.split('?', 1)[0]!;
  if (pathOnly !== DAV_PREFIX && !pathOnly.startsWith(`${DAV_PREFIX}/`)) throw new DavError(404, 'not a WebDAV path');
  const out: string[] = [];
  for (const raw of pathOnly.slice(DAV_PREFIX.length).split('/')) {
    if (raw === '') continue;
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      throw new DavError(400, `路径中的转义字符无效：${raw}`);
    }
    if (seg === '.' || seg === '..') throw new DavError(400, '路径中不能包含 . 或 ..');
    out.push(seg.normalize('NFC'));
  }
  return out;
}

/** The href of a resource (each segment percent-encoded; collections end in '/'). */
export function hrefOf(segments: readonly string[], isCollection: boolean): string {
  const body = segments.map((s) => encodeURIComponent(s)).join('/');
  if (segments.length === 0) return `${DAV_PREFIX}/`;
  return `${DAV_PREFIX}/${body}${isCollection ? '/' : ''}`;
}

/**
 * The segments a `Destination` header names (RFC 4918 §10.3): an absolute URI on this server, or an
 * absolute path. Another host answers 502 (§9.8.5: the server cannot copy to another server);
 * outside /dav/ answers 403.
 */
export function destinationSegments(header: string | undefined, host: string | undefined): string[] {
  if (!header) throw new DavError(400, '缺少 Destination 请求头');
  let pathname: string;
  if (header.startsWith('/')) pathname = header;
  else {
    let url: URL;
    try {
      url = new URL(header);
    } catch {
      throw new DavError(400, `Destination 不是有效的地址：${header}`);
    }
    if (host && url.host.toLowerCase() !== host.toLowerCase()) throw new DavError(502, '不能复制或移动到其他服务器');
    pathname = url.pathname;
  }
  if (pathname !== DAV_PREFIX && !pathname.startsWith(`${DAV_PREFIX}/`)) throw new DavError(403, 'Destination 必须在 /dav/ 之下');
  return segmentsOf(pathname);
}
