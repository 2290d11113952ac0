import { hasBody } from './body';
import { DavError, type DavHandler } from './context';
import type { DavDeps } from './deps';
import { existingParent, placeUnder } from './placement';
import { preconditions } from './registry';
import { isCollection } from './method-propfind';

/**
 * MKCOL (RFC 4918 §9.3) through the web app's mkdir (names, places and permissions as there;
 * recorded as file.mkdir): 405 when something is there already, 409 when the parent is missing,
 * 415 for a body (this server defines no MKCOL body).
 */
export const mkcolHandler = (deps: DavDeps): DavHandler => async (ctx) => {
  if (hasBody(ctx.request)) throw new DavError(415, 'MKCOL 不接受请求体');
  if (ctx.target.node) {
    const exists = new DavError(405, '该位置已存在同名文件或文件夹', undefined, { Allow: 'OPTIONS, PROPFIND, DELETE, MOVE, COPY' });
    // A folder that is there already: clients ask so to make sure of it (rclone before every file it
    // sends); the answer changes nothing and is no refusal, so it leaves no row (docs/webdav.md).
    exists.notAnAction = isCollection(ctx.target.node);
    throw exists;
  }
  const place = placeUnder(existingParent(ctx.target));
  for (const check of preconditions(deps)) await check(ctx, { method: 'MKCOL', paths: [ctx.target.segments], depth: 0 });
  await deps.files.mkdir(ctx.caller, { name: ctx.target.name, parentId: place.parentId, category: place.category });
  ctx.reply.code(201).header('Content-Length', '0').send();
};
