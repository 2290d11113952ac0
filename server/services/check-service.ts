import { ERRORS } from '../../common/api/errors';
import { nameSortKey } from '../../common/files/name-sort-key';
import {
  CHECK_BATCH_MAX,
  type CanBeUploadTypeRequest,
  type FileVersionCheckRequest,
  type MultipleFileCheckRequest,
  type RelativePathDirCreateRequest,
  type SensitiveOrLockRequest,
  type UploadCandidate,
  type UploadDecision,
} from '../../common/api/endpoints/pre-upload';
import type {
  CanBeUploadTypeResponse,
  FileVersionCheckResponse,
  HoldReason,
  MultipleFileCheckResponse,
  MultipleFileCheckResult,
  RelativePathDirCreateResponse,
  SensitiveOrLockResult,
  UnprocessedUpload,
} from '../../common/transfer/checks';
import { DEFAULT_SENSITIVE_KEYWORDS } from '../../common/transfer/checks';
import type { FilesTable, UnprocessedUploadsTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import type { CheckRepository, NamedRow } from '../repositories/check-repository';
import type { UserRepository } from '../repositories/user-repository';
import type { Caller } from './caller';
import { placeDetail, scopeOf, validName, type FileService } from './file-service';
import { actionLog, fileTarget, type ActionEntry } from './action-log/recorder';
import type { Place } from './space-access';
import { freeName, numberedLikePattern } from './naming';
import { spaceMayModify } from '../../common/files/space-roles';
import { extensionOf, type BlockedTypes } from './blocked-types';

const UNPROCESSED_LIST_MAX = 1000;


const folderKey = (parentId: string | null, category: number): string => `${category}:${parentId ?? ''}`;

interface Analysis {
  name: string;
  blockedType: boolean;
  sensitive: boolean;
  locked: boolean;
  existing: NamedRow | undefined;
  /** The existing entry may get new content from the caller (the rule rename obeys, space-roles.ts). */
  replaceable: boolean;
  suggestedName: string;
}

export interface CheckServiceDeps {
  repo: CheckRepository;
  users: UserRepository;
  fileService: FileService;
  types: BlockedTypes;
  /** Told of uploads just held for a sensitive name (the notices write the uploader a message). */
  onSensitiveHeld?: (caller: Caller, held: Array<{ key: string; name: string; keyword: string; parentId: string | null; category: number }>) => Promise<void>;
}

export class CheckService {
  constructor(private readonly deps: CheckServiceDeps) {}

  async settings(tenantId: string): Promise<{ blockedExtensions: string[]; sensitiveKeywords: string[] }> {
    const s = await this.deps.repo.tenantSettings(tenantId);
    return { blockedExtensions: await this.deps.types.blockedExtensions(tenantId), sensitiveKeywords: s.sensitiveKeywords ?? [...DEFAULT_SENSITIVE_KEYWORDS] };
  }

  async canBeUploadType(caller: Caller, req: CanBeUploadTypeRequest): Promise<CanBeUploadTypeResponse> {
    const { blockedExtensions } = await this.settings(caller.tenantId);
    const allowed: string[] = [];
    const blocked: CanBeUploadTypeResponse['blocked'] = [];
    for (const name of req.names) {
      const extension = extensionOf(name);
      if (extension && blockedExtensions.includes(extension)) blocked.push({ name, extension });
      else allowed.push(name);
    }
    return { allowed, blocked, blockedExtensions };
  }

  /**
   * Every check for a batch with a fixed number of queries whatever its size: settings, parent
   * folders, same-name entries, taken numbered names.
   */
  private async analyze(caller: Caller, items: UploadCandidate[]): Promise<Analysis[]> {
    if (!items.some((i) => i.versionOf !== undefined)) return this.analyzeByName(caller, items);
    // 上传新版本 by id: each judged against its file; the others by name in their folders.
    const byName = await this.analyzeByName(caller, items.filter((i) => i.versionOf === undefined));
    const settings = await this.settings(caller.tenantId);
    const out: Analysis[] = [];
    for (const item of items) out.push(item.versionOf === undefined ? byName.shift()! : await this.analyzeVersion(caller, item.versionOf, settings));
    return out;
  }

  /**
   * A new version of the file `fileId` (VersionOf): wherever it sits, a share's file at its owner's top
   * level included. The name is the file's; an id the caller cannot see is 404, like any id.
   */
  private async analyzeVersion(caller: Caller, fileId: string, settings: { blockedExtensions: string[]; sensitiveKeywords: string[] }): Promise<Analysis> {
    const { row, replaceable, locked } = await this.deps.fileService.versionState(caller, fileId);
    const extension = extensionOf(row.name);
    const lower = row.name.toLowerCase();
    return {
      name: row.name,
      blockedType: extension !== '' && settings.blockedExtensions.includes(extension),
      sensitive: settings.sensitiveKeywords.some((k) => k !== '' && lower.includes(k.toLowerCase())),
      locked,
      existing: { id: row.id, parent_id: row.parent_id, category: row.category, name_key: row.name_key, is_dir: row.is_dir, owner_id: row.owner_id, locked_by: row.locked_by ?? null },
      replaceable,
      suggestedName: row.name,
    };
  }

  private async analyzeByName(caller: Caller, items: UploadCandidate[]): Promise<Analysis[]> {
    if (items.length === 0) return [];
    const scope = scopeOf(caller);
    const names = items.map((i) => validName(i.name));
    const { blockedExtensions, sensitiveKeywords } = await this.settings(caller.tenantId);

    // Each distinct folder once: it must be one the caller may write to (their own, or a group or
    // public folder); items inside take the folder's category, so clashes are found whatever they sent.
    const places = new Map<string, Place>();
    for (const item of items) {
      if (item.parentId === null || places.has(item.parentId)) continue;
      places.set(item.parentId, await this.deps.fileService.requireParent(caller, item.parentId, item.category));
    }
    items = items.map((item) => (item.parentId === null ? item : { ...item, category: places.get(item.parentId)!.category }));

    const groups = new Map<string, { parentId: string | null; category: number; nameKeys: string[]; patterns: string[] }>();
    items.forEach((item, i) => {
      const k = folderKey(item.parentId, item.category);
      let g = groups.get(k);
      if (!g) groups.set(k, (g = { parentId: item.parentId, category: item.category, nameKeys: [], patterns: [] }));
      g.nameKeys.push(names[i]!.toLowerCase());
    });
    const existing = new Map<string, NamedRow>();
    for (const row of await this.deps.repo.findByNames(scope, [...groups.values()])) {
      existing.set(`${folderKey(row.parent_id, row.category)}/${row.name_key}`, row);
    }
    const clashing = items.map((item, i) => existing.get(`${folderKey(item.parentId, item.category)}/${names[i]!.toLowerCase()}`));
    items.forEach((item, i) => {
      if (clashing[i]) groups.get(folderKey(item.parentId, item.category))!.patterns.push(numberedLikePattern(names[i]!));
    });
    // Names taken in each folder: existing entries of interest, then every name this batch uses.
    const taken = new Map<string, Set<string>>();
    const takenIn = (k: string) => taken.get(k) ?? taken.set(k, new Set()).get(k)!;
    for (const row of existing.values()) takenIn(folderKey(row.parent_id, row.category)).add(row.name_key);
    for (const row of await this.deps.repo.namesLike(scope, [...groups.values()])) takenIn(folderKey(row.parent_id, row.category)).add(row.name_key);
    items.forEach((item, i) => {
      if (!clashing[i]) takenIn(folderKey(item.parentId, item.category)).add(names[i]!.toLowerCase());
    });

    return items.map((item, i) => {
      const name = names[i]!;
      const lower = name.toLowerCase();
      const row = clashing[i];
      let suggestedName = name;
      if (row) {
        const set = takenIn(folderKey(item.parentId, item.category));
        suggestedName = freeName(name, set);
        set.add(suggestedName.toLowerCase());
      }
      const extension = extensionOf(name);
      return {
        name,
        blockedType: extension !== '' && blockedExtensions.includes(extension),
        sensitive: sensitiveKeywords.some((k) => k !== '' && lower.includes(k.toLowerCase())),
        locked: Boolean(row?.locked_by && row.locked_by !== caller.userId),
        existing: row,
        replaceable: !row || mayReplace(caller, item.parentId === null ? undefined : places.get(item.parentId), row),
        suggestedName,
      };
    });
  }

  /** Records the held items (the user decides later, maybe on another device). */
  private async hold(caller: Caller, items: UploadCandidate[], reasons: Array<HoldReason | null>, now: number): Promise<void> {
    const rows: UnprocessedUploadsTable[] = [];
    items.forEach((item, i) => {
      const reason = reasons[i];
      if (!reason) return;
      rows.push({
        user_id: caller.userId,
        upload_key: item.key,
        tenant_id: caller.tenantId,
        name: item.name.trim(),
        parent_id: item.parentId,
        category: item.category,
        reason,
        created_at: now,
        decided_at: null,
        decision: null,
      });
    });
    await this.deps.repo.upsertUnprocessed(rows);
    const sensitive = rows.filter((r) => r.reason === 'sensitive');
    if (sensitive.length > 0 && this.deps.onSensitiveHeld) {
      const { sensitiveKeywords } = await this.settings(caller.tenantId);
      const keywordOf = (name: string) => sensitiveKeywords.find((k) => k !== '' && name.toLowerCase().includes(k.toLowerCase())) ?? '';
      await this.deps.onSensitiveHeld(caller, sensitive.map((r) => ({ key: r.upload_key, name: r.name, keyword: keywordOf(r.name), parentId: r.parent_id, category: r.category })));
    }
  }

  async sensitiveOrLock(caller: Caller, req: SensitiveOrLockRequest, now = Date.now()): Promise<SensitiveOrLockResult[]> {
    const analysis = await this.analyze(caller, req.items);
    await this.hold(
      caller,
      req.items,
      analysis.map((a) => (a.locked ? 'locked' : a.sensitive ? 'sensitive' : null)),
      now,
    );
    return req.items.map((item, i) => ({ key: item.key, sensitive: analysis[i]!.sensitive, locked: analysis[i]!.locked }));
  }

  /** By name in parentId, or with versionOf by the file's id wherever it sits (404 when the caller cannot see it). */
  async fileVersionCheck(caller: Caller, req: FileVersionCheckRequest): Promise<FileVersionCheckResponse> {
    const [a] = await this.analyze(caller, [{ key: '', name: req.name, size: 0, parentId: req.parentId, category: req.category, ...(req.versionOf !== undefined ? { versionOf: req.versionOf } : {}) }]);
    return { exists: Boolean(a!.existing), fileId: a!.existing?.id ?? null, suggestedName: a!.suggestedName, locked: a!.locked, replaceable: a!.replaceable };
  }

  /**
   * One pass for a batch. overQuota is cumulative in request order over the items that may be
   * uploaded (blocked types never are, so they do not count). Held items (locked, sensitive, or a
   * name that exists) are recorded as unprocessed entries under the client's key.
   */
  async multipleFileCheck(caller: Caller, req: MultipleFileCheckRequest, now = Date.now()): Promise<MultipleFileCheckResponse> {
    const analysis = await this.analyze(caller, req.items);
    const user = await this.deps.users.findById(caller.userId);
    const remaining = user ? Number(user.quota) - Number(user.used_size) : 0;
    let cumulative = 0;
    const results: MultipleFileCheckResult[] = req.items.map((item, i) => {
      const a = analysis[i]!;
      if (!a.blockedType) cumulative += item.size;
      return {
        key: item.key,
        blockedType: a.blockedType,
        sensitive: a.sensitive,
        locked: a.locked,
        exists: Boolean(a.existing),
        existingFileId: a.existing?.id ?? null,
        replaceable: a.replaceable,
        suggestedName: a.suggestedName,
        overQuota: !a.blockedType && cumulative > remaining,
      };
    });
    await this.hold(
      caller,
      req.items,
      results.map((r) => (r.blockedType ? null : r.locked ? 'locked' : r.sensitive ? 'sensitive' : r.exists ? (r.replaceable ? 'exists' : 'existsNotYours') : null)),
      now,
    );
    return { results };
  }

  /**
   * Creates the folders of a folder upload idempotently: every '/'-separated segment must pass
   * checkFileName (so '', '.', '..' and separators are refused, no path can climb out of parentId),
   * existing folders are reused, a file in the way is NAME_CONFLICT. All or nothing.
   */
  async relativePathDirCreate(caller: Caller, req: RelativePathDirCreateRequest, now = Date.now()): Promise<RelativePathDirCreateResponse> {
    if (req.relativePaths.length > CHECK_BATCH_MAX) throw new AppError(ERRORS.VALIDATION, `一次最多创建 ${CHECK_BATCH_MAX} 个目录`);
    // Inside a group or public folder the new folders take its category and space.
    const place = await this.deps.fileService.requireParent(caller, req.parentId, req.category);
    // Normalised prefix ('a/b') → its segments, for every requested path and all its ancestors.
    const prefixes = new Map<string, string[]>();
    const requested: Array<[string, string]> = [];
    for (const raw of req.relativePaths) {
      const segments = raw.split('/').map((seg) => validName(seg));
      for (let d = 1; d <= segments.length; d++) prefixes.set(segments.slice(0, d).join('/'), segments.slice(0, d));
      requested.push([raw, segments.join('/')]);
    }
    const ordered = [...prefixes.entries()].sort((a, b) => a[1].length - b[1].length);
    // The folders this call creates (the others existed): what the action log records.
    const made = new Map<string, FilesTable>();
    const entry: ActionEntry = { action: 'file.mkdir', targets: [], detail: { ...placeDetail(place), paths: req.relativePaths.length } };
    actionLog.record(entry);
    const ids = await this.deps.repo.ensureFolderTree(
      ordered.map(([path, segments]) => ({ path, parentPath: segments.length > 1 ? segments.slice(0, -1).join('/') : null, name: segments.at(-1)! })),
      (name, parentId) => remember(made, {
        id: newId(),
        tenant_id: caller.tenantId,
        owner_id: caller.userId,
        parent_id: parentId,
        category: place.category,
        name,
        name_key: name.toLowerCase(),
        sort_key: nameSortKey(name),
        is_dir: 1,
        size: 0,
        blob_id: null,
        created_at: now,
        updated_at: now,
        space_id: place.spaceId,
      }),
      req.parentId,
    );
    if (!ids) throw new AppError(ERRORS.NAME_CONFLICT);
    entry.targets = [...ids.values()].filter((id) => made.has(id)).map((id) => fileTarget(made.get(id)!));
    // Every folder existed already: nothing happened.
    if (entry.targets.length === 0) actionLog.notAnAction();
    return { dirs: Object.fromEntries(requested.map(([raw, path]) => [raw, ids.get(path)!])) };
  }

  async keep(caller: Caller, decision: UploadDecision, now = Date.now()): Promise<UploadDecision> {
    await this.decide(caller, decision.key, decision.policy, now);
    return decision;
  }

  async giveUp(caller: Caller, key: string, now = Date.now()): Promise<{ key: string }> {
    await this.decide(caller, key, 'giveUp', now);
    return { key };
  }

  /** A decision on a held upload (kept despite being sensitive, given up…) is an action of its own. */
  private async decide(caller: Caller, key: string, decision: string, now: number): Promise<void> {
    const entry: ActionEntry = { action: 'file.uploadDecision', targets: [], detail: { decision } };
    actionLog.record(entry);
    const held = await this.deps.repo.decide(caller.userId, key, decision, now);
    if (!held) throw new AppError(ERRORS.UPLOAD_NOT_FOUND);
    entry.targets = [{ type: 'file', id: '', name: held.name }];
    entry.detail = { decision, reason: held.reason };
  }

  async listUnprocessed(caller: Caller): Promise<UnprocessedUpload[]> {
    const rows = await this.deps.repo.listUndecided(caller.userId, UNPROCESSED_LIST_MAX);
    return rows.map((r) => ({
      key: r.upload_key,
      name: r.name,
      parentId: r.parent_id,
      category: r.category,
      reason: r.reason as HoldReason,
      createdAt: Number(r.created_at),
    }));
  }
}

function remember(made: Map<string, FilesTable>, row: FilesTable): FilesTable {
  made.set(row.id, row);
  return row;
}

/**
 * May the caller give the existing entry at `place` new content? The rule rename and the content gate
 * (repositories/content-replacement.ts) apply: never a folder; in a space by role; in personal files
 * only their owner.
 */
function mayReplace(caller: Caller, place: Place | undefined, row: NamedRow): boolean {
  if (row.is_dir === 1) return false;
  if (place?.spaceRole === undefined) return row.owner_id === caller.userId;
  return spaceMayModify(place.spaceRole, caller.userId, row.owner_id, caller.role === 'admin');
}
