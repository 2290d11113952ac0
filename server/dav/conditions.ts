import type { FastifyRequest } from 'fastify';
import { DavError } from './context';

/** The validators of a resource for conditional requests (RFC 9110 §13). */
export interface Validators {
  /** Strong ETag, quoted (null: the resource has none, e.g. a folder or nothing there). */
  etag: string | null;
  /** Last modification, ms (null: unknown). */
  lastModified: number | null;
  exists: boolean;
}

function listMatches(header: string, etag: string | null, exists: boolean, weak: boolean): boolean {
  const value = header.trim();
  if (value === '*') return exists;
  if (!etag) return false;
  const strip = (t: string) => (weak ? t.replace(/^W\//, '') : t);
  return value.split(',').some((t) => strip(t.trim()) === strip(etag));
}

/**
 * If-Match / If-Unmodified-Since (412) and If-None-Match / If-Modified-Since (304 for GET/HEAD, 412
 * otherwise), in RFC 9110 §13.2.2's order. Returns 'not-modified' for a GET/HEAD to answer 304.
 */
export function evaluateConditions(request: FastifyRequest, v: Validators): 'proceed' | 'not-modified' {
  const h = request.headers;
  const read = request.method === 'GET' || request.method === 'HEAD';
  const ifMatch = h['if-match'];
  if (typeof ifMatch === 'string') {
    if (!listMatches(ifMatch, v.etag, v.exists, false)) throw new DavError(412, 'If-Match 不满足：文件已被修改或不存在');
  } else if (typeof h['if-unmodified-since'] === 'string' && v.lastModified !== null) {
    const since = Date.parse(h['if-unmodified-since']);
    if (!Number.isNaN(since) && Math.floor(v.lastModified / 1000) > Math.floor(since / 1000)) throw new DavError(412, 'If-Unmodified-Since 不满足：文件已被修改');
  }
  const ifNoneMatch = h['if-none-match'];
  if (typeof ifNoneMatch === 'string') {
    if (listMatches(ifNoneMatch, v.etag, v.exists, true)) {
      if (read) return 'not-modified';
      throw new DavError(412, 'If-None-Match 不满足：目标已存在');
    }
  } else if (read && typeof h['if-modified-since'] === 'string' && v.lastModified !== null) {
    const since = Date.parse(h['if-modified-since']);
    if (!Number.isNaN(since) && Math.floor(v.lastModified / 1000) <= Math.floor(since / 1000)) return 'not-modified';
  }
  return 'proceed';
}
