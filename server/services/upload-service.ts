import type { Readable } from 'node:stream';
import { ERRORS } from '../../common/api/errors';
import type { FileEntry } from '../../common/api/types';
import type { ChunkExistRequest, ChunkMergeRequest } from '../../common/api/endpoints/uploads';
import type {
  ChunkExistResponse,
  ChunkRangeUploadResponse,
  ChunkUploadResponse,
  UploadConfig,
} from '../../common/transfer/protocol';
import type { UploadsTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import { CONTENT_HEAD_BYTES } from '../../common/files/content-signatures';
import { editorOf } from '../repositories/content-replacement';
import type { ChallengeRepository } from '../repositories/challenge-repository';
import type { CommitOutcome } from '../repositories/upload-commit-tx';
import type { UploadRepository } from '../repositories/upload-repository';
import type { UserRepository } from '../repositories/user-repository';
import type { BlobStore } from '../storage/byte-store';
import type { ChunkStore } from '../storage/byte-store';
import type { Caller } from './caller';
import { actionLog, describeWrite, type ActionEntry } from './action-log/recorder';
import { toFileEntry, validName, type FileService } from './file-service';
import { commitError, draftFile, finishedEntry, uploadPlace } from './upload-commit';
import { fingerprintOfDigests } from '../storage/content-digest';
import { PendingWork } from './keyed-lock';
import { LOCK_KEYS, type Locks } from './locks';
import { ChunkReceiver, STREAMING_FINGERPRINT } from './chunk-receiver';
import { checkedDigests, UploadSessionOpener } from './upload-session-opener';
import { rollBackMergeDirectory } from './recovery';
import { installerExempt, InstallerRequests } from './installer-purpose';
import type { UploadPurposeCode } from '../../common/api/endpoints/uploads';

/** Named points where a test run (DRIVE_TEST_HOOKS=1 + DRIVE_TEST_CRASH_POINT) kills the process. */
export const CRASH_POINTS = [
  'chunk-after-write-before-rename',
  'chunk-after-rename-before-record',
  'merge-before-rename',
  'merge-after-rename',
  'merge-after-commit',
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

/** Refuses file types the tenant blocks, by name and by content (implemented by BlockedTypes). */
export interface TypePolicy {
  assertAllowedType(tenantId: string, name: string): Promise<void>;
  assertAllowedContent(tenantId: string, name: string, head: Uint8Array): Promise<void>;
  /** The content alone (no name yet, or a name already judged): FILE_CONTENT_BLOCKED. */
  assertAllowedBytes(tenantId: string, head: Uint8Array): Promise<void>;
}

export interface UploadServiceOptions {
  chunkSize: number;
  maxFileSize: number;
  uploadExpiryMs: number;
  /** Test hook: SIGKILL this process when the named point is reached. */
  crashPoint?: CrashPoint;
  /** Test hook: SIGSTOP instead, the first time (frozen there, holding its locks, until SIGCONT; then it goes on). */
  crashSignal?: 'SIGKILL' | 'SIGSTOP';
}

/** Announced chunk digests; null entries: a streaming session's, not announced yet. */
function digestsOf(upload: UploadsTable): Array<string | null> {
  return JSON.parse(upload.chunk_digests) as Array<string | null>;
}


/**
 * A streaming session merged without digests from the client: the chunks' recorded digests (computed
 * by the server as each body streamed to disk) in order, and their fingerprint, exactly as a client
 * computes it (fingerprintOfChunkDigests), so later second uploads and dedup find this content.
 */
function serverDigests(stored: ReadonlyArray<{ idx: number; sha256: string }>): { digests: string[]; fingerprint: string } {
  const digests = stored.map((c) => c.sha256);
  return { digests, fingerprint: fingerprintOfDigests(digests) };
}

export interface UploadServiceDeps {
  uploads: UploadRepository;
  users: UserRepository;
  fileService: FileService;
  chunks: ChunkStore;
  blobs: BlobStore;
  challenges: ChallengeRepository;
  types: TypePolicy;
  options: UploadServiceOptions;
  /** Across every server process of the database (services/locks.ts): by upload, and by chunk. */
  locks: Locks;
}

export class UploadService {
  constructor(private readonly deps: UploadServiceDeps) {
    this.locks = deps.locks;
    this.receiver = new ChunkReceiver(deps.uploads, deps.chunks, {
      locks: deps.locks,
      receiving: this.receiving,
      uploadExpiryMs: deps.options.uploadExpiryMs,
      crashPoint: (point) => this.crashPoint(point),
      firstChunkStored: (caller, uploadId) => this.refuseExecutableHead(caller, uploadId),
    });
    this.opener = new UploadSessionOpener({
      uploads: deps.uploads,
      users: deps.users,
      fileService: deps.fileService,
      chunks: deps.chunks,
      types: deps.types,
      options: deps.options,
      locks: deps.locks,
      receiving: this.receiving,
    });
  }

  /**
   * By upload (LOCK_KEYS.upload): the rename + record of a chunk, the merge, the sweep of one upload
   * run one at a time, in whichever process. (The writers of one chunk's partial are kept apart by the
   * receiver: chunk-writers.ts.)
   */
  private readonly locks: Locks;

  /** Chunk requests being received (read, made durable, recorded or kept as a partial), by upload. */
  private readonly receiving = new PendingWork();

  /** Chunk bodies: received, checked, made durable and recorded (chunk-receiver.ts). */
  private readonly receiver: ChunkReceiver;

  /** chunk/exist: sessions opened or found, before any body (upload-session-opener.ts). */
  private readonly opener: UploadSessionOpener;

  /** Every byte read from chunk upload bodies, kept or not (exposed by a test hook only). */
  get chunkBytesReceived(): number {
    return this.receiver.chunkBytesReceived;
  }

  /** A chunk (or its rest, from `offset`): ChunkReceiver.chunkUpload. `purpose`: as the upload's chunk/exist sent it. */
  chunkUpload(caller: Caller, uploadId: string, index: number, headerDigest: string | undefined, declaredLength: number | undefined, body: Readable, now = Date.now(), offset = 0, purpose?: UploadPurposeCode): Promise<ChunkUploadResponse> {
    return this.receiver.chunkUpload(this.chunkCaller(caller, purpose), uploadId, index, headerDigest, declaredLength, body, now, offset);
  }

  /** Chunks `index`..`through` in one body: ChunkReceiver.chunkRangeUpload. */
  chunkRangeUpload(caller: Caller, uploadId: string, index: number, through: number, headerDigest: string | undefined, declaredLength: number | undefined, body: Readable, now = Date.now(), offset = 0, purpose?: UploadPurposeCode): Promise<ChunkRangeUploadResponse> {
    return this.receiver.chunkRangeUpload(this.chunkCaller(caller, purpose), uploadId, index, through, headerDigest, declaredLength, body, now, offset);
  }

  /** Chunk requests of client installers (installer-purpose.ts): their first chunk's content is not judged. */
  private readonly installerRequests = new InstallerRequests();

  private chunkCaller(caller: Caller, purpose: UploadPurposeCode | undefined): Caller {
    return this.installerRequests.callerFor(caller, purpose);
  }

  private crashPoint(point: CrashPoint): void {
    if (this.deps.options.crashPoint !== point || this.frozenOnce) return;
    const signal = this.deps.options.crashSignal ?? 'SIGKILL';
    this.frozenOnce = signal === 'SIGSTOP';
    process.kill(process.pid, signal);
  }

  /** The SIGSTOP test hook fired already: a thawed process does not freeze again. */
  private frozenOnce = false;

  config(): UploadConfig {
    return { chunkSize: this.deps.options.chunkSize, maxFileSize: this.deps.options.maxFileSize };
  }

  /** Opens (or finds) the upload session: UploadSessionOpener.chunkExist. */
  chunkExist(caller: Caller, req: ChunkExistRequest, now = Date.now()): Promise<ChunkExistResponse> {
    return this.opener.chunkExist(caller, req, now);
  }

  private async requireUpload(caller: Caller, uploadId: string, now: number): Promise<UploadsTable> {
    const upload = await this.deps.uploads.findOwned(uploadId, caller.userId, caller.tenantId, now);
    if (!upload) throw new AppError(ERRORS.UPLOAD_NOT_FOUND);
    return upload;
  }

  /**
   * Completes an upload without copying a byte: the recorded chunk digests (each verified when its
   * chunk arrived) are checked against the announced ones and the fingerprint, then the chunk
   * directory becomes the blob in one rename and the file is created in one DB transaction.
   * Crash-safe order (see services/recovery.ts for the other half):
   *   1. merge intent (uploads.merge_blob_id) committed   → crash: intent cleared at startup
   *   2. rename uploads/<id>/ → blobs/<xx>/<blobId>/, fsync → crash: moved back, upload resumable
   *   3. DB transaction: blob row, file row, quota, upload rows deleted → crash after: consistent
   * If the tenant already stores this content, no rename happens: the file references that blob and
   * the chunk directory is deleted after the commit (a crash before that leaves an upload directory
   * without an upload row, which recovery removes).
   */
  async merge(caller: Caller, req: ChunkMergeRequest, now = Date.now()): Promise<FileEntry> {
    const entry: ActionEntry = {
      action: 'file.upload',
      targets: [{ type: 'file', id: '', name: req.name }],
      detail: {
        method: 'chunks',
        parentId: req.parentId,
        category: req.category,
        onConflict: req.onConflict ?? 'fail',
        // An installer for 客户端版本: the row says so, and that its type and content were not judged.
        ...(req.purpose ? { purpose: req.purpose, typeChecks: 'skipped' } : {}),
      },
    };
    actionLog.record(entry);
    if (req.versionOf !== undefined) entry.detail = { ...entry.detail, onConflict: 'newVersion', versionOf: req.versionOf };
    const installer = installerExempt(caller, req.purpose);
    return this.locks.run(LOCK_KEYS.upload(req.uploadId), async (hold) => {
      const finished = await finishedEntry(this.deps.uploads, caller, req.clientKey);
      if (finished) {
        // A repeat of a merge whose answer was lost: the upload is on record already.
        actionLog.notAnAction();
        // The item's file exists; a session the item opened since (a reload raced the merge) goes.
        if (await this.deps.uploads.findOwned(req.uploadId, caller.userId, caller.tenantId, now)) await this.dropUpload(req.uploadId);
        return finished;
      }
      // 上传新版本 by id: the file wherever it sits (its name and place), judged before anything else.
      const byId = req.versionOf !== undefined ? await uploadPlace(this.deps.fileService, caller, req, true) : null;
      if (byId) entry.detail = { ...entry.detail, parentId: byId.parentId, category: byId.category };
      const name = byId?.name ?? validName(req.name);
      if (!installer) await this.deps.types.assertAllowedType(caller.tenantId, name);
      let upload = await this.requireUpload(caller, req.uploadId, now);
      if (upload.merge_blob_id) await this.settleInterruptedMerge(upload.id, upload.merge_blob_id);
      // By name: the folder in parentId (a new version by name may go to a folder of another's through a share).
      const place = byId ?? (await uploadPlace(this.deps.fileService, caller, req, req.onConflict === 'newVersion'));
      const streaming = upload.fingerprint === STREAMING_FINGERPRINT;
      const stored = await this.deps.uploads.storedChunks(upload.id);
      if (stored.length !== upload.chunk_count) throw new AppError(ERRORS.CHUNKS_MISSING);
      // A streaming session's digests: announced now (checked against the recorded chunks below like any
      // session's, kept once they agree), or left to the server: the digests it recorded as the chunks
      // arrived make the fingerprint. Those are not written back, so the session stays a streaming one
      // the client can continue by uploadId if this merge is refused (a name clash).
      const byServer = streaming && req.chunkDigests === undefined && req.fingerprint === undefined;
      if (streaming) {
        const announced = byServer ? serverDigests(stored) : checkedDigests(req.chunkDigests, req.fingerprint, upload.chunk_count);
        upload = { ...upload, fingerprint: announced.fingerprint, chunk_digests: JSON.stringify(announced.digests) };
      }
      const expected = digestsOf(upload);
      const recorded = stored.map((c) => c.sha256);
      const total = stored.reduce((n, c) => n + Number(c.size), 0);
      const fingerprint = fingerprintOfDigests(recorded);
      const intact =
        total === upload.size &&
        fingerprint === upload.fingerprint &&
        stored.every((c, i) => c.idx === i && c.sha256 === expected[i]);
      if (!intact) throw new AppError(ERRORS.FINGERPRINT_MISMATCH);
      // The name passed; the bytes may still be a program the tenant blocks under another name.
      if (upload.size > 0 && !installer) await this.deps.types.assertAllowedContent(caller.tenantId, name, await this.deps.chunks.readHead(upload.id, CONTENT_HEAD_BYTES));
      if (streaming && !byServer) await this.deps.uploads.announce(upload.id, upload.fingerprint, upload.chunk_digests);
      const user = await this.deps.users.findById(caller.userId);
      if (!user || user.used_size + upload.size > user.quota) throw new AppError(ERRORS.QUOTA_EXCEEDED);

      const file = draftFile(caller, name, place.parentId, place.category, upload.size, now);
      const policy = place.versionOf ? 'newVersion' : (req.onConflict ?? 'fail');
      const known = await this.deps.uploads.findTenantBlob(caller.tenantId, upload.fingerprint, upload.size);
      if (known) {
        const outcome = await this.deps.uploads.commit({
          uploadId: upload.id,
          editor: editorOf(caller),
          fingerprint: upload.fingerprint,
          size: upload.size,
          blob: { kind: 'existing', id: known.id },
          file,
          onConflict: policy,
          ifMatch: req.ifMatch ?? null,
          versionOf: place.versionOf,
          now,
          ...clientKeyOf(req),
        });
        if (outcome.ok) {
          describeWrite(entry, outcome.file, outcome.replacedVersion);
          this.crashPoint('merge-after-commit');
          this.receiver.forgetAnnounced(upload.id, upload.fingerprint);
          await this.deps.chunks.removeUpload(upload.id);
          return toFileEntry(outcome.file);
        }
        if (outcome.reason === 'finished' || (await finishedEntry(this.deps.uploads, caller, req.clientKey))) {
          actionLog.notAnAction();
          return this.discardRedundant(caller, upload.id, req.clientKey);
        }
        if (outcome.reason !== 'blobGone') throw commitError(outcome.reason);
      }

      const blobId = newId();
      // The upload's lock lost (its connection broke, or its lease ended while this process was frozen):
      // another process may merge it now; stop before any step.
      await hold.confirm();
      await this.deps.uploads.setMergeIntent(upload.id, blobId);
      this.crashPoint('merge-before-rename');
      try {
        await this.deps.blobs.adoptUpload(upload.id, blobId);
      } catch (err) {
        await this.deps.uploads.setMergeIntent(upload.id, null);
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new AppError(ERRORS.CHUNKS_MISSING);
        throw err;
      }
      this.crashPoint('merge-after-rename');
      let outcome: CommitOutcome;
      try {
        await hold.confirm();
        outcome = await this.deps.uploads.commit({
          uploadId: upload.id,
          editor: editorOf(caller),
          fingerprint: upload.fingerprint,
          size: upload.size,
          blob: { kind: 'new', id: blobId, layout: { chunkSize: upload.chunk_size, chunkCount: upload.chunk_count }, fingerprintChunkSize: upload.chunk_size },
          file,
          onConflict: policy,
          ifMatch: req.ifMatch ?? null,
          versionOf: place.versionOf,
          now,
          ...clientKeyOf(req),
          // Fenced: a merge frozen past its lock's lease, its upload taken over since, commits nothing.
          mergeIntent: blobId,
        });
      } catch (err) {
        // Lost: the directory is the next holder's to settle (its merge finds the intent), not ours to move.
        if (!hold.signal.aborted) await this.undoAdopt(upload.id, blobId);
        throw err;
      }
      if (!outcome.ok) {
        hold.signal.throwIfAborted();
        await this.undoAdopt(upload.id, blobId);
        // Another session of this item committed first (then its name clash is with that very file).
        if (outcome.reason === 'finished' || (await finishedEntry(this.deps.uploads, caller, req.clientKey))) {
          actionLog.notAnAction();
          return this.discardRedundant(caller, upload.id, req.clientKey);
        }
        throw commitError(outcome.reason);
      }
      describeWrite(entry, outcome.file, outcome.replacedVersion);
      this.crashPoint('merge-after-commit');
      this.receiver.forgetAnnounced(upload.id, upload.fingerprint);
      // Another upload of the same content committed first: the file uses that blob, ours goes.
      if (outcome.reusedExistingBlob) await this.deps.blobs.remove(blobId);
      return toFileEntry(outcome.file);
    });
  }

  /**
   * A second session of an item whose first one finished meanwhile (a reload raced its merge): the
   * item's file is the earlier one, this session's rows and chunks go. Runs under the upload's lock.
   */
  private async discardRedundant(caller: Caller, uploadId: string, clientKey: string | undefined): Promise<FileEntry> {
    const earlier = await finishedEntry(this.deps.uploads, caller, clientKey);
    await this.dropUpload(uploadId);
    if (!earlier) throw new AppError(ERRORS.UPLOAD_NOT_FOUND);
    return earlier;
  }

  /**
   * A session its caller will not finish (a WebDAV PUT whose body was cut or refused): its rows and
   * chunks go now rather than at expiry, so nothing of it can become a file. A merged one is left alone.
   */
  async abandon(caller: Caller, uploadId: string, now = Date.now()): Promise<void> {
    await this.locks.run(LOCK_KEYS.upload(uploadId), async () => {
      const upload = await this.deps.uploads.findOwned(uploadId, caller.userId, caller.tenantId, now);
      if (upload && !upload.merge_blob_id) await this.dropUpload(uploadId);
    });
  }

  /** Rows first, so nobody resumes it, then its chunk files. The caller holds the upload's lock. */
  /**
   * Issue 35: a program or script the tenant blocks is refused at its first chunk, whatever the name
   * it will get, and its upload goes (the merge would refuse it anyway: this spares sending the rest).
   */
  private async refuseExecutableHead(caller: Caller, uploadId: string): Promise<void> {
    if (this.installerRequests.has(caller)) return;
    const head = await this.deps.chunks.readHead(uploadId, CONTENT_HEAD_BYTES);
    try {
      await this.deps.types.assertAllowedBytes(caller.tenantId, head);
    } catch (err) {
      await this.locks.run(LOCK_KEYS.upload(uploadId), () => this.dropUpload(uploadId));
      throw err;
    }
  }

  private async dropUpload(uploadId: string): Promise<void> {
    await this.deps.uploads.deleteUpload(uploadId);
    await this.deps.chunks.removeUpload(uploadId);
  }

  /**
   * An earlier merge of this upload stopped after its intent and before its commit: its process died
   * (we hold the upload's lock, and a live merge holds it to its end). With several server processes
   * the merge is retried on another long before the dead one restarts and recovers its store
   * (services/recovery.ts), so the retry puts the chunks back itself. The upload row still exists,
   * so no blob row has that key: the commit deletes the upload in the transaction that adds the blob.
   */
  private async settleInterruptedMerge(uploadId: string, key: string): Promise<void> {
    await rollBackMergeDirectory({ chunks: this.deps.chunks, blobs: this.deps.blobs }, uploadId, key);
    await this.deps.uploads.setMergeIntent(uploadId, null);
  }

  /** The merge did not commit: the chunks belong to the upload again, so it can be merged later. */
  private async undoAdopt(uploadId: string, blobId: string): Promise<void> {
    await this.deps.blobs.returnToUpload(blobId, uploadId);
    await this.deps.uploads.setMergeIntent(uploadId, null);
  }


  /**
   * Removes expired uploads (rows first, so nobody resumes them, then their chunk files), challenges,
   * and finished-upload records as old as an upload session may live.
   */
  async sweepExpired(now = Date.now()): Promise<number> {
    let removed = 0;
    await this.deps.challenges.deleteExpired(now);
    await this.deps.uploads.deleteFinishedBefore(now - this.deps.options.uploadExpiryMs);
    for (;;) {
      const ids = await this.deps.uploads.expiredUploadIds(now, 100);
      for (const id of ids) {
        await this.locks.run(LOCK_KEYS.upload(id), () => this.dropUpload(id));
        removed++;
      }
      if (ids.length < 100) return removed;
    }
  }
}

/** The request's client key as a commit input field (absent when the client sent none). */
function clientKeyOf(req: { clientKey?: string }): { clientKey?: string } {
  return req.clientKey !== undefined ? { clientKey: req.clientKey } : {};
}
