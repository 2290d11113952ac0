/**
 * The desktop sync's server side (common/api/paths.ts: syncContent, syncCheck, syncRemove):
 *  - the whole subtree of a folder in 同步文件 as one snapshot, or "unchanged" when the client's
 *    token is still the subtree's digest (common/sync/tree-digest.ts): an idle pass is one small answer;
 *  - the tenant's verdict on files about to be uploaded (common/sync/policy.ts);
 *  - deletes guarded by the digest the client computed from its listing: an entry another device
 *    changed meanwhile (or a folder it added to) is left alone and reported as changed. The check and
 *    the delete are two statements: a change landing between them (microseconds) is not seen;
 *  - the admin's syncTime comes with each listing (the engine's interval between full passes).
 */
import type { SynCheckRequest, SynContentRequest, SynRemoveRequest } from '../../common/api/endpoints/sync';
import { createHash } from 'node:crypto';
import { ERRORS } from '../../common/api/errors';
import {
  type SynCheckResponse,
  type SynEntry,
  type SynRemoveResponse,
} from '../../common/api/types';
import { FILE_CATEGORY } from '../../common/api/types';
import { judgeSyncFile } from '../../common/sync/policy';
import { treeDigestInput } from '../../common/sync/tree-digest';
import { AppError } from '../http/app-error';
import type { SyncRepository, SyncRow } from '../repositories/sync-repository';
import type { BlockedTypes } from './blocked-types';
import type { Caller } from './caller';
import type { CheckService } from './check-service';
import type { ByteGate } from './sharing/byte-gate';
import type { AccessService } from './space-access';
import type { TrashService } from './trash-service';

/** Categories that are not synced files (spec §3: 1 personal, 2 shared, 3 exchange; 0 = spaces). */
const NOT_SYNCED = new Set([0, FILE_CATEGORY.personal, FILE_CATEGORY.shared, FILE_CATEGORY.exchange]);

export interface SyncServiceDeps {
  repo: SyncRepository;
  access: AccessService;
  trash: TrashService;
  types: BlockedTypes;
  checks: CheckService;
  /** The admin's syncTime (minutes; POST /api/v2/defaultConfig/modify/syncTime, kept by the tenant settings). */
  syncTimeOf: (tenantId: string) => Promise<number>;
  /** Fingerprints only for callers who may read the original (common/api/byte-access.ts). */
  gate: ByteGate;
}

export class SyncService {
  constructor(private readonly deps: SyncServiceDeps) {}

  /**
   * A live folder in 同步文件 the caller may see (their own, or shared with them), else 404 (others'
   * ids) or SYNC_ROOT_INVALID; with whether they may read the original (fingerprints).
   */
  private async requireSyncedFolder(caller: Caller, id: string): Promise<{ fingerprints: boolean }> {
    const entry = await this.deps.access.entry(caller, id);
    const { row } = entry;
    if (row.is_dir !== 1) throw new AppError(ERRORS.PARENT_NOT_FOLDER);
    if (row.space_id || NOT_SYNCED.has(row.category)) throw new AppError(ERRORS.SYNC_ROOT_INVALID);
    return { fingerprints: this.deps.gate.mayReadOriginal(entry) };
  }

  /** The subtree's digest over what the caller is shown (no fingerprints to one who may not read). */
  private digest(caller: Caller, rows: readonly SyncRow[], fingerprints: boolean): string {
    return createHash('sha256').update(treeDigestInput(rows.map((r) => toDigestEntry(caller, r, fingerprints)))).digest('hex');
  }

  /**
   * The listing, as JSON text with one item per line (so a client can parse it as it arrives, an item
   * at a time, instead of holding 100,000 items' text at once); any JSON parser reads it as usual.
   */
  async content(caller: Caller, req: SynContentRequest): Promise<string> {
    const { fingerprints } = await this.requireSyncedFolder(caller, req.rootId);
    const lockerOf = (lockedBy: string | null) => (lockedBy && lockedBy !== caller.userId ? '1' : '0');
    const [token, syncTime] = await Promise.all([this.deps.repo.subtreeVersion(caller.tenantId, req.rootId, lockerOf), this.deps.syncTimeOf(caller.tenantId)]);
    const head = (unchanged: boolean) => `{"data":{"token":${JSON.stringify(token)},"syncTime":${syncTime},"unchanged":${unchanged},"items":[`;
    if (req.token && req.token === token) return `${head(true)}]}}`;
    const rows = await this.deps.repo.liveSubtree(caller.tenantId, req.rootId);
    const lines: string[] = [];
    for (const r of rows) {
      if (r.id === req.rootId || r.parent_id === null) continue;
      const item: SynEntry = {
        id: r.id,
        parentId: r.parent_id,
        name: r.name,
        isDir: r.is_dir === 1,
        size: r.is_dir === 1 ? 0 : r.size,
        updatedAt: r.updated_at,
        fingerprint: r.is_dir === 1 || !fingerprints ? null : r.fingerprint,
        lockedByOther: lockerOf(r.locked_by) === '1',
      };
      lines.push(JSON.stringify(item));
    }
    return `${head(false)}\n${lines.join(',\n')}\n]}}`;
  }

  async check(caller: Caller, req: SynCheckRequest): Promise<SynCheckResponse> {
    const [blockedExtensions, checkSettings, secretMarks] = await Promise.all([
      this.deps.types.blockedExtensions(caller.tenantId),
      this.deps.checks.settings(caller.tenantId),
      this.deps.repo.secretMarks(caller.tenantId),
    ]);
    const rules = { blockedExtensions, sensitiveKeywords: checkSettings.sensitiveKeywords, secretMarks };
    return { results: req.items.map((i) => ({ key: i.key, ...judgeSyncFile(i.name, rules) })) };
  }

  async remove(caller: Caller, req: SynRemoveRequest, now = Date.now()): Promise<SynRemoveResponse> {
    // Every id first: one the caller cannot see answers 404 before anything changes.
    const entries = await this.deps.access.entries(caller, req.items.map((i) => i.id), { allowDeleted: true });
    for (const { row } of entries) {
      if (row.space_id || NOT_SYNCED.has(row.category)) throw new AppError(ERRORS.SYNC_ROOT_INVALID);
    }
    // Compared over what the caller's listing showed: the digest is no oracle for a fingerprint it withheld.
    const fingerprints = new Map(entries.map((e) => [e.row.id, this.deps.gate.mayReadOriginal(e)]));
    const removed: string[] = [];
    const changed: string[] = [];
    for (const item of req.items) {
      const rows = await this.deps.repo.liveSubtree(caller.tenantId, item.id);
      if (rows.length === 0) {
        removed.push(item.id); // in the recycle bin already
        continue;
      }
      if (this.digest(caller, rows, fingerprints.get(item.id) ?? false) !== item.digest) {
        changed.push(item.id);
        continue;
      }
      await this.deps.trash.remove(caller, { ids: [item.id] }, now);
      removed.push(item.id);
    }
    return { removed, changed };
  }

}

function toDigestEntry(caller: Caller, r: SyncRow, fingerprints: boolean) {
  return {
    id: r.id,
    parentId: r.parent_id,
    name: r.name,
    isDir: r.is_dir === 1,
    fingerprint: r.is_dir === 1 || !fingerprints ? null : r.fingerprint,
    size: r.is_dir === 1 ? 0 : r.size,
    updatedAt: r.updated_at,
    lockedByOther: Boolean(r.locked_by) && r.locked_by !== caller.userId,
  };
}
