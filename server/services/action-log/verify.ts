import type { ActionLogRepository } from '../../repositories/action-log-repository';
import type { ActionLogTable } from '../../db/schema';
import { BROKEN_HEAD_MARK, hashMatches, headMacMatches } from './chain';

/** The first broken link of one chain. */
export interface BrokenLink {
  tenantId: string;
  /** The row where the chain stops holding (for a missing tail: the first missing seq). */
  seq: number;
  reason: 'edited' | 'missing' | 'relinked' | 'tail' | 'anchor' | 'noHead' | 'head';
  message: string;
}

export interface ChainReport {
  tenantId: string;
  rows: number;
  firstSeq: number | null;
  lastSeq: number;
  headHash: string;
  /** Where pruning stopped (0 and the genesis hash when never pruned). */
  anchorSeq: number;
  anchorHash: string;
  /**
   * The last row the walk from the anchor found linked and unedited (its hash: `verifiedHash`):
   * the chain as it stands holds up to here, whatever the head says.
   */
  verifiedThrough: number;
  verifiedHash: string;
  broken: BrokenLink | null;
}

const PAGE = 5000;

/**
 * Walks every chain from its anchor (where pruning stopped; the start when never pruned) to its head
 * and reports, per tenant, the first link that does not hold:
 * - `edited`: a row whose fields no longer give its stored hash;
 * - `missing`: seq jumps (rows deleted);
 * - `relinked`: a row's prev_hash is not the previous row's hash (rows replaced or reordered);
 * - `tail`: the last rows are gone (the head names a later seq or another hash);
 * - `anchor`: the prune anchor is not the one the last prune record states;
 * - `noHead`: rows of a tenant whose head was deleted;
 * - `head`: the head's MAC does not match its fields (it was moved without the key: a cut-off tail
 *   pointed at its new last row, a moved anchor), or it has none.
 * A head put back to earlier values, MAC included, passes here: only a checkpoint kept off the
 * server finds the rows cut after it (verify-checkpoints.ts).
 */
export async function verifyChains(repo: ActionLogRepository, key: Buffer, onProgress?: (tenantId: string, rows: number) => void): Promise<ChainReport[]> {
  const reports: ChainReport[] = [];
  for (const head of await repo.heads()) {
    const tenantId = head.tenant_id;
    let expectedSeq = Number(head.anchor_seq) + 1;
    let expectedPrev = head.anchor_hash;
    let rows = 0;
    let firstSeq: number | null = null;
    let broken: BrokenLink | null = null;
    let lastPrune: ActionLogTable | null = null;
    const link = (seq: number, reason: BrokenLink['reason'], message: string): BrokenLink => ({ tenantId, seq, reason, message });
    // The head says where the walk starts and ends: one moved without the key is the first thing wrong.
    if (!headMacMatches(key, head)) {
      const markedAt = head.mac?.startsWith(BROKEN_HEAD_MARK) ? Number(head.mac.slice(BROKEN_HEAD_MARK.length)) : NaN;
      broken = link(
        Number.isSafeInteger(markedAt) ? markedAt : Number(head.seq),
        'head',
        head.mac === null
          ? `the chain head (row ${Number(head.seq)}) carries no MAC: it was cleared, or written before the head was authenticated and never sealed`
          : head.mac.startsWith(BROKEN_HEAD_MARK)
            ? `the chain head was changed without the key when it named row ${head.mac.slice(BROKEN_HEAD_MARK.length)} (a cut-off tail or a moved anchor); the server went on writing from it without vouching for it`
            : `the chain head (row ${Number(head.seq)}, anchor ${Number(head.anchor_seq)}) was changed without the key: its MAC does not match (a cut-off tail or a moved anchor)`,
      );
    }
    walk: for (let after = Number(head.anchor_seq); ; ) {
      const page = await repo.chainRows(tenantId, after, PAGE);
      for (const row of page) {
        const seq = Number(row.seq);
        firstSeq ??= seq;
        if (seq !== expectedSeq) {
          broken ??= link(expectedSeq, 'missing', `rows ${expectedSeq}–${seq - 1} are missing (deleted)`);
          break walk;
        }
        if (row.prev_hash !== expectedPrev) {
          broken ??= link(seq, 'relinked', `row ${seq} does not follow row ${seq - 1} (its prev_hash is not that row's hash)`);
          break walk;
        }
        if (!hashMatches(key, row)) {
          broken ??= link(seq, 'edited', `row ${seq} was changed after it was written (its hash does not match its fields)`);
          break walk;
        }
        if (row.action === 'audit.prune') lastPrune = row;
        expectedPrev = row.hash;
        expectedSeq = seq + 1;
        rows++;
      }
      onProgress?.(tenantId, rows);
      if (page.length < PAGE) break;
      after = Number(page[page.length - 1]!.seq);
    }
    if (!broken && (expectedSeq - 1 !== Number(head.seq) || expectedPrev !== head.hash)) {
      broken = link(expectedSeq, 'tail', `the chain ends at row ${expectedSeq - 1} but its head names row ${Number(head.seq)}: the last rows are missing`);
    }
    if (!broken && Number(head.anchor_seq) > 0) {
      const stated = lastPrune ? (JSON.parse(lastPrune.detail ?? '{}') as { throughSeq?: number; anchorHash?: string }) : null;
      if (!stated || stated.throughSeq !== Number(head.anchor_seq) || stated.anchorHash !== head.anchor_hash) {
        broken = link(Number(head.anchor_seq), 'anchor', `rows up to ${Number(head.anchor_seq)} are gone, but no prune record of the chain states that anchor`);
      }
    }
    reports.push({ tenantId, rows, firstSeq, lastSeq: Number(head.seq), headHash: head.hash, anchorSeq: Number(head.anchor_seq), anchorHash: head.anchor_hash, verifiedThrough: expectedSeq - 1, verifiedHash: expectedPrev, broken });
  }
  for (const tenantId of await repo.tenantsWithoutHead()) {
    reports.push({
      tenantId,
      rows: 0,
      firstSeq: null,
      lastSeq: 0,
      headHash: '',
      anchorSeq: 0,
      anchorHash: '',
      verifiedThrough: 0,
      verifiedHash: '',
      broken: { tenantId, seq: 1, reason: 'noHead', message: 'rows exist but the chain head was deleted' },
    });
  }
  return reports;
}
