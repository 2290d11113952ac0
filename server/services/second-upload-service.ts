/**
 * Second upload and its probe (common/transfer/second-upload.ts): a client that proves it holds the
 * bytes of content the tenant already stores gets the file without sending them.
 */
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { ERRORS } from '../../common/api/errors';
import { CONTENT_HEAD_BYTES } from '../../common/files/content-signatures';
import { PROBE_MAX_CANDIDATES } from '../../common/transfer/constants';
import type { SecondUploadRequest } from '../../common/api/endpoints/pre-upload';
import type { ByteRange, SecondUploadChallenge, SecondUploadResponse } from '../../common/transfer/second-upload';
import {
  proofMessageLength,
  SECOND_UPLOAD_CHALLENGE_TTL_MS,
  SECOND_UPLOAD_RANGE_COUNT,
  SECOND_UPLOAD_RANGE_MAX_BYTES,
} from '../../common/transfer/second-upload';
import type { BlobsTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import type { ChallengeRepository } from '../repositories/challenge-repository';
import { editorOf } from '../repositories/content-replacement';
import type { UploadRepository } from '../repositories/upload-repository';
import type { UserRepository } from '../repositories/user-repository';
import type { BlobStore } from '../storage/byte-store';
import type { Caller } from './caller';
import { actionLog, describeWrite, type ActionEntry } from './action-log/recorder';
import { toFileEntry, type FileService } from './file-service';
import { commitError, draftFile, finishedEntry, layoutOf, uploadPlace } from './upload-commit';
import type { TypePolicy } from './upload-service';

/** The fingerprint recorded for a probe's challenge (a probe has none). */
const PROBE_FINGERPRINT = '';

export interface SecondUploadServiceDeps {
  uploads: UploadRepository;
  users: UserRepository;
  fileService: FileService;
  blobs: BlobStore;
  challenges: ChallengeRepository;
  types: TypePolicy;
  maxFileSize: number;
}

export class SecondUploadService {
  constructor(private readonly deps: SecondUploadServiceDeps) {}

  /**
   * Second upload and its probe (common/transfer/second-upload.ts). Without proof: always a fresh
   * challenge. With proof: the challenge is consumed (single use) and the HMAC is computed and
   * compared in constant time in every case — over the stored bytes when the tenant has the content,
   * over random bytes when it does not — so "not stored", "wrong proof", "expired/reused challenge" and "another
   * tenant's content" all answer the same {status:'unknown'} after the same work.
   */
  async secondUpload(caller: Caller, req: SecondUploadRequest, now = Date.now()): Promise<SecondUploadResponse> {
    const finished = await finishedEntry(this.deps.uploads, caller, req.clientKey);
    if (finished) {
      // A repeat of a claim whose answer was lost: the upload is on record already.
      actionLog.notAnAction();
      return { status: 'created', file: finished };
    }
    // By name in parentId, or (versionOf) the file by id wherever it sits: its name and place.
    const place = await uploadPlace(this.deps.fileService, caller, req, req.onConflict === 'newVersion');
    const { name } = place;
    await this.deps.types.assertAllowedType(caller.tenantId, name);
    if (req.size > this.deps.maxFileSize) throw new AppError(ERRORS.VALIDATION, '文件超过允许的最大大小');
    const user = await this.deps.users.findById(caller.userId);
    if (!user || user.used_size + req.size > user.quota) throw new AppError(ERRORS.QUOTA_EXCEEDED);

    if (!req.proof) {
      // Asking for a challenge is not an action; a refusal before it (a folder not theirs, a blocked type) is.
      actionLog.notAnAction();
      const challenge: SecondUploadChallenge = {
        status: 'challenge',
        challengeId: newId(),
        nonce: randomBytes(32).toString('hex'),
        ranges: randomRanges(req.size),
      };
      await this.deps.challenges.insert({
        id: challenge.challengeId,
        tenant_id: caller.tenantId,
        user_id: caller.userId,
        fingerprint: req.fingerprint ?? PROBE_FINGERPRINT,
        size: req.size,
        nonce: challenge.nonce,
        ranges: JSON.stringify(challenge.ranges),
        expires_at: now + SECOND_UPLOAD_CHALLENGE_TTL_MS,
      });
      return challenge;
    }

    const challenge = await this.deps.challenges.consume(req.proof.challengeId, caller.userId, caller.tenantId, now);
    const fingerprint = req.fingerprint ?? PROBE_FINGERPRINT;
    const matches = Boolean(challenge && challenge.fingerprint === fingerprint && Number(challenge.size) === req.size);
    const ranges = challenge ? (JSON.parse(challenge.ranges) as ByteRange[]) : randomRanges(req.size);
    const key = challenge ? Buffer.from(challenge.nonce, 'hex') : randomBytes(32);
    const given = /^[0-9a-f]{64}$/i.test(req.proof.hmac) ? Buffer.from(req.proof.hmac, 'hex') : Buffer.alloc(32);
    if (req.fingerprint === undefined) {
      actionLog.notAnAction();
      const candidates = matches ? await this.deps.uploads.tenantBlobsOfSize(caller.tenantId, req.size, PROBE_MAX_CANDIDATES) : [];
      return (await this.provenByAny(candidates, ranges, key, given)) ? { status: 'candidate' } : { status: 'unknown' };
    }
    const blob = matches ? await this.deps.uploads.findTenantBlob(caller.tenantId, req.fingerprint, req.size) : undefined;
    const proven = await this.provenByAny(blob ? [blob] : [], ranges, key, given);
    if (!(proven && matches && blob)) {
      actionLog.notAnAction();
      return { status: 'unknown' };
    }
    const entry: ActionEntry = {
      action: 'file.upload',
      targets: [{ type: 'file', id: '', name }],
      detail: {
        method: 'instant',
        parentId: place.parentId,
        category: place.category,
        onConflict: place.versionOf ? 'newVersion' : (req.onConflict ?? 'fail'),
        ...(place.versionOf ? { versionOf: place.versionOf } : {}),
      },
    };
    actionLog.record(entry);
    // Only a caller who proved they hold the bytes learns that their content is refused.
    const head = await this.readRanges(blob, [{ start: 0, end: Math.min(CONTENT_HEAD_BYTES, req.size) }]);
    if (head) await this.deps.types.assertAllowedContent(caller.tenantId, name, head);

    const outcome = await this.deps.uploads.commit({
      uploadId: null,
      editor: editorOf(caller),
      fingerprint: req.fingerprint,
      size: req.size,
      blob: { kind: 'existing', id: blob.id },
      file: draftFile(caller, name, place.parentId, place.category, req.size, now),
      onConflict: place.versionOf ? 'newVersion' : (req.onConflict ?? 'fail'),
      ifMatch: req.ifMatch ?? null,
      versionOf: place.versionOf,
      now,
      ...(req.clientKey !== undefined ? { clientKey: req.clientKey } : {}),
    });
    if (!outcome.ok) {
      if (outcome.reason === 'blobGone') {
        actionLog.notAnAction();
        return { status: 'unknown' };
      }
      // Another request with this key finished first (its answer was lost): that file is the answer.
      const earlier = outcome.reason === 'finished' ? await finishedEntry(this.deps.uploads, caller, req.clientKey) : undefined;
      if (earlier) {
        actionLog.notAnAction();
        return { status: 'created', file: earlier };
      }
      throw commitError(outcome.reason);
    }
    describeWrite(entry, outcome.file, outcome.replacedVersion);
    return { status: 'created', file: toFileEntry(outcome.file) };
  }

  /**
   * Does `given` equal the HMAC of the challenged bytes of any of `blobs`? Computes one HMAC per blob,
   * and one over random bytes when there is none, each compared in constant time: "nothing stored"
   * costs what one stored file costs. (A probe with several candidates reads each one's ranges, so
   * the time taken can still hint at their number; the answer itself never does.)
   */
  private async provenByAny(blobs: BlobsTable[], ranges: ByteRange[], key: Buffer, given: Buffer): Promise<boolean> {
    let proven = false;
    for (let i = 0; i < Math.max(1, blobs.length); i++) {
      const blob = blobs[i];
      const stored = blob ? await this.readRanges(blob, ranges) : null;
      const expected = createHmac('sha256', key).update(stored ?? randomBytes(proofMessageLength(ranges))).digest();
      if (timingSafeEqual(expected, given) && stored !== null) proven = true;
    }
    return proven;
  }

  /** The challenged bytes of a stored blob, concatenated; null when the bytes cannot be read. */
  private async readRanges(blob: BlobsTable, ranges: ByteRange[]): Promise<Buffer | null> {
    const layout = layoutOf(blob);
    const parts: Buffer[] = [];
    try {
      for (const r of ranges) {
        if (r.end > blob.size || r.start < 0 || r.end <= r.start) return null;
        for await (const piece of this.deps.blobs.openRead(blob.storage_key, { start: r.start, end: r.end - 1 }, layout) as AsyncIterable<Buffer>) {
          parts.push(piece);
        }
      }
    } catch {
      return null;
    }
    return Buffer.concat(parts);
  }
}

/** SECOND_UPLOAD_RANGE_COUNT random ranges inside [0, size), each 1..SECOND_UPLOAD_RANGE_MAX_BYTES long. */
export function randomRanges(size: number): ByteRange[] {
  if (size <= 0) return [];
  const ranges: ByteRange[] = [];
  const maxLen = Math.min(SECOND_UPLOAD_RANGE_MAX_BYTES, size);
  for (let i = 0; i < SECOND_UPLOAD_RANGE_COUNT; i++) {
    const length = 1 + randomInt(maxLen);
    const start = randomInt(size - length + 1);
    ranges.push({ start, end: start + length });
  }
  return ranges;
}
