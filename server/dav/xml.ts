import { DOMParser, type Element } from '@xmldom/xmldom';
import { DavError } from './context';

export const DAV_NS = 'DAV:';

/** A property's qualified name. */
export interface QName {
  ns: string;
  local: string;
}

export const qkey = (q: QName): string => `{${q.ns}}${q.local}`;

/** Text and attribute values in XML (the five predefined entities; control characters dropped). */
export function escapeXml(text: string): string {
  // eslint-disable-next-line no-control-regex -- XML 1.0 cannot carry these characters at all
  return text.replace(/[&<>"']|[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : c === "'" ? '&apos;' : '',
  );
}

/**
 * An element of a property in a response: `D:` for DAV:, otherwise a namespace declared on the
 * element itself (clients' own namespaces, e.g. Microsoft's `urn:schemas-microsoft-com:`).
 */
export function propElement(q: QName, inner: string | null): string {
  const isDav = q.ns === DAV_NS;
  const tag = isDav ? `D:${q.local}` : `x:${q.local}`;
  const decl = isDav ? '' : q.ns === '' ? ' xmlns:x=""' : ` xmlns:x="${escapeXml(q.ns)}"`;
  // A property in no namespace cannot take a prefix: written unprefixed with the default namespace undone.
  if (!isDav && q.ns === '') return inner === null || inner === '' ? `<${q.local} xmlns=""/>` : `<${q.local} xmlns="">${inner}</${q.local}>`;
  return inner === null || inner === '' ? `<${tag}${decl}/>` : `<${tag}${decl}>${inner}</${tag}>`;
}

/** Parses a request body (namespace-aware); malformed XML answers 400. */
export function parseXml(text: string): Element {
  let failed: string | null = null;
  const parser = new DOMParser({
    onError: (level, msg) => {
      if (level !== 'warning') failed ??= msg;
    },
  });
  let doc;
  try {
    doc = parser.parseFromString(text, 'text/xml');
  } catch (err) {
    failed ??= err instanceof Error ? err.message : String(err);
  }
  const root = doc?.documentElement;
  if (failed !== null || !root) throw new DavError(400, `请求体不是有效的 XML：${failed ?? 'empty'}`);
  return root;
}

/** The element children of an element. */
export function childElements(el: Element): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}

export function isDav(el: Element, local: string): boolean {
  return el.namespaceURI === DAV_NS && el.localName === local;
}

export function qnameOf(el: Element): QName {
  return { ns: el.namespaceURI ?? '', local: el.localName ?? el.nodeName };
}

/** A DAV:error body naming a precondition (RFC 4918 §16). */
export function errorBody(condition: string, text: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:${condition}/><D:responsedescription>${escapeXml(text)}</D:responsedescription></D:error>\n`;
}
