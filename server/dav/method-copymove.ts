import { validName } from '../services/file-service';
import { DavError, type DavHandler, type DavNode } from './context';
import type { DavDeps } from './deps';
import { destinationSegments } from './paths';
import { existingParent, placeUnder } from './placement';
import { preconditions } from './registry';

/**
 * COPY and MOVE (RFC 4918 §9.8, §9.9) through the web app's copy/move (CopyMoveService: permissions,
 * locks, the byte gate — a preview-only share cannot be copied out —, cycles, quota; recorded as
 * file.copy / file.move), across spaces wherever the web app allows it. A new name at the
 * destination is the web app's rename of the result (file.rename): within one folder a MOVE is just
 * that rename. Overwrite: F with something at the destination → 412; T (default) → a file onto a
 * file of the same name becomes its new version (history kept), anything else first goes to the
 * recycle bin. 201 when the destination was new, 204 when it was replaced. COPY of a folder takes
 * Depth 0 (the folder alone) or infinity (default); MOVE only infinity.
 */
export const copyMoveHandler = (deps: DavDeps): DavHandler => async (ctx) => {
  const mode = ctx.request.method === 'MOVE' ? 'move' : 'copy';
  const source = ctx.target.node;
  if (!source) throw new DavError(404, '源文件或文件夹不存在');
  if (source.kind !== 'entry') throw new DavError(403, '根目录和各个空间不能复制或移动');
  const isDir = source.row.is_dir === 1;
  const depthHeader = String(ctx.request.headers.depth ?? 'infinity').toLowerCase();
  if (depthHeader !== 'infinity' && !(mode === 'copy' && depthHeader === '0')) throw new DavError(400, `${ctx.request.method} 的 Depth 只能是 ${mode === 'copy' ? '0 或 ' : ''}infinity`);
  const shallow = mode === 'copy' && depthHeader === '0' && isDir;
  const overwriteHeader = String(ctx.request.headers.overwrite ?? 'T').toUpperCase();
  if (overwriteHeader !== 'T' && overwriteHeader !== 'F') throw new DavError(400, 'Overwrite 只能是 T 或 F');

  const destSegments = destinationSegments(ctx.request.headers.destination as string | undefined, ctx.request.headers.host);
  if (destSegments.length < 2) throw new DavError(403, '目标必须在某个空间之内');
  const same = destSegments.length === ctx.target.segments.length && destSegments.every((s, i) => s.toLowerCase() === ctx.target.segments[i]!.toLowerCase());
  if (same && destSegments.join('/') === ctx.target.segments.join('/')) throw new DavError(403, '源和目标相同');
  const dest = await deps.tree.resolve(ctx.caller, destSegments);
  const parent = dest.parent ?? (await deps.tree.parentOf(ctx.caller, dest));
  if (!parent) throw new DavError(409, '目标的上级文件夹不存在，请先创建它');
  const place = placeUnder(existingParent({ ...dest, parent }));
  const name = validName(dest.name);
  const existing = dest.node && !(same && dest.node.kind === 'entry' && dest.node.row.id === source.row.id) ? dest.node : null;
  if (existing && overwriteHeader === 'F') throw new DavError(412, '目标已存在（Overwrite: F）');
  if (existing && existing.kind !== 'entry') throw new DavError(403, '不能覆盖根目录或空间');
  for (const check of preconditions(deps)) {
    await check(ctx, { method: ctx.request.method, paths: mode === 'move' ? [ctx.target.segments, destSegments] : [destSegments], depth: isDir && !shallow ? 'infinity' : 0 });
  }

  const caller = ctx.caller;
  const sameParent = parent.kind === 'entry' ? source.row.parent_id === parent.row.id : parent.kind === 'top' && isTopOf(parent, source);
  // A file onto another file: its new version (the history is kept), as the web app's overwrite.
  const newVersion = existing?.kind === 'entry' && existing.row.is_dir === 0 && !isDir;
  // x.txt arriving as x.exe is an .exe: the tenant's blocked types hold as on rename.
  if (!isDir && name !== source.row.name) await deps.types.assertAllowedType(caller.tenantId, name);
  if (existing?.kind === 'entry' && !newVersion) await deps.trash.remove(caller, { ids: [existing.row.id] });

  if (mode === 'move' && sameParent && !newVersion) {
    await deps.files.rename(caller, { id: source.row.id, name });
  } else if (shallow) {
    await deps.files.mkdir(caller, { name, parentId: place.parentId, category: place.category });
  } else {
    const req = { ids: [source.row.id], targetParentId: place.parentId, targetCategory: place.category, ...(newVersion ? { decisions: { [source.row.id]: 'overwrite' as const } } : {}) };
    const opts = { name: name === source.row.name ? undefined : name };
    if (mode === 'move') await deps.copyMove.move(caller, req, Date.now(), opts);
    else await deps.copyMove.copy(caller, req, Date.now(), opts);
  }
  ctx.reply.code(existing ? 204 : 201).send();
};

/** Whether `source` sits directly in the top folder `top` (a category's or a space's root). */
function isTopOf(top: DavNode & { kind: 'top' }, source: DavNode & { kind: 'entry' }): boolean {
  if (top.top.kind === 'category') return source.row.parent_id === null && source.row.space_id == null && source.row.category === top.top.category;
  if (top.top.kind === 'space') return source.row.parent_id === top.top.space.root_id;
  return false;
}
