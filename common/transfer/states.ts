/**
 * Transfer item states and the transitions allowed between them, written down once. The engine
 * refuses any other transition (assertTransition), and tests walk this table.
 */
export const TRANSFER_STATES = [
  'waiting', // queued, not started
  'hashing', // computing chunk digests and fingerprint (a pipelined upload hashes while 'uploading', too)
  'checking', // asking the server what it already has; back to 'hashing' when a server refuses a streaming session
  'uploading', // sending chunks / merging
  'paused', // stopped by the user, resumable
  'retrying', // waiting out a backoff after a transient failure
  'held', // waiting for a user decision (file must be picked again, conflict...)
  'done',
  'failed', // gave up: permanent error or retries exhausted; the user may retry
  'cancelled',
] as const;

export type TransferState = (typeof TRANSFER_STATES)[number];

const ACTIVE: TransferState[] = ['hashing', 'checking', 'uploading', 'retrying'];

export const TRANSITIONS: Record<TransferState, readonly TransferState[]> = {
  // → uploading: a small file in a batch (hashed in memory, no checking round trip: batch-upload.ts).
  // → failed: a pre-upload check asked before the first byte (an item queued offline) refuses it.
  waiting: ['hashing', 'checking', 'uploading', 'paused', 'cancelled', 'held', 'failed'],
  // → done: the server says this item's file exists already (protocol.ts, "Finished uploads").
  hashing: ['checking', 'done', 'paused', 'cancelled', 'retrying', 'failed', 'held', 'waiting'],
  checking: ['uploading', 'done', 'paused', 'cancelled', 'retrying', 'failed', 'held', 'waiting', 'hashing'],
  uploading: ['done', 'paused', 'cancelled', 'retrying', 'failed', 'held', 'waiting'],
  retrying: ['hashing', 'checking', 'uploading', 'paused', 'cancelled', 'failed', 'waiting'],
  paused: ['waiting', 'cancelled'],
  held: ['waiting', 'cancelled'],
  failed: ['waiting', 'cancelled'],
  done: [],
  cancelled: [],
};

export function canTransition(from: TransferState, to: TransferState): boolean {
  return TRANSITIONS[from].includes(to);
}

export function assertTransition(from: TransferState, to: TransferState): void {
  if (!canTransition(from, to)) throw new Error(`illegal transfer transition ${from} → ${to}`);
}

export function isActive(state: TransferState): boolean {
  return ACTIVE.includes(state);
}

export function isFinal(state: TransferState): boolean {
  return state === 'done' || state === 'cancelled';
}
