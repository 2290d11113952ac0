/**
 * One round of pre-upload checks (spec §4) for records about to be queued, or queued offline and about
 * to start. In parallel, once each for the round:
 *  - canBeUploadType (upload-types.ts): the tenant's blocked types, kept for offline picks;
 *  - multipleFile/check for plain uploads (pre-upload-checks.ts checkBatch);
 *  - fileVersion/check + checkFileSensitiveOrLock for new versions of a known file (checkNewVersions).
 * Offline (a NetworkError), the kept type list judges the types and everything else waits for the
 * next round (checksPending). Any other failure lets the records through, as before: the server
 * enforces the same rules when the bytes come.
 */
import type { UploadCandidate } from '../../common/api/endpoints/pre-upload';
import type { MultipleFileCheckResult } from '../../common/transfer/checks';
import type { UploadRecord } from '../queue/types';
import { NetworkError, type ApiClient } from './api-client';
import { MESSAGES } from './messages';
import { checkBatch, checkNewVersions, outcomeOf, PASS, type CheckOutcome, type VersionCandidate } from './pre-upload-checks';
import { blockedOutcome, type UploadTypes } from './upload-types';
import { extensionOf } from '../../common/files/extension';

export interface CheckRoundContext {
  api: ApiClient;
  types: UploadTypes;
  signal: AbortSignal;
}

export interface CheckRound {
  outcomes: Map<string, CheckOutcome>;
  /** The checks could not be asked: the pending outcomes wait for the network. */
  offline: boolean;
}

const PENDING: CheckOutcome = { state: 'waiting', holdReason: null, lastError: MESSAGES.checksPending, checksPending: true };

function candidateOf(r: UploadRecord): UploadCandidate {
  return { key: r.id, name: r.name, size: r.size, parentId: r.target.parentId, category: r.target.category };
}

/** A new version of a known file (上传新版本). */
function versionCandidate(r: UploadRecord): VersionCandidate | null {
  return r.versionOf && r.onConflict === 'newVersion' ? { ...candidateOf(r), versionOf: r.versionOf } : null;
}

/** A blocked-type verdict of multipleFile/check does not hold an installer: the server decides at chunk/exist. */
function passType(outcome: CheckOutcome): CheckOutcome {
  return outcome.holdReason === 'blockedType' ? PASS : outcome;
}

/**
 * `answered`: multipleFile/check's answers the caller already has (the page asked just before queueing,
 * EnqueueOptions.checked), by record id: those plain uploads are not asked again.
 */
export async function runCheckRound(ctx: CheckRoundContext, records: UploadRecord[], answered: ReadonlyMap<string, MultipleFileCheckResult> = new Map()): Promise<CheckRound> {
  const outcomes = new Map<string, CheckOutcome>();
  if (records.length === 0) return { outcomes, offline: false };
  const versions = records.flatMap((r) => versionCandidate(r) ?? []);
  const plainRecords = records.filter((r) => !versionCandidate(r));
  const plain = plainRecords.filter((r) => !answered.has(r.id)).map(candidateOf);
  await ctx.types.load();
  try {
    const [types, batch, newVersions] = await Promise.all([
      ctx.types.ask(
        records.map((r) => r.name),
        ctx.signal,
      ),
      checkBatch(ctx.api, plain, ctx.signal).then((batch) => {
        for (const r of plainRecords) if (answered.has(r.id)) batch.set(r.id, outcomeOf(answered.get(r.id)));
        return batch;
      }),
      checkNewVersions(ctx.api, versions, ctx.signal),
    ]);
    for (const r of records) {
      const extension = extensionOf(r.name);
      const blocked = types !== null && extension !== '' && types.blockedExtensions.includes(extension);
      // A client installer (record.purpose): its type is the server's to judge with the caller's right, at
      // chunk/exist and merge; the other verdicts (quota, locks, clashes) hold as for any upload.
      if (r.purpose) outcomes.set(r.id, passType(batch.get(r.id) ?? newVersions.get(r.id) ?? PASS));
      else outcomes.set(r.id, blocked ? blockedOutcome(extension) : (batch.get(r.id) ?? newVersions.get(r.id) ?? PASS));
    }
    return { outcomes, offline: false };
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    if (error instanceof NetworkError) {
      for (const r of records) outcomes.set(r.id, (r.purpose ? null : ctx.types.localOutcome(r.name)) ?? PENDING);
      return { outcomes, offline: true };
    }
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(`transfer engine: pre-upload checks unavailable (${reason}); the server enforces them when the bytes come`);
    for (const r of records) outcomes.set(r.id, (r.purpose ? null : ctx.types.localOutcome(r.name)) ?? PASS);
    return { outcomes, offline: false };
  }
}
