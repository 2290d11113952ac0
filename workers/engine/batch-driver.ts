/**
 * Runs a batch of small files (batch-runner.ts) until each item is done, held or failed: the items
 * move together (one queue write per step for all of them), the request is retried as a whole with
 * backoff, and offline periods are waited out without spending an attempt, like one item's driver.
 * A command on any item (pause, cancel) stops the batch: the items it did not touch go back to the
 * queue and join the next batch; their client keys make a batch the server already took answer
 * `created` instead of storing anything twice.
 */
import { ERRORS } from '../../common/api/errors';
import { ApiCallError } from '../../common/api/failure';
import { RETRY_MAX_ATTEMPTS } from '../../common/transfer/constants';
import type { TransferState } from '../../common/transfer/states';
import type { Sha256Hex } from '../hash/sha256';
import type { UploadPatch } from '../queue/types';
import type { ApiClient } from './api-client';
import { backoffDelayMs, type Sleep } from './backoff';
import { runBatch } from './batch-runner';
import { decideOnFailure, mayRetry, type FailureDecision } from './failure-policy';
import type { ItemWrites } from './item-writes';
import type { LiveItem } from './live-item';
import { MESSAGES } from './messages';
import { waitUntilOnline, type OnlineSignal } from './online';

export interface BatchDriverContext extends Pick<ItemWrites, 'writeMany' | 'startMany'> {
  api: ApiClient;
  now: () => number;
  random: () => number;
  sleep: Sleep;
  sha256: Sha256Hex;
  online: OnlineSignal;
  /** Aborted when the engine shuts down: nothing more is written then. */
  lifetime: AbortSignal;
  changed(): void;
  started(): void;
  ended(): void;
  /** The server has no batch route (404): the items take the chunked protocol from now on. */
  unsupported(): void;
}

/** The server found the manifest damaged on the way (its digest header did not match): send again. */
function manifestDamaged(error: unknown): boolean {
  return error instanceof ApiCallError && error.errorCode === ERRORS.CHUNK_DIGEST_MISMATCH.code;
}

const RUNNING: ReadonlySet<TransferState> = new Set(['uploading', 'retrying']);

export function createBatchDriver(ctx: BatchDriverContext): { driveBatch(lives: LiveItem[]): Promise<void> } {
  const { writeMany, now } = ctx;

  /** The same patch for every live item of the batch whose state is in `from`. */
  const writeAll = (lives: LiveItem[], patch: UploadPatch, from: ReadonlySet<TransferState>) =>
    writeMany(new Map(lives.map((l) => [l.record.id, patch])), from);

  async function driveBatch(group: LiveItem[]): Promise<void> {
    const controller = new AbortController();
    const { signal } = controller;
    for (const live of group) live.run = controller;
    ctx.started();
    let lives = group;
    try {
      const entered = await ctx.startMany(group.map((l) => l.record.id));
      lives = group.filter((l) => entered.has(l.record.id));
      for (const live of group) if (!entered.has(live.record.id) && live.run === controller) live.run = null;
      for (const live of lives) live.speed.start(now());
      const byId = new Map(lives.map((l) => [l.record.id, l]));
      let attempts = Math.max(0, ...lives.map((l) => l.record.attempts));
      let failingSince: number | null = null;
      for (;;) {
        try {
          const outcome = await runBatch({
            items: lives,
            api: ctx.api,
            sha256: ctx.sha256,
            signal,
            progress: (id, sent) => {
              const live = byId.get(id);
              if (!live) return;
              const before = live.inflight.get(0) ?? 0;
              if (sent > before) live.speed.record(sent - before, now());
              live.inflight.set(0, sent);
              ctx.changed();
            },
          });
          const patches = new Map<string, UploadPatch>();
          for (const [id, patch] of outcome.patches) {
            const tries = byId.get(id)!.record.attempts + 1;
            patches.set(
              id,
              patch !== 'requeue' ? patch : tries < RETRY_MAX_ATTEMPTS ? { state: 'waiting', attempts: tries } : { state: 'failed', attempts: tries, lastError: MESSAGES.uploadFailed },
            );
          }
          await writeMany(patches, RUNNING);
          return;
        } catch (error) {
          if (signal.aborted) return;
          if (error instanceof ApiCallError && error.status === 404) {
            // A backend without our batch route (spec §7 does not have it): upload these one by one.
            ctx.unsupported();
            await writeAll(lives, { state: 'waiting' }, RUNNING);
            return;
          }
          const decision: FailureDecision = manifestDamaged(error)
            ? { action: 'retry', message: MESSAGES.networkRetrying, finalMessage: MESSAGES.networkGaveUp }
            : decideOnFailure(error);
          if (decision.action === 'retry' && decision.network && !ctx.online.isOnline()) {
            await writeAll(lives, { state: 'retrying', lastError: MESSAGES.offline }, RUNNING);
            await waitUntilOnline(ctx.online, signal);
            await writeAll(lives, { state: 'uploading', lastError: null }, RUNNING);
            continue;
          }
          attempts++;
          if (attempts === 1 || failingSince === null) failingSince = now();
          if (decision.action === 'retry' && mayRetry(decision, attempts, failingSince, now())) {
            await writeAll(lives, { state: 'retrying', attempts, lastError: decision.message }, RUNNING);
            await ctx.sleep(decision.retryAfterMs ?? backoffDelayMs(attempts, ctx.random), signal);
            await writeAll(lives, { state: 'uploading', lastError: null }, RUNNING);
            continue;
          }
          const message = decision.action === 'retry' ? decision.finalMessage : decision.message;
          const holdReason = decision.action === 'retry' ? null : (decision.holdReason ?? null);
          await writeAll(lives, { state: decision.action === 'hold' ? 'held' : 'failed', attempts, lastError: message, holdReason }, RUNNING);
          return;
        }
      }
    } catch (error) {
      // Only an abort ends up here (a command, or the engine shutting down); anything else is a bug.
      if (!signal.aborted) console.error('transfer engine: unexpected error in a batch', error);
    } finally {
      // Stopped by a command on one of them: the others go back to the queue for the next batch.
      if (signal.aborted && !ctx.lifetime.aborted) await writeAll(lives, { state: 'waiting' }, RUNNING).catch(() => undefined);
      for (const live of group) {
        if (live.run === controller) live.run = null;
        live.inflight.clear();
        live.speed.reset();
      }
      ctx.changed();
      ctx.ended();
    }
  }

  return { driveBatch };
}
