/**
 * Pre-upload checks (spec §4, common/transfer/checks.ts): one multipleFile/check call per batch of
 * picked files, before anything is hashed or sent (check-round.ts adds the type list and the checks
 * of a new version). Each answer routes its file:
 *  - type blocked by the tenant → 'failed' with holdReason 'blockedType' (the intercepted list; it is
 *    never uploaded, and retry refuses it);
 *  - over quota → 'failed' with the quota message;
 *  - locked / sensitive / a file of that name exists → 'held' for the user's decision;
 *  - otherwise 'waiting'.
 */
import { PRE_UPLOAD, type MultipleFileCheckRequest, type UploadCandidate } from '../../common/api/endpoints/pre-upload';
import type { FileVersionCheckResponse, SensitiveOrLockResult } from '../../common/transfer/checks';
import type { MultipleFileCheckResult } from '../../common/transfer/checks';
import type { ApiClient } from './api-client';
import { MESSAGES } from './messages';
import type { ItemHoldReason } from '../queue/types';

export interface CheckOutcome {
  state: 'waiting' | 'held' | 'failed';
  holdReason: ItemHoldReason | null;
  lastError: string | null;
  /** The checks could not be asked (offline): the item waits for them (UploadRecord.checksPending). */
  checksPending?: boolean;
}

export const PASS: CheckOutcome = { state: 'waiting', holdReason: null, lastError: null };

/** The outcome of one check result; the most severe finding wins. */
export function outcomeOf(result: MultipleFileCheckResult | undefined): CheckOutcome {
  if (!result) return PASS;
  if (result.blockedType) return { state: 'failed', holdReason: 'blockedType', lastError: MESSAGES.blockedType };
  if (result.overQuota) return { state: 'failed', holdReason: null, lastError: MESSAGES.overQuota };
  if (result.locked) return { state: 'held', holdReason: 'locked', lastError: MESSAGES.held.locked };
  if (result.sensitive) return { state: 'held', holdReason: 'sensitive', lastError: MESSAGES.held.sensitive };
  if (result.exists && result.replaceable === false) return { state: 'held', holdReason: 'existsNotYours', lastError: MESSAGES.held.existsNotYours };
  if (result.exists) return { state: 'held', holdReason: 'exists', lastError: MESSAGES.held.exists };
  return PASS;
}

/** Checks the batch in one call; keyed by candidate key (= item id). */
export async function checkBatch(api: ApiClient, candidates: UploadCandidate[], signal: AbortSignal): Promise<Map<string, CheckOutcome>> {
  const outcomes = new Map<string, CheckOutcome>();
  if (candidates.length === 0) return outcomes;
  const request: MultipleFileCheckRequest = { items: candidates };
  const response = await api.send(PRE_UPLOAD.multipleFileCheck, request, signal);
  const byKey = new Map(response.results.map((r) => [r.key, r]));
  for (const c of candidates) outcomes.set(c.key, outcomeOf(byKey.get(c.key)));
  return outcomes;
}

/** A new version of a known file (上传新版本), with the id of that file. */
export interface VersionCandidate extends UploadCandidate {
  versionOf: string;
}

/**
 * The outcome for a new version: the file must still be there under that name (else the upload would
 * make a new file beside whatever took its place, or where it was deleted), not locked by someone
 * else; a sensitive name is held for the user's confirmation.
 */
export function versionOutcome(candidate: VersionCandidate, version: FileVersionCheckResponse, state: SensitiveOrLockResult | undefined): CheckOutcome {
  if (!version.exists || version.fileId !== candidate.versionOf) return { state: 'failed', holdReason: 'versionGone', lastError: MESSAGES.versionGone };
  if (state?.locked) return { state: 'held', holdReason: 'locked', lastError: MESSAGES.held.versionLocked };
  if (state?.sensitive) return { state: 'held', holdReason: 'sensitive', lastError: MESSAGES.held.sensitive };
  return PASS;
}

/**
 * New versions: fileVersion/check for each (the call takes one file; 上传新版本 queues one at a time)
 * and checkFileSensitiveOrLock once for all, in parallel. No clash question is recorded on the server
 * (multipleFile/check would record "exists" for a clash the user has already answered); a locked or
 * sensitive one is recorded by checkFileSensitiveOrLock, so keepOnUpload and giveUpUpload apply.
 */
export async function checkNewVersions(api: ApiClient, candidates: VersionCandidate[], signal: AbortSignal): Promise<Map<string, CheckOutcome>> {
  const outcomes = new Map<string, CheckOutcome>();
  if (candidates.length === 0) return outcomes;
  const items: UploadCandidate[] = candidates.map(({ key, name, size, parentId, category }) => ({ key, name, size, parentId, category }));
  const [versions, states] = await Promise.all([
    Promise.all(candidates.map((c) => api.send(PRE_UPLOAD.fileVersionCheck, { name: c.name, parentId: c.parentId, category: c.category }, signal))),
    api.send(PRE_UPLOAD.checkFileSensitiveOrLock, { items }, signal),
  ]);
  const byKey = new Map(states.map((r) => [r.key, r]));
  candidates.forEach((c, i) => outcomes.set(c.key, versionOutcome(c, versions[i]!, byKey.get(c.key))));
  return outcomes;
}
