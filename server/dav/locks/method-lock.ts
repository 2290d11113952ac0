import { readSmallBody } from '../body';
import { DavError, type DavContext, type DavHandler } from '../context';
import type { DavDeps } from '../deps';
import { submittedTokens } from '../if-header';
import { ancestorHref, activeLockXml, lockAnswerXml, lockDepth, lockSeconds, parseLockInfo } from './lock-xml';
import { checkIfHeader, checkLocks, ifListsOf } from './preconditions';
import { TOKEN_PREFIX, type ActiveLock, type CoveringLock } from './active-lock';
import { createEmptyFile } from '../method-put';
import { isFinderMetadata } from '../placement';
import { randomUUID } from 'node:crypto';

function answer(ctx: DavContext, status: number, xml: string, token?: string): void {
  if (token) ctx.reply.header('Lock-Token', `<${token}>`);
  ctx.reply.code(status).header('Content-Type', 'application/xml; charset=utf-8').send(xml);
}

/**
 * LOCK (RFC 4918 §9.10): a new exclusive or shared write lock (Depth 0, or infinity on a folder), a
 * refresh (empty body, the lock named in If), or a lock on an unmapped URL, which creates an empty
 * file first (§9.10.4, 201). The lock itself is the product's (dav-locks.ts).
 */
export function lockHandler(deps: DavDeps): DavHandler {
  return async (ctx) => {
    const body = await readSmallBody(ctx.request);
    const ask = parseLockInfo(body);
    const lists = ifListsOf(ctx);
    await checkIfHeader(deps, ctx, lists);
    const seconds = lockSeconds(headerOf(ctx, 'timeout'));
    const { node } = ctx.target;
    if (node && node.kind !== 'entry') throw new DavError(403, '不能锁定根目录或顶层文件夹', 'cannot-lock');

    if (!ask) {
      // Refresh: the lock named in the If header, on this resource (directly or from a folder above).
      if (!node) throw new DavError(404, '资源不存在');
      const submitted = submittedTokens(lists);
      if (submitted.size === 0) throw new DavError(400, '刷新锁需要在 If 请求头中提交锁令牌');
      const covering: CoveringLock[] = (await deps.locks.covering(ctx.caller.tenantId, [node.row])).get(node.row.id) ?? [];
      const lock = covering.find((l) => submitted.has(l.token));
      if (!lock) throw new DavError(412, '提交的锁令牌不在该资源上', 'lock-token-matches-request-uri');
      const refreshed = await deps.locks.refresh(ctx.caller, lock, seconds);
      answer(ctx, 200, lockAnswerXml(activeLockXml(refreshed, ancestorHref(ctx.href, lock.levels), Date.now())));
      return;
    }

    const deep = lockDepth(headerOf(ctx, 'depth'));
    let row = node?.row;
    let created = false;
    if (!row) {
      // §9.10.4: an unmapped URL gets an empty resource, then the lock; the folder it goes in must allow it.
      const parent = await deps.tree.resolve(ctx.caller, ctx.target.segments.slice(0, -1));
      if (!parent.node) throw new DavError(409, '上级文件夹不存在');
      await checkLocks(deps, ctx.caller, parent, 'members', submittedTokens(lists));
      if (isFinderMetadata(ctx.target.name)) {
        // Finder's ._name / .DS_Store are taken and dropped (their PUT stores nothing): so is their lock.
        const dropped: ActiveLock = { token: `${TOKEN_PREFIX}${randomUUID()}`, entryId: '', userId: ctx.caller.userId, scope: ask.scope, deep: false, ownerXml: ask.ownerXml, expiresAt: Date.now() + seconds * 1000, fromWebApp: false, tookProductLock: false };
        answer(ctx, 201, lockAnswerXml(activeLockXml(dropped, ctx.href, Date.now())), dropped.token);
        return;
      }
      row = await createEmptyFile(deps, ctx);
      created = true;
    }
    const lock = await deps.locks.lock(ctx.caller, row, { scope: ask.scope, deep: deep && row.is_dir === 1, ownerXml: ask.ownerXml, seconds });
    answer(ctx, created ? 201 : 200, lockAnswerXml(activeLockXml(lock, ctx.href, Date.now())), lock.token);
  };
}

/**
 * UNLOCK (RFC 4918 §9.11): ends the lock the Lock-Token header names, if it covers this resource —
 * by its person or an administrator; the web app's lock too (its derived token).
 */
export function unlockHandler(deps: DavDeps): DavHandler {
  return async (ctx) => {
    const raw = headerOf(ctx, 'lock-token')?.trim();
    const m = raw ? /^<([^>]+)>$/.exec(raw) : null;
    if (!m) throw new DavError(400, '缺少 Lock-Token 请求头');
    const token = m[1]!;
    const { node } = ctx.target;
    // A dropped Finder metadata file's lock (above) was never kept.
    if (!node && isFinderMetadata(ctx.target.name)) {
      ctx.reply.code(204).send();
      return;
    }
    if (!node) throw new DavError(404, '资源不存在');
    if (node.kind !== 'entry') throw new DavError(409, '该资源上没有这个锁', 'lock-token-matches-request-uri');
    const covering = (await deps.locks.covering(ctx.caller.tenantId, [node.row])).get(node.row.id) ?? [];
    const lock = covering.find((l) => l.token === token);
    if (!lock) throw new DavError(409, '该资源上没有这个锁', 'lock-token-matches-request-uri');
    await deps.locks.unlock(ctx.caller, lock);
    ctx.reply.code(204).send();
  };
}

function headerOf(ctx: DavContext, name: string): string | undefined {
  const v = ctx.request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
