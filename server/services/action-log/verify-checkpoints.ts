import type { KeyObject } from 'node:crypto';
import type { ActionLogCheckpoint } from '../../../common/api/action-log';
import type { ActionLogRepository } from '../../repositories/action-log-repository';
import { checkCheckpoint } from './checkpoint';
import type { ChainReport } from './verify';

/** What one checkpoint says about the log as it stands. */
export interface CheckpointReport {
  /** Where it came from: `file` and its 1-based position in it. */
  source: string;
  checkpoint: ActionLogCheckpoint | null;
  /**
   * - `reached`: the chain holds through the checkpoint's row, with its hash;
   * - `pruned`: the row is gone by retention (a prune record of the chain, itself verified, states
   *   an anchor at or past it; at the anchor the hash is compared too);
   * - `missing`: the chain ends before the checkpoint's row: rows `missingFrom`–`missingTo` (at
   *   least) were cut off after it;
   * - `forked`: the chain has a row with that seq, but another one (rows from there on replaced);
   * - `brokenBefore`: the chain breaks before the checkpoint's row (the chain's own report says where);
   * - `invalid`: not a checkpoint, an unknown key, or a signature that does not hold.
   */
  status: 'reached' | 'pruned' | 'missing' | 'forked' | 'brokenBefore' | 'invalid';
  missingFrom?: number;
  missingTo?: number;
  message: string;
}

export function checkpointHolds(r: CheckpointReport): boolean {
  return r.status === 'reached' || r.status === 'pruned';
}

/**
 * Holds each checkpoint against the chains `verifyChains` walked: its signature first (a trusted
 * key, see checkCheckpoint), then whether the chain still reaches its row with its hash. Retention
 * is not a cut: a row pruned under a verified prune record counts as reached.
 */
export async function verifyCheckpoints(
  repo: ActionLogRepository,
  chains: readonly ChainReport[],
  items: ReadonlyArray<{ source: string; value: unknown }>,
  trusted: ReadonlyMap<string, KeyObject>,
): Promise<CheckpointReport[]> {
  const reports: CheckpointReport[] = [];
  for (const { source, value } of items) {
    const checked = checkCheckpoint(value, trusted);
    if (!checked.ok) {
      reports.push({ source, checkpoint: checked.checkpoint ?? null, status: 'invalid', message: checked.problem });
      continue;
    }
    const c = checked.checkpoint;
    const at = `row ${c.seq} of ${c.time}`;
    const chain = chains.find((r) => r.tenantId === c.tenantId);
    const report = (status: CheckpointReport['status'], message: string, missing?: { from: number; to: number }) =>
      reports.push({ source, checkpoint: c, status, message, ...(missing ? { missingFrom: missing.from, missingTo: missing.to } : {}) });
    if (c.seq === 0) {
      report('reached', `${at}: the chain was empty then`);
      continue;
    }
    if (!chain || chain.broken?.reason === 'noHead') {
      report('missing', `${at}: the tenant's chain is gone (no head): rows 1–${c.seq} at least are missing`, { from: 1, to: c.seq });
      continue;
    }
    if (c.seq <= chain.anchorSeq) {
      // Pruned: the walk checked that a chained prune record states this anchor (verify.ts, 'anchor').
      if (chain.broken && chain.broken.reason === 'anchor') report('brokenBefore', `${at}: ${chain.broken.message}`);
      else if (c.seq === chain.anchorSeq && c.hash !== chain.anchorHash) report('forked', `${at}: the prune anchor at that row has another hash: the log was rewritten`);
      else report('pruned', `${at}: pruned by retention (the chain's prune records reach row ${chain.anchorSeq})`);
      continue;
    }
    if (c.seq <= chain.verifiedThrough) {
      const hash = await repo.rowHash(c.tenantId, c.seq);
      if (hash === c.hash) report('reached', `${at}: the chain reaches it with its hash`);
      else report('forked', `${at}: row ${c.seq} is now another row (its hash is not the one signed): the log was rewritten from row ${c.seq} or earlier`);
      continue;
    }
    // The walk stopped before the checkpoint's row.
    const walkEnded = chain.broken === null || chain.broken.reason === 'head' || chain.broken.reason === 'tail';
    if (walkEnded && (await repo.rowHash(c.tenantId, chain.verifiedThrough + 1)) === undefined) {
      const from = chain.verifiedThrough + 1;
      report('missing', `${at}: the chain ends at row ${chain.verifiedThrough}: rows ${from}–${c.seq} (at least ${c.seq - from + 1}) were cut off after this checkpoint`, {
        from,
        to: c.seq,
      });
    } else {
      report('brokenBefore', `${at}: the chain breaks at row ${chain.broken?.seq ?? chain.verifiedThrough + 1}, before it (${chain.broken?.message ?? 'see the chain report'})`);
    }
  }
  return reports;
}
