/**
 * New items into the queue: the pre-upload checks of spec §4 for the whole pick in one call
 * (pre-upload-checks.ts), each record put in the state its check gives it, all stored at once.
 */
import type { UploadCandidate } from '../../common/api/endpoints/pre-upload';
import type { EnqueueOptions } from '../../common/transfer/engine-api';
import type { TransferDb } from '../queue/db';
import type { UploadRecord } from '../queue/types';
import type { ApiClient } from './api-client';
import { checkFileName } from '../../common/validation/names';
import { checkBatch, type CheckOutcome } from './pre-upload-checks';
import { storeNewRecords } from './queue-storage';

/** [id, failed outcome] when the record's name breaks the name rule, else nothing. */
function nameOutcome(record: UploadRecord): Array<[string, CheckOutcome]> {
  const problem = checkFileName(record.name);
  return problem ? [[record.id, { state: 'failed', holdReason: 'badName', lastError: problem.message }]] : [];
}

export interface EnqueueContext {
  api: ApiClient;
  db: TransferDb;
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
  /**
   * Runs the pre-upload checks for the batch. A server without the check (or a failed call) lets the
   * batch through: the server enforces the same rules again at merge.
   */
  async function preUploadChecks(records: UploadRecord[]): Promise<Map<string, CheckOutcome>> {
    const candidates: UploadCandidate[] = records.map((r) => ({ key: r.id, name: r.name, size: r.size, parentId: r.target.parentId, category: r.target.category }));
    try {
      return await checkBatch(ctx.api, candidates, ctx.signal);
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      console.warn(`transfer engine: pre-upload checks unavailable (${reason}); the server enforces them at merge`);
      return new Map();
    }
  }

  return async (records, options) => {
    if (options?.onConflict) for (const record of records) record.onConflict = options.onConflict;
    // A name the rule refuses fails here, before a byte is read: the server would refuse it at the end
    // (and its check refuses a whole batch that holds one). The web app asks before queueing; this
    // catches every other way in (an older tab, the replay).
    const badNames = new Map(records.flatMap((r) => nameOutcome(r)));
    const outcomes = await preUploadChecks(records.filter((r) => !badNames.has(r.id)));
    for (const record of records) {
      const outcome = badNames.get(record.id) ?? outcomes.get(record.id);
      // A new version, or a free name, was asked for up front: the clash is answered, not a question.
      if (outcome?.holdReason === 'exists' && record.onConflict !== 'fail') continue;
      if (outcome?.holdReason === 'existsNotYours' && record.onConflict === 'rename') continue;
      Object.assign(record, outcome ?? {});
    }
    await storeNewRecords(ctx.db, records);
    ctx.added(records);
    return records.map((r) => r.id);
  };
}
