import type { ActionLogCheckpoint } from '../../../common/api/action-log';
import { ERRORS } from '../../../common/api/errors';
import type { ActionLogHeadsTable } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { ActionLogRepository } from '../../repositories/action-log-repository';
import { pause } from '../cluster/lead-runner';
import { GENESIS_HASH, headMacMatches } from './chain';
import { checkCheckpoint, signCheckpoint, type CheckpointSigner } from './checkpoint';

/** Where signed checkpoints leave the server: the server log always, a directory when configured. */
export interface CheckpointSinks {
  /** One log line per checkpoint (the server log reaches syslog/journald where it is kept). */
  log(checkpoint: ActionLogCheckpoint): void;
  /** AUDIT_CHECKPOINT_DIR (storage/checkpoint-directory.ts); undefined when not set. */
  directory?: { append(checkpoints: readonly ActionLogCheckpoint[], at: number): Promise<string>; newest(): Promise<unknown[]> };
}

export interface ActionLogCheckpointerDeps {
  repo: ActionLogRepository;
  chainKey: Buffer;
  signer: CheckpointSigner;
  sinks: CheckpointSinks;
  onError: (err: unknown, message: string) => void;
}

/**
 * Signs checkpoints of the chains' heads (checkpoint.ts) and sends them off the server: every
 * `AUDIT_CHECKPOINT_INTERVAL_MS` the head of each chain that moved since this server's last
 * checkpoint of it, and on an admin's request (the download of 操作日志) the head of one tenant.
 * Periodic, never per row: the write path only keeps the head's MAC.
 *
 * A head whose MAC does not hold, or that went back from the last one this server signed, is never
 * signed (a signature would vouch for a forged or rolled-back head): it is reported instead.
 */
export class ActionLogCheckpointer {
  /** The last head signed per tenant (in this process): unmoved heads are not signed again. */
  private readonly lastSigned = new Map<string, { seq: number; hash: string }>();
  private seeded = false;

  constructor(private readonly deps: ActionLogCheckpointerDeps) {}

  get keyId(): string {
    return this.deps.signer.keyId;
  }

  /**
   * The last heads this server signed before it started, from the directory's newest file (those
   * signed with its own key): a head that went back across a restart is not signed either.
   */
  private async seed(): Promise<void> {
    if (this.seeded || !this.deps.sinks.directory) return;
    const trusted = new Map([[this.deps.signer.keyId, this.deps.signer.publicKey]]);
    for (const value of await this.deps.sinks.directory.newest()) {
      const checked = checkCheckpoint(value, trusted);
      if (!checked.ok) continue;
      const c = checked.checkpoint;
      const seen = this.lastSigned.get(c.tenantId);
      if (!seen || c.seq >= seen.seq) this.lastSigned.set(c.tenantId, { seq: c.seq, hash: c.hash });
    }
    this.seeded = true;
  }

  /** One periodic pass: the checkpoints it signed and sent (tests call it directly). */
  async checkpointOnce(now = Date.now()): Promise<ActionLogCheckpoint[]> {
    await this.seed();
    const signed: ActionLogCheckpoint[] = [];
    for (const head of await this.deps.repo.heads()) {
      const seen = this.lastSigned.get(head.tenant_id);
      if (seen && seen.seq === Number(head.seq) && seen.hash === head.hash) continue;
      const problem = this.problemOf(head);
      if (problem) {
        this.deps.onError(new Error(problem), 'action log head not checkpointed: run audit:verify');
        continue;
      }
      signed.push(signCheckpoint(this.deps.signer, { tenantId: head.tenant_id, seq: Number(head.seq), hash: head.hash }, now));
    }
    await this.publish(signed, now);
    return signed;
  }

  /** A checkpoint of one tenant's head now (the download); also sent where the periodic ones go. */
  async current(tenantId: string, now = Date.now()): Promise<ActionLogCheckpoint> {
    await this.seed();
    const head = await this.deps.repo.head(tenantId);
    if (head) {
      const problem = this.problemOf(head);
      if (problem) {
        this.deps.onError(new Error(problem), 'action log head not checkpointed: run audit:verify');
        throw new AppError(ERRORS.AUDIT_HEAD_INVALID);
      }
    }
    const checkpoint = signCheckpoint(this.deps.signer, { tenantId, seq: head ? Number(head.seq) : 0, hash: head?.hash ?? GENESIS_HASH }, now);
    await this.publish([checkpoint], now);
    return checkpoint;
  }

  private problemOf(head: ActionLogHeadsTable): string | null {
    const seq = Number(head.seq);
    if (!headMacMatches(this.deps.chainKey, head)) return `the head of tenant '${head.tenant_id}' (row ${seq}) does not carry a valid MAC`;
    const seen = this.lastSigned.get(head.tenant_id);
    if (seen && (seq < seen.seq || (seq === seen.seq && head.hash !== seen.hash))) {
      return `the head of tenant '${head.tenant_id}' went back from row ${seen.seq} (signed) to row ${seq}`;
    }
    return null;
  }

  private async publish(checkpoints: readonly ActionLogCheckpoint[], now: number): Promise<void> {
    if (checkpoints.length === 0) return;
    for (const c of checkpoints) this.deps.sinks.log(c);
    // Counted as signed once it is written where it was to go: a failed write is tried again next pass.
    await this.deps.sinks.directory?.append(checkpoints, now);
    for (const c of checkpoints) {
      const seen = this.lastSigned.get(c.tenantId);
      if (!seen || c.seq >= seen.seq) this.lastSigned.set(c.tenantId, { seq: c.seq, hash: c.hash });
    }
  }

  /**
   * The periodic checkpoints, run by the leader only (server/compose/cluster.ts): one pass now (the
   * state this lead found), then one every `intervalMs` (0 = never) until `signal` aborts; resolves
   * once the pass under way has ended. Each lead first reads again what was signed last (another
   * process may have led meanwhile); two processes signing the same head at once give two valid
   * checkpoints of it, nothing worse.
   */
  async run(intervalMs: number, signal: AbortSignal): Promise<void> {
    if (intervalMs <= 0) return;
    this.seeded = false;
    while (!signal.aborted) {
      await this.checkpointOnce().catch((err: unknown) => this.deps.onError(err, 'action log checkpoint failed'));
      await pause(intervalMs, signal);
    }
  }
}
