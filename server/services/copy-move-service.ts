import { ERRORS } from '../../common/api/errors';
import type { CopyMoveRequest } from '../../common/api/endpoints/files';
import { nameSortKey } from '../../common/files/name-sort-key';
import type { CopyMoveResponse } from '../../common/api/types';
import type { FilesTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import type { FileRepository } from '../repositories/file-repository';
import { editorOf } from '../repositories/content-replacement';
import { TreeWriteRefused, type TreeRepository } from '../repositories/tree-repository';
import type { Caller } from './caller';
import { overwriteTargets, planArrivals } from './conflict-plan';
import type { EntryDecorator } from './entry-decorator';
import { nameKeyOf, placeDetail } from './file-service';
import { actionLog, fileTarget } from './action-log/recorder';
import type { AccessService, Place } from './space-access';
import type { TrashService } from './trash-service';
import type { ByteGate } from './sharing/byte-gate';
import type { ExchangeRepository } from '../repositories/exchange-repository';
import { FILE_CATEGORY } from '../../common/api/types';

/** Maps a refused tree write to its coded error. */
export function treeError(err: unknown): unknown {
  if (!(err instanceof TreeWriteRefused)) return err;
  switch (err.reason) {
    case 'nameConflict':
      return new AppError(ERRORS.NAME_CONFLICT);
    case 'quota':
      return new AppError(ERRORS.QUOTA_EXCEEDED);
    case 'locked':
      return new AppError(ERRORS.LOCKED_BY_OTHER);
    case 'forbidden':
      return new AppError(ERRORS.FORBIDDEN);
    default:
      return new AppError(ERRORS.NOT_FOUND);
  }
}

/** The name one copied or moved entry arrives under (absent: its own). */
export interface ArrivalName {
  name?: string;
}

export interface CopyMoveServiceDeps {
  files: FileRepository;
  tree: TreeRepository;
  access: AccessService;
  decorator: EntryDecorator;
  trash: TrashService;
  gate: ByteGate;
  exchange: ExchangeRepository;
}

/** `/api/v2/file/copy` and `/api/v2/file/move`. */
export class CopyMoveService {
  constructor(private readonly deps: CopyMoveServiceDeps) {}

  /** `opts.name`: one entry arrives under this name (a valid one, judged by the caller) rather than its own: WebDAV's Destination. */
  async copy(caller: Caller, req: CopyMoveRequest, now = Date.now(), opts: ArrivalName = {}): Promise<CopyMoveResponse> {
    return this.copyOrMove(caller, req, 'copy', now, opts);
  }

  async move(caller: Caller, req: CopyMoveRequest, now = Date.now(), opts: ArrivalName = {}): Promise<CopyMoveResponse> {
    return this.copyOrMove(caller, req, 'move', now, opts);
  }

  private async copyOrMove(caller: Caller, req: CopyMoveRequest, mode: 'copy' | 'move', now: number, opts: ArrivalName): Promise<CopyMoveResponse> {
    const place = await this.deps.access.place(caller, req.targetParentId, req.targetCategory, req.targetSpaceId);
    const sources = mode === 'move' ? await this.deps.access.modifiable(caller, req.ids) : await this.deps.access.entries(caller, req.ids);
    const detail: Record<string, unknown> = placeDetail(place);
    // Where moved entries came from (the notices tell the members of a group its entries left).
    if (mode === 'move') detail.fromSpaceIds = [...new Set(sources.map((s) => s.row.space_id ?? null))];
    actionLog.record({ action: mode === 'copy' ? 'file.copy' : 'file.move', targets: sources.map((s) => fileTarget(s.row)), detail });
    await this.refuseCycles(caller, place, sources.map((s) => s.row));
    // Copying takes the content away: not through a preview-only share, and an exchange-area file only
    // when usable from the caller's build (a move out of the exchange area likewise).
    this.deps.gate.assertGrants(sources, 'read');
    await this.deps.gate.assertExchange(caller, await this.withTrees(caller, sources.map((s) => s.row)), 'read', undefined, place.spaceId);
    if (mode === 'move') {
      for (const { row } of sources) {
        if (row.is_dir !== 1) continue;
        if (await this.deps.files.lockedByOtherInTree(caller.tenantId, row.id, caller.userId)) throw new AppError(ERRORS.LOCKED_BY_OTHER);
      }
    }
    if (opts.name !== undefined && sources.length !== 1) throw new AppError(ERRORS.VALIDATION, '只有一项时才能指定新名称');
    // Under another name: planned (clashes, overwrite) as the entry it will be.
    const arriving = sources.map((s) => (opts.name !== undefined ? { ...s.row, name: opts.name } : s.row));
    if (opts.name !== undefined) detail.name = opts.name;
    const plans = await planArrivals(this.deps.files, place.parent, arriving, req.decisions);
    await this.deps.access.modifiable(caller, overwriteTargets(plans));

    const placedIds: string[] = [];
    const skipped: string[] = [];
    try {
      for (const plan of plans) {
        if (plan.kind === 'skip') skipped.push(plan.row.id);
        else if (plan.kind === 'stay') placedIds.push(plan.row.id);
        else if (plan.kind === 'overwrite') {
          await this.deps.tree.newVersion(editorOf(caller), plan.existing.id, { blobId: plan.row.blob_id!, size: plan.row.size }, now);
          // A moved file that became a version of another leaves its own entry in the recycle bin.
          if (mode === 'move') await this.deps.trash.trashEntries(caller, [plan], now);
          placedIds.push(plan.existing.id);
        } else if (mode === 'copy') {
          placedIds.push(await this.copyTree(caller, plan.row, place, plan.name, now));
        } else {
          await this.deps.tree.move(
            plan.row.id,
            { parentId: place.parentId, category: place.category, spaceId: place.spaceId, ownerId: place.spaceId === null ? caller.userId : null },
            plan.name,
            nameKeyOf(plan.name),
            now,
          );
          placedIds.push(plan.row.id);
        }
      }
    } catch (err) {
      throw treeError(err);
    }
    detail.skipped = skipped;
    detail.placed = placedIds;
    if (place.category === FILE_CATEGORY.exchange && place.spaceId === null) {
      // Put into the exchange area from the caller's build: what crosses from here waits for checkSwap.
      const arrived = await this.deps.files.findManyInTenant(caller.tenantId, placedIds);
      for (const row of await this.withTrees(caller, arrived)) await this.deps.exchange.stamp(row, caller.networkEnv, now);
    }
    const rows = await this.deps.files.findManyInTenant(caller.tenantId, placedIds);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return { items: await this.deps.decorator.decorate(caller, placedIds.map((id) => byId.get(id)!).filter(Boolean)), skipped };
  }

  /**
   * Copies entries whose access was checked elsewhere (a share link's) into the caller's personal
   * files (a folder of theirs, or the root): taken names get ' (n)'. Answers how many were placed.
   */
  async copyRows(caller: Caller, rows: readonly FilesTable[], targetParentId: string | null, now = Date.now()): Promise<number> {
    const place = await this.deps.access.place(caller, targetParentId, FILE_CATEGORY.personal);
    if (place.spaceId !== null || place.category !== FILE_CATEGORY.personal) throw new AppError(ERRORS.NOT_FOUND);
    const plans = await planArrivals(this.deps.files, place.parent, rows, Object.fromEntries(rows.map((r) => [r.id, 'rename' as const])));
    try {
      for (const plan of plans) {
        if (plan.kind === 'place') await this.copyTree(caller, plan.row, place, plan.name, now);
      }
    } catch (err) {
      throw treeError(err);
    }
    return plans.filter((p) => p.kind === 'place').length;
  }

  /** The rows with every live entry under the folders among them (exchange checks look at files). */
  private async withTrees(caller: Caller, rows: readonly FilesTable[]): Promise<FilesTable[]> {
    const out: FilesTable[] = rows.filter((r) => r.is_dir === 0);
    for (const r of rows) if (r.is_dir === 1) out.push(...(await this.deps.files.liveTree(caller.tenantId, r.id)).map(({ depth: _d, ...row }) => row));
    return out;
  }

  /** A folder cannot go into itself or any of its descendants (checked on the target's ancestor chain). */
  private async refuseCycles(caller: Caller, place: Place, rows: readonly FilesTable[]): Promise<void> {
    if (!place.parentId || !rows.some((r) => r.is_dir === 1)) return;
    const chain = new Set((await this.deps.files.pathTo(caller.tenantId, place.parentId)).map((r) => r.id));
    if (rows.some((r) => r.is_dir === 1 && chain.has(r.id))) throw new AppError(ERRORS.MOVE_INTO_SELF);
  }

  /**
   * Copies an entry's live tree under the place: new ids, the caller as owner, the target's category
   * and space, no locks. Contents are shared (same blob ids), never copied byte by byte; the copied
   * bytes count against the caller's quota.
   */
  private async copyTree(caller: Caller, root: FilesTable, place: Place, name: string, now: number): Promise<string> {
    const tree = await this.deps.files.liveTree(caller.tenantId, root.id);
    const newIds = new Map(tree.map((r) => [r.id, newId()]));
    let bytes = 0;
    const rows: FilesTable[] = tree.map(({ depth, ...r }) => {
      if (r.is_dir === 0) bytes += Number(r.size);
      const isRoot = depth === 0;
      return {
        id: newIds.get(r.id)!,
        tenant_id: caller.tenantId,
        owner_id: caller.userId,
        parent_id: isRoot ? place.parentId : newIds.get(r.parent_id!)!,
        category: place.category,
        name: isRoot ? name : r.name,
        name_key: isRoot ? nameKeyOf(name) : r.name_key,
        sort_key: isRoot ? nameSortKey(name) : r.sort_key,
        is_dir: r.is_dir,
        size: r.size,
        blob_id: r.blob_id,
        created_at: now,
        updated_at: now,
        space_id: place.spaceId,
        encrypted: r.encrypted ?? 0,
      };
    });
    await this.deps.tree.insertTree(rows, caller.userId, bytes, [...newIds]);
    return rows[0]!.id;
  }
}
