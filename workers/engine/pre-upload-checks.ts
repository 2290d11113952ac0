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
import { ApiCallError } from '../../common/api/failure';
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
 * The outcome for a new version, asked by the file's id: the file must still exist (else the upload has
 * nothing to become a version of), the caller must still be allowed to give it new content (a share
 * narrowed to preview or download since), and not locked by someone else; a sensitive name is held for
 * the user's confirmation. `version` null: the server does not know the id for this caller (404).
 */
export function versionOutcome(candidate: VersionCandidate, version: FileVersionCheckResponse | null, state: SensitiveOrLockResult | undefined): CheckOutcome {
  if (!version || !version.exists || version.fileId !== candidate.versionOf) return { state: 'failed', holdReason: 'versionGone', lastError: MESSAGES.versionGone };
  if (version.replaceable === false) return { state: 'failed', holdReason: null, lastError: MESSAGES.versionNotEditable };
  if (version.locked || state?.locked) return { state: 'held', holdReason: 'locked', lastError: MESSAGES.held.versionLocked };
  if (state?.sensitive) return { state: 'held', holdReason: 'sensitive', lastError: MESSAGES.held.sensitive };
  return PASS;
}

const HTTP_NOT_FOUND = 404;

/** fileVersion/check by id; null when the id is unknown to the caller (404: deleted, or no longer shared). */
async function checkVersion(api: ApiClient, c: VersionCandidate, signal: AbortSignal): Promise<FileVersionCheckResponse | null> {
  try {
    return await api.send(PRE_UPLOAD.fileVersionCheck, { name: c.name, parentId: c.parentId, category: c.category, versionOf: c.versionOf }, signal);
  } catch (error) {
    if (error instanceof ApiCallError && error.status === HTTP_NOT_FOUND) return null;
    throw error;
  }
}

/**
 * New versions, each addressed by its file's id (versionOf: wherever the file sits, a share's file at
 * its owner's top level included): fileVersion/check for each (the call takes one file; 上传新版本
 * queues one at a time), then checkFileSensitiveOrLock once for the files still there. No clash
 * question is recorded on the server (multipleFile/check would record "exists" for a clash the user
 * has already answered); a locked or sensitive one is recorded by checkFileSensitiveOrLock, so
 * keepOnUpload and giveUpUpload apply.
 */
export async function checkNewVersions(api: ApiClient, candidates: VersionCandidate[], signal: AbortSignal): Promise<Map<string, CheckOutcome>> {
  const outcomes = new Map<string, CheckOutcome>();
  if (candidates.length === 0) return outcomes;
  const versions = await Promise.all(candidates.map((c) => checkVersion(api, c, signal)));
  const present = candidates.filter((c, i) => versions[i]?.exists && versions[i].fileId === c.versionOf);
  const items: UploadCandidate[] = present.map(({ key, name, size, parentId, category, versionOf }) => ({ key, name, size, parentId, category, versionOf }));
  const states = items.length > 0 ? await api.send(PRE_UPLOAD.checkFileSensitiveOrLock, { items }, signal) : [];
  const byKey = new Map(states.map((r) => [r.key, r]));
  candidates.forEach((c, i) => outcomes.set(c.key, versionOutcome(c, versions[i] ?? null, byKey.get(c.key))));
  return outcomes;
}
