import { XMLSerializer, type Element } from '@xmldom/xmldom';
import { DavError } from '../context';
import { childElements, escapeXml, isDav, parseXml } from '../xml';
import type { ActiveLock } from './active-lock';

/** What a LOCK body asks for (RFC 4918 §14.11 lockinfo). */
export interface LockRequest {
  scope: 'exclusive' | 'shared';
  /** The <D:owner> content as XML (namespaces made explicit), or null. */
  ownerXml: string | null;
}

/** Seconds a lock lasts when the client names no Timeout. */
export const DEFAULT_LOCK_SECONDS = 3600;
/**
 * The longest lock granted, `Infinite` included (RFC 4918 §10.7 lets the server choose): a client that
 * died holding one keeps others out at most this long (its owner or an administrator can 解锁 at once).
 */
export const MAX_LOCK_SECONDS = 7 * 24 * 3600;

/** Parses a LOCK body; an empty body is a refresh (null). */
export function parseLockInfo(body: string): LockRequest | null {
  if (body.trim() === '') return null;
  const root = parseXml(body);
  if (!isDav(root, 'lockinfo')) throw new DavError(400, 'LOCK 请求体必须是 DAV:lockinfo');
  let scope: LockRequest['scope'] | null = null;
  let type = false;
  let ownerXml: string | null = null;
  for (const el of childElements(root)) {
    if (isDav(el, 'lockscope')) {
      const [s] = childElements(el);
      if (s && isDav(s, 'exclusive')) scope = 'exclusive';
      else if (s && isDav(s, 'shared')) scope = 'shared';
      else throw new DavError(400, 'lockscope 只能是 exclusive 或 shared');
    } else if (isDav(el, 'locktype')) {
      const [t] = childElements(el);
      if (!t || !isDav(t, 'write')) throw new DavError(422, '只支持写锁（locktype write）');
      type = true;
    } else if (isDav(el, 'owner')) {
      ownerXml = innerXml(el);
    }
  }
  if (!scope || !type) throw new DavError(400, 'lockinfo 缺少 lockscope 或 locktype');
  return { scope, ownerXml };
}

/** The children of an element as XML, each with the namespace declarations it needs. */
export function innerXml(el: Element): string {
  const s = new XMLSerializer();
  let out = '';
  for (let n = el.firstChild; n; n = n.nextSibling) out += s.serializeToString(n);
  return out;
}

/**
 * The Timeout header (RFC 4918 §10.7): the first value we can honour, capped at MAX_LOCK_SECONDS;
 * none (or none understood) gives DEFAULT_LOCK_SECONDS.
 */
export function lockSeconds(header: string | undefined): number {
  if (!header) return DEFAULT_LOCK_SECONDS;
  for (const raw of header.split(',')) {
    const v = raw.trim();
    if (/^infinite$/i.test(v)) return MAX_LOCK_SECONDS;
    const m = /^second-(\d+)$/i.exec(v);
    if (m) return Math.max(1, Math.min(MAX_LOCK_SECONDS, Number(m[1])));
  }
  return DEFAULT_LOCK_SECONDS;
}

/** The Depth of a LOCK: 0 or infinity (the default); 1 is not a lock depth (400). */
export function lockDepth(header: string | undefined): boolean {
  const v = (header ?? 'infinity').trim().toLowerCase();
  if (v === 'infinity') return true;
  if (v === '0') return false;
  throw new DavError(400, 'LOCK 的 Depth 只能是 0 或 infinity');
}

/** One DAV:activelock (RFC 4918 §14.1); `rootHref` is the lock root's href. */
export function activeLockXml(lock: ActiveLock, rootHref: string, now: number): string {
  const timeout = lock.expiresAt === null ? 'Infinite' : `Second-${Math.max(0, Math.round((lock.expiresAt - now) / 1000))}`;
  return (
    '<D:activelock>' +
    `<D:locktype><D:write/></D:locktype><D:lockscope><D:${lock.scope}/></D:lockscope>` +
    `<D:depth>${lock.deep ? 'infinity' : '0'}</D:depth>` +
    (lock.ownerXml !== null ? `<D:owner>${lock.ownerXml}</D:owner>` : '') +
    `<D:timeout>${timeout}</D:timeout>` +
    `<D:locktoken><D:href>${escapeXml(lock.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeXml(rootHref)}</D:href></D:lockroot>` +
    '</D:activelock>'
  );
}

/** DAV:supportedlock: exclusive and shared write locks. */
export const SUPPORTED_LOCK_XML =
  '<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>' +
  '<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>';

/** The body of a LOCK's answer: the lock it granted or refreshed, in DAV:lockdiscovery. */
export function lockAnswerXml(activeLocks: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLocks}</D:lockdiscovery></D:prop>\n`;
}

/** The lock root's href for a lock `levels` folders above a resource whose href is `href`. */
export function ancestorHref(href: string, levels: number): string {
  if (levels === 0) return href;
  const trimmed = href.endsWith('/') ? href.slice(0, -1) : href;
  const parts = trimmed.split('/');
  return `${parts.slice(0, parts.length - levels).join('/')}/`;
}
