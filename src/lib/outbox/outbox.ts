/**
 * The offline outbox of the web app: features register an executor per kind of change, enqueue
 * changes made offline (applied optimistically to their cached lists by the feature), and one tab
 * per origin — elected with a Web Lock — replays them in order when the network is back. The user
 * sees every row (待同步) and decides on the ones the server refused: nothing is dropped silently.
 */
import { onlineManager } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { partitionOf } from '../data/account';
import { savedAccount } from '../data/account';
import { replayOnce, retryRow, type Executors, type OutboxExecutor } from './outbox-replayer';
import { newOpId, openOutboxStore, type OutboxRow, type OutboxStore } from './outbox-store';

const LOCK_NAME = 'drive-outbox-replayer';
/** After "no answer", try again this often while the browser claims to be online. */
const RETRY_MS = 15_000;

let store: OutboxStore | null = null;
const outboxStore = (): OutboxStore => (store ??= openOutboxStore());
const executors: Executors = {};

export function registerOutboxExecutor<P, R>(kind: string, executor: OutboxExecutor<P, R>): void {
  executors[kind] = executor as unknown as OutboxExecutor;
}

function currentPartition(): string | null {
  const account = savedAccount();
  return account ? partitionOf(account) : null;
}

/** Records a change made offline for the signed-in account; the replaying tab sends it when it can. */
export async function enqueueOutbox<P>(kind: string, payload: P, label: string): Promise<void> {
  const account = currentPartition();
  if (!account) throw new Error('no confirmed account: cannot keep offline changes');
  await outboxStore().add({ opId: newOpId(), account, kind, payload, label, state: 'pending', reason: null, createdAt: Date.now(), attempts: 0 });
  kickOutbox();
}

/** The signed-in account's outbox rows in replay order, live across tabs. */
export function useOutboxRows(): OutboxRow[] {
  const [rows, setRows] = useState<OutboxRow[]>([]);
  const account = currentPartition();
  useEffect(() => {
    if (!account) {
      setRows([]);
      return;
    }
    let current = true;
    // Reads after every change; a slower earlier read never overwrites a later one.
    let reads = 0;
    const read = () => {
      const n = ++reads;
      outboxStore()
        .list(account)
        .then(
          (rows) => current && n === reads && setRows(rows),
          () => current && setRows([]),
        );
    };
    read();
    const unwatch = outboxStore().watch(read);
    return () => {
      current = false;
      unwatch();
    };
  }, [account]);
  return rows;
}

/** The user resolved a refused row (maybe with a new payload, e.g. a conflict decision): send it again. */
export async function retryOutboxRow(row: OutboxRow, payload?: unknown): Promise<void> {
  await retryRow(outboxStore(), row, payload ?? row.payload);
  kickOutbox();
}

/** The user gave up a row: it goes, and the rows behind it may go on. */
export async function discardOutboxRow(row: OutboxRow): Promise<void> {
  await outboxStore().remove(row.seq!);
  kickOutbox();
}

/** Unsent rows of the signed-in account (logout asks before they are dropped). */
export async function pendingOutboxCount(): Promise<number> {
  const account = currentPartition();
  return account ? (await outboxStore().list(account)).length : 0;
}

export async function clearOutboxOfCurrentAccount(): Promise<void> {
  const account = currentPartition();
  if (account) await outboxStore().clearAccount(account);
}

// ---- the replaying tab -------------------------------------------------------------------------

let leader = false;
let running = false;
let again = false;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let controller: AbortController | null = null;

/** Asks the replaying tab (if this is it) to go through the outbox now. */
export function kickOutbox(): void {
  if (!leader) return;
  if (running) {
    again = true;
    return;
  }
  void pump();
}

async function pump(): Promise<void> {
  running = true;
  try {
    do {
      again = false;
      const account = currentPartition();
      if (!account || !onlineManager.isOnline() || !controller) break;
      const outcome = await replayOnce(outboxStore(), account, executors, controller.signal);
      if (outcome === 'offline' && !retryTimer) retryTimer = setTimeout(() => ((retryTimer = null), kickOutbox()), RETRY_MS);
    } while (again);
  } catch (e) {
    console.warn('outbox replay failed', e);
  } finally {
    running = false;
  }
}

/**
 * Takes part in the election of the replaying tab (one per origin, Web Locks; where they are missing
 * every tab replays, which the server's op ids make harmless). Returns a stop function.
 */
export function startOutbox(): () => void {
  const stopped = new AbortController();
  controller = new AbortController();
  const unsubscribeOnline = onlineManager.subscribe((online) => online && kickOutbox());
  const unwatch = outboxStore().watch(() => kickOutbox());
  const becomeLeader = (): void => {
    leader = true;
    kickOutbox();
  };
  if (typeof navigator !== 'undefined' && navigator.locks) {
    navigator.locks
      .request(LOCK_NAME, { signal: stopped.signal }, () => {
        becomeLeader();
        return new Promise<void>((resolve) => stopped.signal.addEventListener('abort', () => resolve()));
      })
      .catch(() => undefined); // aborted while waiting: this tab never led
  } else {
    becomeLeader();
  }
  return () => {
    leader = false;
    stopped.abort();
    controller?.abort();
    controller = null;
    unsubscribeOnline();
    unwatch();
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
  };
}
