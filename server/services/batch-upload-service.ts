/**
 * Small files in batches (common/transfer/batch-upload.ts): one request, one transaction, each file
 * checked, deduplicated and refusable on its own. Order of the durable steps, for crash safety:
 *   1. the new contents' keys are recorded as intents (blob_intents), committed;
 *   2. the contents are written, fsynced together, renamed into the blob store, directories fsynced;
 *   3. one transaction creates blob and file rows (a savepoint per item) and forgets the intents of
 *      the keys they took;
 *   4. the files of keys no item took are removed, then their intents are forgotten.
 * A crash before 4 ends leaves intents: startup recovery removes the files of those without a blob row.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { ERRORS } from '../../common/api/errors';
import { CONTENT_HEAD_BYTES } from '../../common/files/content-signatures';
import {
  BATCH_FILE_MAX_BYTES,
  BATCH_MANIFEST_MAX_BYTES,
  BATCH_MAX_BYTES,
  BATCH_MAX_FILES,
  type BatchUploadItem,
  type BatchUploadManifest,
  type BatchUploadResponse,
  type BatchUploadResult,
} from '../../common/transfer/batch-upload';
import { CLIENT_KEY_PATTERN, SHA256_HEX } from '../../common/transfer/protocol';
import { AppError } from '../http/app-error';
import { BodyTooShort, ExactReader } from '../http/exact-reader';
import { chunkDigestOf, fingerprintOf } from '../storage/content-digest';
import type { BatchUploadRepository } from '../repositories/batch-upload-repository';
import { editorOf } from '../repositories/content-replacement';
import type { CommitInput } from '../repositories/upload-commit-tx';
import type { UploadRepository } from '../repositories/upload-repository';
import type { BlobStore } from '../storage/byte-store';
import type { Caller } from './caller';
import { actionLog, describeWrite, fileTarget, type ActionEntry } from './action-log/recorder';
import { toFileEntry, validName, type FileService } from './file-service';
import type { FileEntry } from '../../common/api/types';
import { commitError, draftFile, finishedEntry } from './upload-commit';
import type { TypePolicy } from './upload-service';

const CLIENT_KEY_RE = new RegExp(CLIENT_KEY_PATTERN);
const CONFLICT_POLICIES = new Set(['fail', 'newVersion', 'rename']);

/**
 * An item on its way through the batch: refused as soon as one check says no. A single upload
 * (uploadOne) has no client key: its item's `clientKey` is '' and never reaches the commit.
 */
interface Pending {
  caller: Caller;
  item: BatchUploadItem;
  name: string;
  result: BatchUploadResult | null;
  /** The refusal itself (result holds its code and message). */
  error?: AppError;
  bytes?: Buffer;
  /** The protocol's fingerprint of the bytes under the server's chunk size (what a chunked upload of them gets). */
  fingerprint?: string;
  /** Its file came from an earlier request with the same client key (an answer lost): not created now. */
  repeat?: boolean;
  /** Created as a new version of an existing file. */
  replacedVersion?: boolean;
}

const refused = (clientKey: string, error: AppError): BatchUploadResult => ({ clientKey, status: 'refused', errorCode: error.code, errorMessage: error.message });

function refuse(p: Pending, error: AppError): void {
  p.result = refused(p.item.clientKey, error);
  p.error = error;
}

/** What uploadOne writes: one file of at most BATCH_FILE_MAX_BYTES, by name in a folder (or a category's root). */
export interface SingleUpload {
  name: string;
  parentId: string | null;
  category: number;
  size: number;
  /** 'newVersion': the file of that name there gets a new version (a share with 编辑 lets it into another's folder). */
  onConflict: 'fail' | 'newVersion';
}

/** Single uploads waiting for their tenant's next commit, and whether one is running. */
interface StoreGroup {
  waiting: { pending: Pending; now: number; resolve: () => void; reject: (err: unknown) => void }[];
  running: boolean;
}

export interface BatchUploadServiceDeps {
  batches: BatchUploadRepository;
  uploads: UploadRepository;
  fileService: FileService;
  blobs: BlobStore;
  types: TypePolicy;
  /** The chunk size the server announces: fingerprints match those of chunked uploads of the same bytes. */
  chunkSize: number;
}

export class BatchUploadService {
  private readonly groups = new Map<string, StoreGroup>();

  constructor(private readonly deps: BatchUploadServiceDeps) {}

  /** `manifestDigest`: the HEADER_BATCH_MANIFEST_SHA256 header, when the client sent one. */
  async upload(caller: Caller, body: Readable, manifestDigest?: string, now = Date.now()): Promise<BatchUploadResponse> {
    const reader = new ExactReader(body);
    try {
      const manifest = await readManifest(reader, manifestDigest?.toLowerCase());
      const pending = await this.checkItems(caller, manifest.items);
      for (const p of pending) {
        const bytes = await reader.read(p.item.size);
        if (p.result === null) await this.checkBytes(p, bytes);
      }
      if (!(await reader.atEnd())) throw new AppError(ERRORS.CHUNK_SIZE_MISMATCH, '批量上传的内容比清单所列更长');
      await this.store(caller.tenantId, pending.filter((p) => p.result === null), now);
      recordBatch(pending);
      return { results: pending.map((p) => p.result as BatchUploadResult) };
    } catch (err) {
      if (err instanceof BodyTooShort) throw new AppError(ERRORS.CHUNK_SIZE_MISMATCH, '批量上传的内容比清单所列更短');
      throw err;
    }
  }

  /**
   * One file's bytes as one item of a batch (WebDAV's PUT of a small body, server/dav/method-put.ts):
   * the same checks before the bytes (name, folder, blocked name) and after (blocked content), the
   * same dedup and commit (quota, locks, a new version on overwrite) and the same action row. Single
   * uploads of a tenant arriving while its last commit runs are committed together in the next one
   * (one transaction, each item behind its savepoint and answered on its own), so a client sending
   * files side by side pays for one commit per round, not per file. Refusals throw their AppError.
   */
  async uploadOne(caller: Caller, single: SingleUpload, body: Readable, now = Date.now()): Promise<FileEntry> {
    if (!Number.isSafeInteger(single.size) || single.size < 0 || single.size > BATCH_FILE_MAX_BYTES) throw new AppError(ERRORS.VALIDATION, '文件太大，不能一次上传');
    const item: BatchUploadItem = { clientKey: '', name: single.name, parentId: single.parentId, category: single.category, size: single.size, digest: '', onConflict: single.onConflict };
    // One file, recorded as a merge records one (file.upload, or file.versionNew when it replaced one).
    const entry: ActionEntry = {
      action: 'file.upload',
      targets: [{ type: 'file', id: '', name: single.name }],
      detail: { method: 'single', parentId: single.parentId, category: single.category, onConflict: single.onConflict },
    };
    actionLog.record(entry);
    const p = await this.checkItem(caller, item, new Map());
    if (p.result === null) {
      let bytes: Buffer;
      try {
        const reader = new ExactReader(body);
        bytes = await reader.read(single.size);
        if (!(await reader.atEnd())) throw new AppError(ERRORS.CHUNK_SIZE_MISMATCH, '上传的内容比所说的长度更长');
      } catch (err) {
        if (err instanceof BodyTooShort) throw new AppError(ERRORS.CHUNK_SIZE_MISMATCH, '上传的内容比所说的长度更短');
        throw err;
      }
      await this.acceptBytes(p, bytes);
    }
    if (p.result === null) await this.storeWithOthers(p, now);
    if (p.error) throw p.error;
    const file = (p.result as { file: FileEntry }).file;
    describeWrite(entry, { ...file, is_dir: 0 }, p.replacedVersion === true);
    return file;
  }

  /** What can be decided before the bytes: finished keys, names, target folders, blocked names. */
  private async checkItems(caller: Caller, items: BatchUploadItem[]): Promise<Pending[]> {
    const places = new Map<string, Promise<unknown>>();
    const pending: Pending[] = [];
    for (const item of items) pending.push(await this.checkItem(caller, item, places));
    return pending;
  }

  /** One item's checks before its bytes; `places`: the target folders judged so far in this batch. */
  private async checkItem(caller: Caller, item: BatchUploadItem, places: Map<string, Promise<unknown>>): Promise<Pending> {
    const p: Pending = { caller, item, name: item.name, result: null };
    const finished = await finishedEntry(this.deps.uploads, caller, item.clientKey || undefined);
    if (finished) {
      p.result = { clientKey: item.clientKey, status: 'created', file: finished };
      p.repeat = true;
      return p;
    }
    try {
      p.name = validName(item.name);
      const placeKey = `${item.parentId}/${item.category}`;
      if (!places.has(placeKey)) places.set(placeKey, this.deps.fileService.requireParent(caller, item.parentId, item.category));
      // A folder the caller cannot write to may still take a new version of a file shared with them (edit).
      await places.get(placeKey)!.catch((err: unknown) =>
        item.onConflict === 'newVersion' ? this.deps.fileService.requireParent(caller, item.parentId, item.category, p.name) : Promise.reject(err),
      );
      await this.deps.types.assertAllowedType(caller.tenantId, p.name);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      refuse(p, err);
    }
    return p;
  }

  /** The bytes against the announced digest, then blocked content. */
  private async checkBytes(p: Pending, bytes: Buffer): Promise<void> {
    if (chunkDigestOf(bytes) !== p.item.digest) {
      refuse(p, new AppError(ERRORS.CHUNK_DIGEST_MISMATCH, '文件校验失败，请重试'));
      return;
    }
    await this.acceptBytes(p, bytes);
  }

  /** Blocked content, then the bytes are the item's, with their fingerprint. */
  private async acceptBytes(p: Pending, bytes: Buffer): Promise<void> {
    try {
      if (bytes.length > 0) await this.deps.types.assertAllowedContent(p.caller.tenantId, p.name, bytes.subarray(0, CONTENT_HEAD_BYTES));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      refuse(p, err);
      return;
    }
    p.bytes = bytes;
    p.fingerprint = fingerprintOf(bytes, this.deps.chunkSize);
  }

  /**
   * Stores a single upload with the others of its tenant waiting at that moment: the first one in
   * starts a commit at once; those arriving while it runs go together in the next (group commit: no
   * timer, no wait when nothing else is going on).
   */
  private storeWithOthers(p: Pending, now: number): Promise<void> {
    const tenantId = p.caller.tenantId;
    let group = this.groups.get(tenantId);
    if (!group) {
      group = { waiting: [], running: false };
      this.groups.set(tenantId, group);
    }
    const done = new Promise<void>((resolve, reject) => group.waiting.push({ pending: p, now, resolve, reject }));
    if (!group.running) void this.runGroup(tenantId, group);
    return done;
  }

  private async runGroup(tenantId: string, group: StoreGroup): Promise<void> {
    group.running = true;
    try {
      while (group.waiting.length > 0) {
        const round = group.waiting.splice(0, BATCH_MAX_FILES);
        try {
          await this.store(tenantId, round.map((w) => w.pending), round[0]!.now);
          for (const w of round) w.resolve();
        } catch (err) {
          for (const w of round) w.reject(err);
        }
      }
    } finally {
      group.running = false;
      if (this.groups.get(tenantId) === group && group.waiting.length === 0) this.groups.delete(tenantId);
    }
  }

  /** Writes the contents the tenant does not store yet, then commits every item at once. */
  private async store(tenantId: string, accepted: Pending[], now: number): Promise<void> {
    if (accepted.length === 0) return;
    const known = await this.deps.batches.tenantBlobs(tenantId, [...new Set(accepted.map((p) => p.fingerprint!))]);
    // One new blob per distinct new content (a batch may carry the same bytes twice).
    const newContents = new Map<string, Uint8Array>();
    for (const p of accepted) {
      const content = `${p.fingerprint}/${p.item.size}`;
      if (!known.has(content) && !newContents.has(content)) newContents.set(content, p.bytes!);
    }
    const fresh = this.deps.blobs.newKeys(newContents.size);
    const newKeys = new Map([...newContents].map(([content, data], i) => [content, { key: fresh[i]!, data }]));
    const pieces = [...newKeys.values()];
    const keys = pieces.map((piece) => piece.key);
    await this.deps.batches.recordIntents(keys, now);
    try {
      await this.deps.blobs.writePieces(pieces);
    } catch (err) {
      await this.dropPieces(keys);
      throw err;
    }
    const inputs = accepted.map((p): CommitInput => {
      const content = `${p.fingerprint}/${p.item.size}`;
      const existing = known.get(content);
      return {
        uploadId: null,
        editor: editorOf(p.caller),
        fingerprint: p.fingerprint!,
        size: p.item.size,
        blob: existing ? { kind: 'existing', id: existing.id } : { kind: 'new', id: newKeys.get(content)!.key, layout: null, fingerprintChunkSize: this.deps.chunkSize },
        file: draftFile(p.caller, p.name, p.item.parentId, p.item.category, p.item.size, now),
        onConflict: p.item.onConflict ?? 'fail',
        ifMatch: p.item.ifMatch ?? null,
        now,
        ...(p.item.clientKey !== '' ? { clientKey: p.item.clientKey } : {}),
      };
    });
    let outcomes;
    try {
      outcomes = await this.deps.batches.commitBatch(inputs, keys);
    } catch (err) {
      await this.dropPieces(keys);
      throw err;
    }
    const used = new Set<string>();
    for (const [i, outcome] of outcomes.entries()) {
      const p = accepted[i]!;
      if (outcome.ok) {
        used.add(outcome.blobId);
        p.replacedVersion = outcome.replacedVersion;
        p.result = { clientKey: p.item.clientKey, status: 'created', file: toFileEntry(outcome.file) };
      } else if (outcome.reason === 'finished') {
        const earlier = await finishedEntry(this.deps.uploads, p.caller, p.item.clientKey);
        if (earlier) p.result = { clientKey: p.item.clientKey, status: 'created', file: earlier };
        else refuse(p, commitError('uploadGone'));
        p.repeat = Boolean(earlier);
      } else {
        // blobGone: the stored content vanished between the look-up and the commit; the client sends again.
        refuse(p, commitError(outcome.reason));
      }
    }
    // New contents no committed item took (all refused, or another upload stored them first); the
    // intents of those taken went with the commit.
    const unused = keys.filter((key) => !used.has(key));
    await Promise.all(unused.map((key) => this.deps.blobs.remove(key)));
    await this.deps.batches.forgetIntents(unused);
  }

  private async dropPieces(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => this.deps.blobs.remove(key)));
    await this.deps.batches.forgetIntents(keys);
  }
}

/** The manifest, checked for shape and limits (REQ-2001 for anything off). */
/**
 * The batch is one action (file.upload, method batch): the files it created are its targets (new
 * versions counted), the items refused are listed with their codes. A batch that created nothing and
 * refused nothing (every item a repeat of a lost answer) is no action; one that only refused items
 * is recorded refused, with the first item's code.
 */
function recordBatch(pending: readonly Pending[]): void {
  const created = pending.filter((p) => p.result?.status === 'created' && !p.repeat);
  const refusals = pending.flatMap((p) => (p.result?.status === 'refused' ? [{ name: p.item.name, errorCode: p.result.errorCode }] : []));
  if (created.length === 0 && refusals.length === 0) {
    actionLog.notAnAction();
    return;
  }
  actionLog.record({
    action: 'file.upload',
    targets: created.map((p) => fileTarget({ ...(p.result as { file: { id: string; name: string } }).file, is_dir: 0 })),
    detail: {
      method: 'batch',
      items: pending.length,
      created: created.length,
      newVersions: created.filter((p) => p.replacedVersion).length,
      newVersionIds: created.filter((p) => p.replacedVersion).map((p) => (p.result as { file: { id: string } }).file.id),
      // The created files' bytes, in total and one by one (the targets' order): 统计报表 counts them.
      bytes: created.reduce((sum, p) => sum + (p.result as { file: { size: number } }).file.size, 0),
      sizes: created.map((p) => (p.result as { file: { size: number } }).file.size),
      ...(refusals.length > 0 ? { refused: refusals.slice(0, 100) } : {}),
    },
    ...(created.length === 0 ? { refusedWith: refusals[0]!.errorCode } : {}),
  });
}

/**
 * The manifest, checked for shape and limits (REQ-2001 for anything off). With the client's digest
 * of the frame (length prefix and manifest), bytes damaged on the way answer CHUNK_DIGEST_MISMATCH,
 * which the client retries, instead of a refusal of the manifest it did not send.
 */
async function readManifest(reader: ExactReader, digest: string | undefined): Promise<BatchUploadManifest> {
  const damaged = () => new AppError(ERRORS.CHUNK_DIGEST_MISMATCH, '批量上传清单校验失败，请重试');
  const prefix = await reader.read(4);
  const length = prefix.readUInt32BE(0);
  if (length === 0 || length > BATCH_MANIFEST_MAX_BYTES) throw digest ? damaged() : new AppError(ERRORS.VALIDATION, '批量上传清单长度不正确');
  let json: Buffer;
  try {
    json = await reader.read(length);
  } catch (err) {
    if (err instanceof BodyTooShort && digest) throw damaged();
    throw err;
  }
  if (digest !== undefined && createHash('sha256').update(prefix).update(json).digest('hex') !== digest) throw damaged();
  let manifest: unknown;
  try {
    manifest = JSON.parse(json.toString('utf8'));
  } catch {
    throw new AppError(ERRORS.VALIDATION, '批量上传清单不是有效的 JSON');
  }
  const items = (manifest as { items?: unknown } | null)?.items;
  if (!Array.isArray(items) || items.length === 0 || items.length > BATCH_MAX_FILES) {
    throw new AppError(ERRORS.VALIDATION, `批量上传每次 1 到 ${BATCH_MAX_FILES} 个文件`);
  }
  const keys = new Set<string>();
  let total = 0;
  for (const item of items as unknown[]) {
    if (!isItem(item) || keys.has(item.clientKey)) throw new AppError(ERRORS.VALIDATION, '批量上传清单的条目不正确');
    keys.add(item.clientKey);
    total += item.size;
  }
  if (total > BATCH_MAX_BYTES) throw new AppError(ERRORS.VALIDATION, '批量上传的文件总大小超过限制');
  return { items: items as BatchUploadItem[] };
}

function isItem(value: unknown): value is BatchUploadItem {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.clientKey === 'string' &&
    CLIENT_KEY_RE.test(v.clientKey) &&
    typeof v.name === 'string' &&
    v.name.length <= 1024 &&
    (v.parentId === null || (typeof v.parentId === 'string' && v.parentId.length > 0 && v.parentId.length <= 64)) &&
    Number.isInteger(v.category) &&
    (v.category as number) >= 1 &&
    (v.category as number) <= 1000 &&
    Number.isSafeInteger(v.size) &&
    (v.size as number) >= 0 &&
    (v.size as number) <= BATCH_FILE_MAX_BYTES &&
    typeof v.digest === 'string' &&
    SHA256_HEX.test(v.digest) &&
    (v.onConflict === undefined || (typeof v.onConflict === 'string' && CONFLICT_POLICIES.has(v.onConflict))) &&
    (v.ifMatch === undefined || isIfMatch(v.ifMatch))
  );
}

function isIfMatch(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.fileId === 'string' && v.fileId.length > 0 && v.fileId.length <= 64 && (v.fingerprint === null || (typeof v.fingerprint === 'string' && SHA256_HEX.test(v.fingerprint)));
}
