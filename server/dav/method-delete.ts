import { DavError, type DavHandler } from './context';
import type { DavDeps } from './deps';
import { isFinderMetadata } from './placement';
import { preconditions } from './registry';

/**
 * DELETE (RFC 4918 §9.6): to the recycle bin like the web app's delete (TrashService.remove, its
 * permissions and locks; recorded as file.delete), a folder with its whole tree. The root and the
 * space folders are not entries: 403. Depth other than infinity on a folder: 400 (§9.6.1).
 */
export const deleteHandler = (deps: DavDeps): DavHandler => async (ctx) => {
  const node = ctx.target.node;
  if (!node) {
    // Finder's metadata files were never stored (docs/webdav.md): their delete has nothing to do.
    if (isFinderMetadata(ctx.target.name)) return void ctx.reply.code(204).send();
    throw new DavError(404, '文件或文件夹不存在');
  }
  if (node.kind !== 'entry') throw new DavError(403, '根目录和各个空间不能删除');
  const depth = String(ctx.request.headers.depth ?? 'infinity').toLowerCase();
  if (node.row.is_dir === 1 && depth !== 'infinity') throw new DavError(400, '删除文件夹时 Depth 只能是 infinity');
  for (const check of preconditions(deps)) await check(ctx, { method: 'DELETE', paths: [ctx.target.segments], depth: 'infinity' });
  await deps.trash.remove(ctx.caller, { ids: [node.row.id] });
  ctx.reply.code(204).send();
};
