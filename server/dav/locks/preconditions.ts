import type { Caller } from '../../services/caller';
import type { FilesTable } from '../../db/schema';
import { DavError, type DavContext, type DavNode, type Resolved } from '../context';
import type { DavDeps } from '../deps';
import { evaluateIf, IfHeaderSyntaxError, parseIfHeader, submittedTokens, taggedPath, type IfList, type IfResourceState } from '../if-header';
import { hrefOf, segmentsOf } from '../paths';
import { etagOf } from '../properties';
import type { DavChange } from '../registry';
import { escapeXml } from '../xml';
import type { ActiveLock, CoveringLock } from './active-lock';

/** The If header of a request, parsed (400 when malformed); [] when absent. */
export function ifListsOf(ctx: DavContext): IfList[] {
  const header = ctx.request.headers['if'];
  const value = Array.isArray(header) ? header.join(' ') : header;
  if (!value) return [];
  try {
    return parseIfHeader(value);
  } catch (err) {
    if (err instanceof IfHeaderSyntaxError) throw new DavError(400, `If 请求头格式不正确：${err.message}`);
    throw err;
  }
}

/** 423 with DAV:lock-token-submitted naming the lock root(s) whose token was missing (RFC 4918 §16). */
export class LockTokenMissing extends DavError {
  constructor(
    message: string,
    readonly hrefs: readonly string[],
  ) {
    super(423, message, 'lock-token-submitted');
  }

  /** The condition element with its hrefs (the DAV:error body's content). */
  conditionXml(): string {
    return `<D:lock-token-submitted>${this.hrefs.map((h) => `<D:href>${escapeXml(h)}</D:href>`).join('')}</D:lock-token-submitted>`;
  }
}

function entryRow(node: DavNode | null): FilesTable | null {
  return node?.kind === 'entry' ? node.row : null;
}

/** The etag of a resource (files only: the content fingerprint GET answers with), or null. */
async function etagOfNode(deps: DavDeps, caller: Caller, node: DavNode | null): Promise<string | null> {
  const row = entryRow(node);
  if (!row || row.is_dir === 1 || !row.blob_id) return null;
  const print = (await deps.live.fingerprints(caller, [row.blob_id])).get(row.blob_id);
  return print ? etagOf(print) : null;
}

/** The locks that would cover a new member of `parent` (its Depth-infinity locks), or of an existing node. */
async function coveringOf(deps: DavDeps, caller: Caller, resolved: Resolved): Promise<CoveringLock[]> {
  const row = entryRow(resolved.node);
  if (row) return (await deps.locks.covering(caller.tenantId, [row])).get(row.id) ?? [];
  const parentNode = resolved.node ? null : await deps.tree.parentOf(caller, resolved).catch(() => null);
  const parent = entryRow(parentNode);
  if (!parent) return [];
  const list = (await deps.locks.covering(caller.tenantId, [parent])).get(parent.id) ?? [];
  return list.filter((l) => l.deep && !l.fromWebApp).map((l) => ({ ...l, levels: l.levels + 1 }));
}

/**
 * Evaluates the If header (412 when false): untagged lists against the request target, tagged ones
 * against the resource they name.
 */
export async function checkIfHeader(deps: DavDeps, ctx: DavContext, lists: readonly IfList[]): Promise<void> {
  if (lists.length === 0) return;
  const stateOf = async (resource: string | null): Promise<IfResourceState> => {
    let resolved: Resolved = ctx.target;
    if (resource !== null) {
      const path = taggedPath(resource);
      let segments: string[] | null = null;
      try {
        segments = path ? segmentsOf(path) : null;
      } catch {
        segments = null;
      }
      // A tag outside /dav/ names nothing here: a resource that does not exist.
      if (!segments) return { etag: null, lockTokens: new Set() };
      resolved = await deps.tree.resolve(ctx.caller, segments).catch(() => ({ segments, node: null, parent: null, name: '' }) as Resolved);
    }
    const [etag, locks] = await Promise.all([etagOfNode(deps, ctx.caller, resolved.node), coveringOf(deps, ctx.caller, resolved)]);
    return { etag, lockTokens: new Set(locks.map((l) => l.token)) };
  };
  if (!(await evaluateIf(lists, stateOf))) throw new DavError(412, 'If 请求头的条件不成立', 'precondition-failed');
}

/** What a change does to one resource: itself (and, for `tree`, all its members), or its list of members. */
export type Touch = 'self' | 'tree' | 'members';

/**
 * Refuses (423, lock-token-submitted) a change to a resource covered by a lock whose token the request
 * did not submit. A WebDAV lock is satisfied by its token from its own person; the web app's lock
 * only by being the locker (the product's rule; its lock has no timeout and no token the web app shows).
 * A change of a collection's members concerns WebDAV locks only: the product's lock of a folder
 * guards the folder itself (uploads into it are allowed in the web app too).
 */
export async function checkLocks(deps: DavDeps, caller: Caller, resolved: Resolved, touch: Touch, submitted: ReadonlySet<string>): Promise<void> {
  const row = entryRow(resolved.node);
  if (!row) return;
  const hrefBase = hrefOf(resolved.segments, row.is_dir === 1);
  let covering: CoveringLock[] = (await deps.locks.covering(caller.tenantId, [row])).get(row.id) ?? [];
  if (touch === 'members') covering = covering.filter((l) => !l.fromWebApp);
  const satisfied = (l: ActiveLock) => (l.fromWebApp ? l.userId === caller.userId : l.userId === caller.userId && submitted.has(l.token));
  const missing: string[] = [];
  if (covering.some((l) => l.fromWebApp && !satisfied(l))) throw new LockTokenMissing('文件已被他人锁定（网页端锁定）', [hrefBase]);
  const dav = covering.filter((l) => !l.fromWebApp);
  if (dav.length > 0 && !dav.some(satisfied)) missing.push(rootHref(hrefBase, dav[0]!.levels));
  if (touch === 'tree' && row.is_dir === 1) {
    const byEntry = new Map<string, ActiveLock[]>();
    for (const l of await deps.locks.below(caller.tenantId, row.id)) byEntry.set(l.entryId, [...(byEntry.get(l.entryId) ?? []), l]);
    if ([...byEntry.values()].some((locks) => !locks.some(satisfied))) missing.push(hrefBase);
  }
  if (missing.length > 0) throw new LockTokenMissing('资源已被锁定，请求未提交对应的锁令牌', missing);
}

function rootHref(href: string, levels: number): string {
  if (levels === 0) return href;
  const parts = (href.endsWith('/') ? href.slice(0, -1) : href).split('/');
  return `${parts.slice(0, parts.length - levels).join('/')}/`;
}

const samePath = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((s, i) => s === b[i]);

/**
 * The precondition every modifying method runs (registry.ts): the If header, then the locks on what
 * it changes — each path itself (its tree for Depth infinity), and the members of the folder a path
 * is created in or removed from.
 */
export function lockPrecondition(deps: DavDeps) {
  return async (ctx: DavContext, change: DavChange): Promise<void> => {
    const lists = ifListsOf(ctx);
    await checkIfHeader(deps, ctx, lists);
    const submitted = submittedTokens(lists);
    for (const [i, path] of change.paths.entries()) {
      const resolved = samePath(path, ctx.target.segments) ? ctx.target : await deps.tree.resolve(ctx.caller, [...path]);
      const exists = resolved.node !== null;
      if (exists) await checkLocks(deps, ctx.caller, resolved, change.depth === 'infinity' ? 'tree' : 'self', submitted);
      // Members change: something is created, removed (DELETE, MOVE's source) or replaced (COPY/MOVE onto it).
      const removes = change.method === 'DELETE' || (change.method === 'MOVE' && i === 0);
      const replaces = (change.method === 'COPY' || change.method === 'MOVE') && exists;
      if (!exists || removes || replaces) {
        const parentSegments = resolved.segments.slice(0, -1);
        if (parentSegments.length === 0) continue;
        const parent = await deps.tree.resolve(ctx.caller, parentSegments);
        await checkLocks(deps, ctx.caller, parent, 'members', submitted);
      }
    }
  };
}
