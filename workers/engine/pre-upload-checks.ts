/**
 * Pre-upload checks (spec §4, common/transfer/checks.ts): one multipleFile/check call per batch of
 * picked files, before anything is hashed or sent. Each answer routes its file:
 *  - type blocked by the tenant → 'failed' with holdReason 'blockedType' (the intercepted list; it is
 *    never uploaded, and retry refuses it);
 *  - over quota → 'failed' with the quota message;
 *  - locked / sensitive / a file of that name exists → 'held' for the user's decision;
 *  - otherwise 'waiting'.
 */
import { PRE_UPLOAD, type MultipleFileCheckRequest, type UploadCandidate } from '../../common/api/endpoints/pre-upload';
import type { MultipleFileCheckResult } from '../../common/transfer/checks';
import type { ApiClient } from './api-client';
import { MESSAGES } from './messages';
import type { ItemHoldReason } from '../queue/types';

export interface CheckOutcome {
  state: 'waiting' | 'held' | 'failed';
  holdReason: ItemHoldReason | null;
  lastError: string | null;
}

const PASS: CheckOutcome = { state: 'waiting', holdReason: null, lastError: null };

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
