import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Element } from '@xmldom/xmldom';
import type { Caller } from '../services/caller';
import { readSmallBody } from './body';
import { DavError, type DavContext, type DavHandler, type DavNode } from './context';
import type { DavDeps } from './deps';
import { hrefOf } from './paths';
import type { DavItem, PropertyProvider, PropValue } from './properties';
import { propertyProviders } from './registry';
import { childElements, escapeXml, isDav, parseXml, propElement, qkey, qnameOf, type QName } from './xml';

/** What a PROPFIND asks (RFC 4918 §9.1): all properties, their names, or the listed ones. */
type PropRequest = { kind: 'allprop'; include: QName[] } | { kind: 'propname' } | { kind: 'prop'; names: QName[] };

/**
 * The body's question. An empty body is allprop (RFC 4918 §9.1; Windows Explorer sends none).
 * Unknown elements inside DAV:prop (Explorer's Win32* properties, Finder's, Office's) are simply
 * properties this server does not have: 404 in their propstat.
 */
export function parsePropfind(text: string): PropRequest {
  if (text.trim() === '') return { kind: 'allprop', include: [] };
  const root = parseXml(text);
  if (!isDav(root, 'propfind')) throw new DavError(400, '请求体的根元素必须是 DAV:propfind');
  const kids = childElements(root);
  const prop = kids.find((k) => isDav(k, 'prop'));
  if (prop) return { kind: 'prop', names: childElements(prop).map(qnameOf) };
  if (kids.some((k) => isDav(k, 'propname'))) return { kind: 'propname' };
  if (kids.some((k) => isDav(k, 'allprop')) || kids.length === 0) {
    const include = kids.find((k: Element) => isDav(k, 'include'));
    return { kind: 'allprop', include: include ? childElements(include).map(qnameOf) : [] };
  }
  throw new DavError(400, 'DAV:propfind 须包含 allprop、propname 或 prop 之一');
}

/** Depth 0 or 1; `infinity` is refused as large servers do (RFC 4918 §9.1, propfind-finite-depth). An absent Depth counts as 1. */
export function propfindDepth(header: string | undefined): 0 | 1 {
  const value = (header ?? '1').trim().toLowerCase();
  if (value === '0') return 0;
  if (value === '1') return 1;
  if (value === 'infinity') throw new DavError(403, '不支持 Depth: infinity 的 PROPFIND，请逐层列出（Depth: 1）', 'propfind-finite-depth');
  throw new DavError(400, `Depth 只能是 0、1 或 infinity，而不是 ${value}`);
}

const STATUS_OK = 'HTTP/1.1 200 OK';
const STATUS_NOT_FOUND = 'HTTP/1.1 404 Not Found';

function propstat(props: string[], status: string): string {
  return `<D:propstat><D:prop>${props.join('')}</D:prop><D:status>${status}</D:status></D:propstat>`;
}

/** One DAV:response for a resource, from all the values the providers gave it. */
export function responseXml(item: DavItem, values: readonly PropValue[], ask: PropRequest): string {
  let found: string[];
  let missing: string[] = [];
  if (ask.kind === 'propname') found = values.map((v) => propElement(v.name, null));
  else if (ask.kind === 'allprop') {
    const extra = new Set(ask.include.map(qkey));
    found = values.filter((v) => v.inAllprop || extra.has(qkey(v.name))).map((v) => propElement(v.name, v.xml));
  } else {
    const byKey = new Map(values.map((v) => [qkey(v.name), v]));
    found = [];
    for (const name of ask.names) {
      const v = byKey.get(qkey(name));
      if (v) found.push(propElement(name, v.xml));
      else missing.push(propElement(name, null));
    }
  }
  if (found.length === 0 && missing.length === 0) missing = [];
  const stats = [found.length > 0 || ask.kind !== 'prop' ? propstat(found, STATUS_OK) : '', missing.length > 0 ? propstat(missing, STATUS_NOT_FOUND) : ''];
  return `<D:response><D:href>${escapeXml(item.href)}</D:href>${stats.join('')}</D:response>\n`;
}

/** The XML of a page of resources: every provider asked once for the whole page. */
async function pageXml(caller: Caller, providers: readonly PropertyProvider[], items: readonly DavItem[], ask: PropRequest): Promise<string> {
  const perProvider = await Promise.all(providers.map((p) => p.read(caller, items)));
  return items.map((item, i) => responseXml(item, perProvider.flatMap((values) => values[i] ?? []), ask)).join('');
}

export function isCollection(node: DavNode): boolean {
  return node.kind !== 'entry' || node.row.is_dir === 1;
}

export function nameOfNode(node: DavNode): string {
  return node.kind === 'root' ? '' : node.kind === 'top' ? node.top.name : node.row.name;
}

/**
 * PROPFIND (RFC 4918 §9.1). The answer streams: the multistatus opens at once, the target's own
 * response follows, then each keyset page of its children as the repository gives it — a folder of
 * 100,000 entries is never held in memory, and the first byte does not wait for the last page.
 */
export const propfindHandler = (deps: DavDeps): DavHandler => async (ctx: DavContext) => {
  const depth = propfindDepth(ctx.request.headers.depth as string | undefined);
  const ask = parsePropfind(await readSmallBody(ctx.request));
  const node = ctx.target.node;
  if (!node) throw new DavError(404, '文件或文件夹不存在');
  const providers = propertyProviders(deps);
  const caller = ctx.caller;
  const segments = ctx.target.segments;
  const self: DavItem = { node, name: nameOfNode(node), href: hrefOf(segments, isCollection(node)), isCollection: isCollection(node) };
  const gone = new AbortController();
  ctx.reply.raw.once('close', () => gone.abort());
  // Written as produced, waiting only for the socket (backpressure): the opening goes out before the
  // first page is read. (Readable.from of a generator reads ahead and held the first byte back.)
  const out = new PassThrough();
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await Promise.race([once(out, 'drain'), once(out, 'close')]);
  };
  const produce = async (): Promise<void> => {
    await write('<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">\n');
    await write(await pageXml(caller, providers, [self], ask));
    if (depth === 1 && self.isCollection) {
      for await (const page of deps.tree.children(caller, node, gone.signal)) {
        if (out.destroyed) return;
        // A turn of the event loop between pages: a 100k listing must not hold every other request
        // (its pages are read and written on the loop; SQLite's queries are synchronous).
        await new Promise<void>((resolve) => setImmediate(resolve));
        const items = page.map((child): DavItem => {
          const name = nameOfNode(child);
          const coll = isCollection(child);
          return { node: child, name, href: hrefOf([...segments, name], coll), isCollection: coll };
        });
        await write(await pageXml(caller, providers, items, ask));
      }
    }
    out.end('</D:multistatus>\n');
  };
  // A failure after the 207 went out can only cut the answer (the client sees it unfinished).
  produce().catch((err: unknown) => {
    ctx.request.log.error({ err }, 'PROPFIND answer cut');
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  ctx.reply.code(207).header('Content-Type', 'application/xml; charset=utf-8');
  await ctx.reply.send(out);
};
