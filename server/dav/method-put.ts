import { createReadStream, createWriteStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { chunkCount } from '../../common/transfer/protocol';
import { BATCH_FILE_MAX_BYTES } from '../../common/transfer/batch-upload';
import type { FileEntry } from '../../common/api/types';
import type { FilesTable } from '../db/schema';
import { newId } from '../ids';
import { evaluateConditions } from './conditions';
import { DavError, type DavContext, type DavHandler } from './context';
import type { DavDeps } from './deps';
import { existingParent, isFinderMetadata, placeUnder, type DavPlace } from './placement';
import { etagOf } from './properties';
import { preconditions } from './registry';

/** The body's length: Content-Length, else Finder's X-Expected-Entity-Length (its PUTs are chunked), else unknown. */
function declaredSize(ctx: DavContext): number | null {
  for (const name of ['content-length', 'x-expected-entity-length']) {
    const raw = ctx.request.headers[name];
    if (typeof raw !== 'string' || raw.trim() === '') continue;
    if (!/^\d+$/.test(raw.trim())) throw new DavError(400, `${name} 不是有效的长度`);
    return Number(raw.trim());
  }
  return null;
}

/**
 * PUT (RFC 4918 §9.7): the body goes straight into the blob store through the chunk uploads' own
 * receive path — a streaming session (UploadService.chunkExist without digests: name, place,
 * blocked type by name and quota judged before a byte is read, so `Expect: 100-continue` clients
 * send nothing when refused), one range upload of all its chunks (each streamed to the store and
 * hashed as it arrives, the first one's content judged), then the merge (fingerprint, dedup,
 * quota, a new version when the file exists). Memory does not grow with the size. A body cut short
 * or refused drops the session: nothing half-written becomes a file. A chunked body with no length
 * at all is first spooled to a temporary file (disk, not memory) to learn its size.
 */
export const putHandler = (deps: DavDeps): DavHandler => async (ctx) => {
  const { caller, target } = ctx;
  const existing = target.node;
  if (existing && (existing.kind !== 'entry' || existing.row.is_dir === 1)) throw new DavError(405, '目标是文件夹，不能用文件内容覆盖');
  // Finder's metadata files are taken and dropped (docs/webdav.md): nothing is stored, nothing shows.
  if (isFinderMetadata(target.name)) {
    await drain(ctx.request.raw);
    ctx.reply.code(existing ? 204 : 201).send();
    return;
  }
  const row = existing?.kind === 'entry' ? existing.row : null;
  if (existing?.kind === 'entry') {
    // New content for an existing file: the web app's rule (role, lock; through a share only with edit).
    deps.access.assertMayModify(caller, existing.entry, 'version');
  }
  const fingerprint = row?.blob_id ? (await deps.live.fingerprints(caller, [row.blob_id])).get(row.blob_id) : undefined;
  evaluateConditions(ctx.request, { etag: fingerprint ? etagOf(fingerprint) : null, lastModified: row ? Number(row.updated_at) : null, exists: row !== null });
  const place: DavPlace = row ? { parentId: row.parent_id, category: row.category } : placeUnder(existingParent(target));
  for (const check of preconditions(deps)) await check(ctx, { method: 'PUT', paths: [target.segments], depth: 0 });
  const name = row ? row.name : target.name;

  let size = declaredSize(ctx);
  let body: Readable = ctx.request.raw;
  let spooled: string | null = null;
  try {
    if (size === null) {
      spooled = path.join(deps.tmpDir, `dav-put-${newId()}`);
      await pipeline(ctx.request.raw, createWriteStream(spooled, { flags: 'wx' }));
      size = (await fsp.stat(spooled)).size;
      body = createReadStream(spooled);
    }
    // A file shared alone at its owner's top level has no folder of the caller's that names it: by id.
    const byId = row !== null && row.parent_id === null && row.owner_id !== caller.userId;
    await receive(deps, ctx, { name, place, replaces: row !== null, size, body, ...(row && byId ? { versionOf: row.id } : {}) });
  } finally {
    if (spooled) await fsp.rm(spooled, { force: true });
  }
  ctx.reply.code(row ? 204 : 201).send();
};

/** What receive() writes: `size` bytes of `body` as `name` at `place` (a new version when `replaces`). */
interface Incoming {
  name: string;
  place: DavPlace;
  replaces: boolean;
  /**
   * The file being replaced, addressed by its id wherever it sits (common/api/schemas.ts VersionOf): a
   * file shared alone at its owner's top level has no parentId of the caller's that names it.
   */
  versionOf?: string;
  size: number;
  body: Readable;
}

/**
 * One body into a file. Up to BATCH_FILE_MAX_BYTES (the web engine's small-file limit) and by name: the
 * small-file batch's checks and commit (BatchUploadService.uploadOne — one transaction shared with the
 * other small PUTs arriving meanwhile, no upload session). Larger, or a new version addressed by id:
 * the chunk uploads' receive path, a session, a range upload of all its chunks, the merge; a body cut
 * short or refused drops the session (nothing half-written becomes a file).
 */
async function receive(deps: DavDeps, ctx: DavContext, { name, place, replaces, versionOf, size, body }: Incoming): Promise<FileEntry> {
  const { caller } = ctx;
  if (size <= BATCH_FILE_MAX_BYTES && versionOf === undefined) {
    return deps.batches.uploadOne(caller, { name, parentId: place.parentId, category: place.category, size, onConflict: replaces ? 'newVersion' : 'fail' }, body);
  }
  const byId = versionOf !== undefined ? { versionOf } : {};
  const session = await deps.uploads.chunkExist(caller, { size, chunkSize: deps.chunkSize, name, parentId: place.parentId, category: place.category, ...byId });
  try {
    const count = chunkCount(size, deps.chunkSize);
    await deps.uploads.chunkRangeUpload(caller, session.uploadId, 0, count - 1, undefined, size, body);
    return await deps.uploads.merge(caller, { uploadId: session.uploadId, name, parentId: place.parentId, category: place.category, onConflict: replaces ? 'newVersion' : 'fail', ...byId });
  } catch (err) {
    await deps.uploads.abandon(caller, session.uploadId).catch((e: unknown) => ctx.request.log.error({ err: e }, 'abandoning a WebDAV upload session failed'));
    throw err;
  }
}

/**
 * LOCK of an unmapped URL (RFC 4918 §9.10.4): an empty file at ctx.target, created exactly as a PUT
 * of an empty body creates one (name rules, blocked types, quota, the action log's file.upload), so
 * the lock has something to hold. The caller has evaluated If and the parent folder's locks.
 */
export async function createEmptyFile(deps: DavDeps, ctx: DavContext): Promise<FilesTable> {
  const { target } = ctx;
  const place = placeUnder(existingParent(target));
  const file = await receive(deps, ctx, { name: target.name, place, replaces: false, size: 0, body: Readable.from([]) });
  const created = await deps.tree.resolve(ctx.caller, target.segments);
  if (created.node?.kind !== 'entry' || created.node.row.id !== file.id) throw new DavError(409, '新建的空文件已被移走或改名，请重试');
  return created.node.row;
}

/** Reads and discards a body. */
async function drain(body: Readable): Promise<void> {
  for await (const _ of body) void _;
}
