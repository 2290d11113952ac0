/**
 * Runs one item: attempts (upload-runner.ts) until it is done, is held, gives
 * up or is stopped by a command. A failure is retried with backoff while attempts remain — counted
 * as failures in a row: any progress (chunks confirmed, or found stored) starts the count again —
 * and waits for the network without spending one while offline.
 */
import type { HashChunk, Sha256Hex } from '../hash/sha256';
import type { UploadPatch } from '../queue/types';
import { ConcurrencyLimit } from './adaptive-pool';
import type { ApiClient } from './api-client';
import { backoffDelayMs, type Sleep } from './backoff';
import { decideOnFailure, mayRetry } from './failure-policy';
import type { ItemWrites } from './item-writes';
import { OvertakenByCommand, type LiveItem } from './live-item';
import { MESSAGES } from './messages';
import { waitUntilOnline, type OnlineSignal } from './online';
import { createUploadConfigCache } from './upload-config-cache';
import { runUpload } from './upload-runner';

export interface DriverContext extends Pick<ItemWrites, 'write' | 'persistConfirmed'> {
  api: ApiClient;
  now: () => number;
  random: () => number;
  sleep: Sleep;
  sha256: Sha256Hex;
  hashChunk: HashChunk;
  hashConcurrency: number;
  streamingDigests: 'client' | 'server';
  /** A chunk request with no progress for this long is aborted (the transport's, and whole-file.ts's own watch). */
  stallTimeoutMs: number;
  chunkConcurrency: number;
  online: OnlineSignal;
  /** The view changed (progress, state). */
  changed(): void;
  /** The item still exists (clearFinished may remove it under a running attempt). */
  exists(id: string): boolean;
  /** An item started / ended running (the scheduler counts them and starts the next). */
  started(): void;
  ended(): void;
}

export function createItemDriver(ctx: DriverContext): { drive(live: LiveItem): Promise<void> } {
  const { api, now, random, sleep, sha256, hashChunk, hashConcurrency, chunkConcurrency, online, write, persistConfirmed } = ctx;
  const uploadConfig = createUploadConfigCache(api, now);

function runAttempt(live: LiveItem, signal: AbortSignal): Promise<void> {
  const id = live.record.id;
  const update = (patch: UploadPatch) => write(id, patch, signal);
  const limit = new ConcurrencyLimit(live.record.chunkConcurrency || chunkConcurrency, chunkConcurrency, now, (value) => {
    void write(id, { chunkConcurrency: value }).catch(() => undefined);
  });
  return runUpload({
    record: live.record,
    file: live.file,
    signal,
    api,
    sha256,
    uploadConfig,
    hashChunk,
    hashConcurrency,
    streamingDigests: ctx.streamingDigests,
    stallTimeoutMs: ctx.stallTimeoutMs,
    now,
    limit,
    sleep,
    random,
    update,
    chunkProgress: (index, sent) => {
      const before = live.inflight.get(index) ?? 0;
      if (sent > 0) live.inflight.set(index, sent);
      else live.inflight.delete(index);
      if (sent > before) live.speed.record(sent - before, now());
      ctx.changed();
    },
    chunkDone: (index, bytes) => {
      const before = live.inflight.get(index) ?? 0;
      live.inflight.delete(index);
      live.confirmed.set(index, bytes);
      if (bytes > before) live.speed.record(bytes - before, now());
      ctx.changed();
      persistConfirmed(live);
    },
    onHashProgress: (bytesHashed) => {
      live.hashedBytes = bytesHashed;
      ctx.changed();
    },
  });
}

/** Runs attempts of one item until it is done, gives up, is held, or is stopped by a command. */
async function drive(live: LiveItem): Promise<void> {
  const controller = new AbortController();
  const { signal } = controller;
  const id = live.record.id;
  live.run = controller;
  ctx.started();
  live.speed.start(now());
  try {
    for (;;) {
      try {
        await runAttempt(live, signal);
        return;
      } catch (error) {
        // The command that aborted (or overtook) us has set the state.
        if (signal.aborted || error instanceof OvertakenByCommand) return;
        live.inflight.clear();
        const decision = decideOnFailure(error);
        if (decision.action === 'retry' && decision.network && !online.isOnline()) {
          // Offline: wait for the network without spending an attempt, then go on by ourselves.
          await write(id, { state: 'retrying', lastError: MESSAGES.offline }, signal);
          live.speed.reset();
          await waitUntilOnline(online, signal);
          live.speed.start(now());
          continue;
        }
        const done = live.record.chunksDone.length + live.confirmed.size;
        const attempts = (done > live.doneAtLastFailure ? 0 : live.record.attempts) + 1;
        live.doneAtLastFailure = done;
        if (attempts === 1) live.failingSince = now();
        if (decision.action === 'retry' && mayRetry(decision, attempts, live.failingSince, now())) {
          await write(id, { ...decision.patch, state: 'retrying', attempts, lastError: decision.message }, signal);
          live.speed.reset();
          await sleep(decision.retryAfterMs ?? backoffDelayMs(attempts, random), signal);
          live.speed.start(now());
          continue;
        }
        const message = decision.action === 'retry' ? decision.finalMessage : decision.message;
        const holdReason = decision.action === 'retry' ? null : (decision.holdReason ?? null);
        await write(id, { state: decision.action === 'hold' ? 'held' : 'failed', attempts, lastError: message, holdReason }, signal);
        return;
      }
    }
  } catch (error) {
    // Only an abort (or the item vanishing under clearFinished) ends up here; anything else is a bug.
    if (!signal.aborted && !(error instanceof OvertakenByCommand) && ctx.exists(id)) console.error('transfer engine: unexpected error', error);
  } finally {
    if (live.run === controller) live.run = null;
    live.hashedBytes = 0;
    live.inflight.clear();
    live.speed.reset();
    ctx.changed();
    ctx.ended();
  }
}

  return { drive };
}
