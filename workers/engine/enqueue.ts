/**
 * New items into the queue: the pre-upload checks of spec §4 for the whole pick in one round
 * (check-round.ts), each record put in the state its check gives it, all stored at once. Offline, the
 * records wait with their checks pending (the engine asks them before the first byte).
 */
import type { MultipleFileCheckResult } from '../../common/transfer/checks';
import type { EnqueueOptions } from '../../common/transfer/engine-api';
import type { TransferDb } from '../queue/db';
import type { UploadRecord } from '../queue/types';
import type { ApiClient } from './api-client';
import { checkFileName } from '../../common/validation/names';
import type { CheckOutcome } from './pre-upload-checks';
import { runCheckRound } from './check-round';
import type { UploadTypes } from './upload-types';
import { storeNewRecords } from './queue-storage';

/** [id, failed outcome] when the record's name breaks the name rule, else nothing. */
function nameOutcome(record: UploadRecord): Array<[string, CheckOutcome]> {
  const problem = checkFileName(record.name);
  return problem ? [[record.id, { state: 'failed', holdReason: 'badName', lastError: problem.message }]] : [];
}

export interface EnqueueContext {
  api: ApiClient;
  db: TransferDb;
  types: UploadTypes;
  /** The engine's lifetime: aborted on dispose. */
  signal: AbortSignal;
  /** The records are stored: the engine takes them into memory and schedules them. */
  added(records: UploadRecord[]): void;
}

/**
 * Returns the function that checks, stores and hands over new upload records; resolves with their ids.
 * `options.onConflict` is the user's answer to a same-name clash given before queueing (the files page
 * asks in a dialog): it becomes each record's policy, and such a clash is no longer held as a question.
 */
export function createEnqueuer(ctx: EnqueueContext): (records: UploadRecord[], options?: EnqueueOptions) => Promise<string[]> {
  return async (records, options) => {
    if (options?.onConflict) for (const record of records) record.onConflict = options.onConflict;
    if (options?.purpose) for (const record of records) record.purpose = options.purpose;
    // A name the rule refuses fails here, before a byte is read: the server would refuse it at the end
    // (and its check refuses a whole batch that holds one). The web app asks before queueing; this
    // catches every other way in (an older tab, the replay).
    const badNames = new Map(records.flatMap((r) => nameOutcome(r)));
    // The page's answers to the same question, asked just before (EnqueueOptions.checked): not asked again.
    const answered = new Map<string, MultipleFileCheckResult>();
    records.forEach((record, i) => {
      const given = options?.checked?.[i];
      if (given) answered.set(record.id, given);
    });
    const { outcomes } = await runCheckRound(ctx, records.filter((r) => !badNames.has(r.id)), answered);
    for (const record of records) {
      const outcome = badNames.get(record.id) ?? outcomes.get(record.id);
      Object.assign(record, answeredUpFront(record, outcome) ? {} : (outcome ?? {}));
    }
    await storeNewRecords(ctx.db, records);
    ctx.added(records);
    return records.map((r) => r.id);
  };
}

/** A new version, or a free name, was asked for up front: the clash is answered, not a question. */
export function answeredUpFront(record: UploadRecord, outcome: CheckOutcome | undefined): boolean {
  if (outcome?.holdReason === 'exists' && record.onConflict !== 'fail') return true;
  return outcome?.holdReason === 'existsNotYours' && record.onConflict === 'rename';
}
