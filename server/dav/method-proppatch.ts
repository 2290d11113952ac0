import type { Element } from '@xmldom/xmldom';
import type { PropertyChange } from '../repositories/dav-property-repository';
import { readSmallBody } from './body';
import { DavError, type DavHandler } from './context';
import type { DavDeps } from './deps';
import { innerXml } from './locks/lock-xml';
import { checkIfHeader, checkLocks, ifListsOf } from './locks/preconditions';
import { submittedTokens } from './if-header';
import { childElements, DAV_NS, escapeXml, isDav, parseXml, propElement, qnameOf } from './xml';
import { win32ValueFits } from './win32-properties';
import { actionLog, fileTarget } from '../services/action-log/recorder';

/** One value of a dead property at most this long (XML as stored); a longer one is refused with 507. */
export const DEAD_PROPERTY_MAX_CHARS = 64 * 1024;

/** The changes of a DAV:propertyupdate body, in document order (RFC 4918 §9.2: order matters). */
export function parsePropertyUpdate(body: string): PropertyChange[] {
  const root = parseXml(body);
  if (!isDav(root, 'propertyupdate')) throw new DavError(400, 'PROPPATCH 请求体必须是 DAV:propertyupdate');
  const changes: PropertyChange[] = [];
  for (const op of childElements(root)) {
    const set = isDav(op, 'set');
    if (!set && !isDav(op, 'remove')) continue;
    for (const prop of childElements(op).filter((e: Element) => isDav(e, 'prop'))) {
      for (const el of childElements(prop)) {
        const q = qnameOf(el);
        changes.push({ ns: q.ns, name: q.local, valueXml: set ? innerXml(el) : null });
      }
    }
  }
  if (changes.length === 0) throw new DavError(400, 'PROPPATCH 没有要设置或删除的属性');
  return changes;
}

const STATUS_TEXT: Readonly<Record<number, string>> = { 200: 'OK', 403: 'Forbidden', 409: 'Conflict', 424: 'Failed Dependency', 507: 'Insufficient Storage' };

/** Property names in the action log's detail: Clark notation, at most this many of each kind. */
const LOGGED_NAMES = 20;
const clark = (c: PropertyChange): string => `{${c.ns}}${c.name}`;

/** What a stored change says on the action log: the names set and removed (not their values). */
function changeDetail(changes: readonly PropertyChange[]): Record<string, unknown> {
  const set = changes.filter((c) => c.valueXml !== null).map(clark);
  const removed = changes.filter((c) => c.valueXml === null).map(clark);
  return { set: set.slice(0, LOGGED_NAMES), removed: removed.slice(0, LOGGED_NAMES), count: changes.length };
}

/**
 * PROPPATCH (RFC 4918 §9.2): dead properties set and removed all together or not at all. A property
 * in the DAV: namespace is the server's (live, or reserved): 403 cannot-modify-protected-property;
 * a value too long 507; a value of Explorer's Win32 properties that is not what they hold 409
 * (win32-properties.ts); and then every other change of the request 424 Failed Dependency, nothing
 * stored. A stored change is on the action log (file.davProperties, platform webdav): which
 * properties, not their values.
 */
export function proppatchHandler(deps: DavDeps): DavHandler {
  return async (ctx) => {
    const { node } = ctx.target;
    if (!node) throw new DavError(404, '资源不存在');
    if (node.kind !== 'entry') throw new DavError(403, '根目录和顶层文件夹没有可修改的属性', 'cannot-modify-protected-property');
    const changes = parsePropertyUpdate(await readSmallBody(ctx.request));
    const lists = ifListsOf(ctx);
    await checkIfHeader(deps, ctx, lists);
    await checkLocks(deps, ctx.caller, ctx.target, 'self', submittedTokens(lists));
    // Properties are part of what an editor may change (as new content through a share with edit).
    deps.access.assertMayModify(ctx.caller, node.entry, 'version');

    const refusals = changes.map((c) => (c.ns === DAV_NS ? 403 : c.valueXml !== null && c.valueXml.length > DEAD_PROPERTY_MAX_CHARS ? 507 : !win32ValueFits(c) ? 409 : 200));
    const failed = refusals.some((s) => s !== 200);
    if (!failed) await deps.properties.apply(node.row.id, changes);
    // Refused inside a 207: the row says refused, with the first refusal's status.
    const refused = refusals.find((s) => s !== 200);
    actionLog.record({ action: 'file.davProperties', targets: [fileTarget(node.row)], detail: changeDetail(changes), ...(refused ? { refusedWith: `HTTP-${refused}` } : {}) });
    const byStatus = new Map<number, string[]>();
    changes.forEach((c, i) => {
      const status = failed && refusals[i] === 200 ? 424 : refusals[i]!;
      const el = propElement({ ns: c.ns, local: c.name }, null);
      byStatus.set(status, [...(byStatus.get(status) ?? []), el]);
    });
    const propstats = [...byStatus.entries()]
      .map(
        ([status, els]) =>
          `<D:propstat><D:prop>${els.join('')}</D:prop><D:status>HTTP/1.1 ${status} ${STATUS_TEXT[status]}</D:status>` +
          (status === 403 ? '<D:error><D:cannot-modify-protected-property/></D:error>' : '') +
          '</D:propstat>',
      )
      .join('');
    const xml = `<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:"><D:response><D:href>${escapeXml(ctx.href)}</D:href>${propstats}</D:response></D:multistatus>\n`;
    ctx.reply.code(207).header('Content-Type', 'application/xml; charset=utf-8').send(xml);
  };
}
