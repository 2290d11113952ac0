/**
 * Replays the outbox in order. Each row goes to the executor of its kind with its client operation
 * id; the server applies an id once, so a row whose answer was lost is simply sent again.
 *
 * - success: the row goes, and the executor may rewrite later rows (a folder made offline has a
 *   temporary id until the server names it);
 * - the server refuses (name clash, target gone or locked, no permission): the row waits for the
 *   user with the reason, and the rows after it wait too — later changes may depend on it;
 * - no answer (network): replay stops and starts again when the network is back.
 */
import { newOpId, type OutboxRow, type OutboxStore } from './outbox-store';

/** What the server's refusal means for a row. */
export interface Refusal {
  state: 'failed' | 'conflict';
  reason: string;
}

export interface OutboxExecutor<P = unknown, R = unknown> {
  send(payload: P, opId: string, signal: AbortSignal): Promise<R>;
  /** A refusal from the server (the row waits for the user), or null for "no answer" (network). */
  refusal(error: unknown): Refusal | null;
  /** After the server applied it: refresh caches, and return id replacements for later rows. */
  sent?(payload: P, result: R): Promise<Record<string, string> | void> | Record<string, string> | void;
}

export type Executors = Record<string, OutboxExecutor>;

export type ReplayOutcome = 'empty' | 'done' | 'blocked' | 'offline';

/** Replaces every occurrence of the temporary ids in a payload (they are opaque strings). */
export function rewriteIds<P>(payload: P, ids: Record<string, string>): P {
  let json = JSON.stringify(payload);
  for (const [from, to] of Object.entries(ids)) json = json.split(JSON.stringify(from)).join(JSON.stringify(to));
  return JSON.parse(json) as P;
}

/** One pass over the account's rows, oldest first, until done, blocked or offline. */
export async function replayOnce(store: OutboxStore, account: string, executors: Executors, signal: AbortSignal): Promise<ReplayOutcome> {
  let rows = await store.list(account);
  if (rows.length === 0) return 'empty';
  while (rows.length > 0 && !signal.aborted) {
    const row = rows[0]!;
    if (row.state !== 'pending') return 'blocked';
    const executor: OutboxExecutor | undefined = executors[row.kind];
    if (!executor) {
      await store.update(row.seq!, { state: 'failed', reason: '无法识别的离线操作，请放弃后重新操作' });
      return 'blocked';
    }
    let result: unknown;
    try {
      result = await executor.send(row.payload, row.opId, signal);
    } catch (error) {
      const refusal = executor.refusal(error);
      if (!refusal) return 'offline';
      await store.update(row.seq!, { state: refusal.state, reason: refusal.reason, attempts: row.attempts + 1 });
      return 'blocked';
    }
    await store.remove(row.seq!);
    const ids = (await executor.sent?.(row.payload, result)) ?? undefined;
    rows = rows.slice(1);
    if (ids && Object.keys(ids).length > 0) {
      rows = rows.map((r) => ({ ...r, payload: rewriteIds(r.payload, ids) }));
      for (const r of rows) await store.update(r.seq!, { payload: r.payload });
    }
  }
  return signal.aborted ? 'offline' : 'done';
}

/**
 * Puts a row back in line (after the user chose how to resolve it). A changed payload (another name,
 * a decision) is another request: it gets a fresh op id, since the server keeps the first answer per id.
 */
export async function retryRow(store: OutboxStore, row: OutboxRow, payload: unknown = row.payload): Promise<void> {
  const changed = JSON.stringify(payload) !== JSON.stringify(row.payload);
  await store.update(row.seq!, { state: 'pending', reason: null, payload, ...(changed ? { opId: newOpId() } : {}) });
}
