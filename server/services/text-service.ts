import { ERRORS } from '../../common/api/errors';
import type { CreateTxtRequest, KeepOnCreateTxtRequest } from '../../common/api/endpoints/files';
import type { CreateTxtResponse, FileEntry, KeepOnCreateTxtResponse } from '../../common/api/types';
import { TEXT_FILE_MAX_BYTES } from '../../common/api/types';
import type { ConflictPolicy } from '../../common/transfer/protocol';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import type { FileRepository } from '../repositories/file-repository';
import type { TextHoldRepository } from '../repositories/text-hold-repository';
import { editorOf } from '../repositories/content-replacement';
import type { CommitFailure, CommitOutcome } from '../repositories/upload-commit-tx';
import type { UploadRepository } from '../repositories/upload-repository';
import type { BlobStore } from '../storage/byte-store';
import type { FilesTable } from '../db/schema';
import type { Caller } from './caller';
import { actionLog, describeWrite, type ActionEntry } from './action-log/recorder';
import type { EntryDecorator } from './entry-decorator';
import { newEntryRow, validName } from './file-service';
import { freeName, numberedLikePattern } from './naming';
import type { AccessService } from './space-access';
import type { BlockedTypes } from './blocked-types';
import { CONTENT_HEAD_BYTES } from '../../common/files/content-signatures';
import { fingerprintOf } from '../storage/content-digest';

export interface TextServiceDeps {
  files: FileRepository;
  uploads: UploadRepository;
  holds: TextHoldRepository;
  blobs: BlobStore;
  access: AccessService;
  decorator: EntryDecorator;
  types: BlockedTypes;
  options: { chunkSize: number; holdTtlMs: number };
}

/** `createTxt` and `keepOnCreateTxt`: a text file written by the server, held on a name clash. */
export class TextService {
  constructor(private readonly deps: TextServiceDeps) {}

  async createTxt(caller: Caller, req: CreateTxtRequest, now = Date.now()): Promise<CreateTxtResponse> {
    const entry: ActionEntry = { action: 'file.createTxt', targets: [{ type: 'file', id: '', name: req.name }], detail: { parentId: req.parentId, category: req.category } };
    actionLog.record(entry);
    let name = validName(req.name);
    if (!/\.[^.]+$/.test(name)) name = validName(`${name}.txt`);
    const content = Buffer.from(req.content, 'utf8');
    if (content.length > TEXT_FILE_MAX_BYTES) throw new AppError(ERRORS.TEXT_TOO_LARGE);
    // A text named script.bat is a script all the same: the tenant's blocked types hold here as on upload.
    await this.deps.types.assertAllowedContent(caller.tenantId, name, content.subarray(0, CONTENT_HEAD_BYTES));
    const place = await this.deps.access.place(caller, req.parentId, req.category, req.spaceId);
    const [clash] = await this.deps.files.liveNamesAt(place.parent, [name.toLowerCase()]);
    if (clash) {
      const taken = new Set([clash.name_key, ...(await this.deps.files.namesLikeAt(place.parent, [numberedLikePattern(name)]))]);
      const holdId = newId();
      await this.deps.holds.insert({
        id: holdId,
        tenant_id: caller.tenantId,
        user_id: caller.userId,
        parent_id: place.parentId,
        category: place.category,
        space_id: place.spaceId,
        name,
        content: req.content,
        created_at: now,
        expires_at: now + this.deps.options.holdTtlMs,
      });
      // Nothing is written until keepOnCreateTxt decides: that call is the action.
      actionLog.notAnAction();
      return { status: 'held', holdId, conflict: { existingId: clash.id, existingIsDir: clash.is_dir === 1, suggestedName: freeName(name, taken) } };
    }
    const written = await this.write(caller, place.parentId, place.category, place.spaceId, name, content, 'fail', now);
    describeWrite(entry, written.row, written.replacedVersion);
    return { status: 'created', file: written.file };
  }

  async keepOnCreateTxt(caller: Caller, req: KeepOnCreateTxtRequest, now = Date.now()): Promise<KeepOnCreateTxtResponse> {
    const hold = await this.deps.holds.find(caller.userId, req.holdId, now);
    if (!hold) throw new AppError(ERRORS.TXT_HOLD_NOT_FOUND);
    if (req.decision === 'giveUp') {
      actionLog.notAnAction();
      await this.deps.holds.take(caller.userId, hold.id);
      return { status: 'givenUp' };
    }
    const entry: ActionEntry = {
      action: 'file.createTxt',
      targets: [{ type: 'file', id: '', name: hold.name }],
      detail: { parentId: hold.parent_id, category: hold.category, decision: req.decision },
    };
    actionLog.record(entry);
    // The folder may have gone or the caller lost access since: checked again.
    const place = await this.deps.access.place(caller, hold.parent_id, hold.category, hold.space_id);
    const written = await this.write(caller, place.parentId, place.category, place.spaceId, hold.name, Buffer.from(hold.content, 'utf8'), req.decision, now);
    describeWrite(entry, written.row, written.replacedVersion);
    await this.deps.holds.take(caller.userId, hold.id);
    return { status: 'created', file: written.file };
  }

  /** Stores the bytes as a blob (deduplicated per tenant by the commit) and places the file. */
  private async write(
    caller: Caller,
    parentId: string | null,
    category: number,
    spaceId: string | null,
    name: string,
    content: Buffer,
    policy: ConflictPolicy,
    now: number,
  ): Promise<{ file: FileEntry; row: FilesTable; replacedVersion: boolean }> {
    const writer = await this.deps.blobs.createWriter();
    let key: string;
    try {
      await writer.write(content);
      key = await writer.commit();
    } catch (err) {
      await writer.abort();
      throw err;
    }
    const draft = newEntryRow(caller, { parent: { kind: 'folder', parentId: parentId ?? '' }, parentId, category, spaceId, folder: null }, name, now, {
      isDir: false,
      size: content.length,
    });
    let outcome: CommitOutcome;
    try {
      outcome = await this.deps.uploads.commit({
        uploadId: null,
        editor: editorOf(caller),
        fingerprint: fingerprintOf(content, this.deps.options.chunkSize),
        size: content.length,
        blob: { kind: 'new', id: key, layout: null, fingerprintChunkSize: this.deps.options.chunkSize },
        file: draft,
        onConflict: policy,
        now,
      });
    } catch (err) {
      // The commit failed (the database's disk full, its connection lost): the bytes go unless the
      // commit took effect after all (an answer lost); when that cannot be asked, startup recovery removes them.
      if (!(await this.deps.uploads.blobKeyRecorded(key).catch(() => true))) await this.deps.blobs.remove(key).catch(() => undefined);
      throw err;
    }
    if (!outcome.ok || outcome.reusedExistingBlob) await this.deps.blobs.remove(key);
    if (!outcome.ok) throw new AppError(TEXT_COMMIT_ERRORS[outcome.reason]);
    return { file: await this.deps.decorator.one(caller, outcome.file), row: outcome.file, replacedVersion: outcome.replacedVersion };
  }

  sweepExpired(now = Date.now()): Promise<number> {
    return this.deps.holds.deleteExpired(now);
  }
}

/** A refused text commit, as the code the same refusal gets on rename and upload. */
const TEXT_COMMIT_ERRORS: Record<CommitFailure, (typeof ERRORS)[keyof typeof ERRORS]> = {
  quota: ERRORS.QUOTA_EXCEEDED,
  locked: ERRORS.LOCKED_BY_OTHER,
  forbidden: ERRORS.FORBIDDEN,
  nameConflict: ERRORS.NAME_CONFLICT,
  uploadGone: ERRORS.NOT_FOUND,
  blobGone: ERRORS.NOT_FOUND,
  changed: ERRORS.SYNC_CHANGED,
  fileGone: ERRORS.NOT_FOUND,
  // createTxt sends no client key: it cannot meet an earlier finished upload.
  finished: ERRORS.NOT_FOUND,
};
