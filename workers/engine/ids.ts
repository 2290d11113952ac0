/**
 * Item ids that sort in creation order: time (ms, base 36), a per-page sequence, then randomness.
 * Dexie orders equal `createdAt` values by primary key, so files queued in one batch (same
 * millisecond) keep their order. Uses getRandomValues, which unlike randomUUID also exists outside
 * secure contexts.
 */
let sequence = 0;

export function newItemId(now: number = Date.now()): string {
  const random = new Uint8Array(6);
  globalThis.crypto.getRandomValues(random);
  const tail = Array.from(random, (b) => b.toString(16).padStart(2, '0')).join('');
  sequence = (sequence + 1) % 36 ** 4;
  return `${Math.floor(now).toString(36).padStart(9, '0')}-${sequence.toString(36).padStart(4, '0')}-${tail}`;
}
