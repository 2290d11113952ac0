import { describe, expect, it } from 'vitest';
import { assertTransition, canTransition, isActive, isFinal, TRANSFER_STATES, TRANSITIONS } from '../../../common/transfer/states';

const pairs = TRANSFER_STATES.flatMap((from) => TRANSFER_STATES.map((to) => [from, to] as const));

describe('transfer state machine (common/transfer/states.ts)', () => {
  it('accepts every transition listed in the table', () => {
    for (const from of TRANSFER_STATES) {
      for (const to of TRANSITIONS[from]) {
        expect(canTransition(from, to), `${from} → ${to}`).toBe(true);
        expect(() => assertTransition(from, to)).not.toThrow();
      }
    }
  });

  it('refuses every transition not in the table', () => {
    for (const [from, to] of pairs) {
      if (TRANSITIONS[from].includes(to)) continue;
      expect(canTransition(from, to), `${from} → ${to}`).toBe(false);
      expect(() => assertTransition(from, to)).toThrow(/illegal transfer transition/);
    }
  });

  it('final states lead nowhere', () => {
    for (const to of TRANSFER_STATES) {
      expect(canTransition('done', to)).toBe(false);
      expect(canTransition('cancelled', to)).toBe(false);
    }
    expect(TRANSFER_STATES.filter(isFinal)).toEqual(['done', 'cancelled']);
  });

  it('every non-final state can be cancelled and every active state can be paused or fall back to waiting', () => {
    for (const s of TRANSFER_STATES) if (!isFinal(s)) expect(canTransition(s, 'cancelled'), s).toBe(true);
    for (const s of TRANSFER_STATES.filter(isActive)) {
      expect(canTransition(s, 'paused'), s).toBe(true);
      expect(canTransition(s, 'waiting'), s).toBe(true);
    }
  });

  it('every state is reachable from waiting and the table names only known states', () => {
    const seen = new Set<string>(['waiting']);
    const queue: (typeof TRANSFER_STATES)[number][] = ['waiting'];
    while (queue.length) {
      for (const next of TRANSITIONS[queue.shift()!]) {
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(next);
      }
    }
    expect([...seen].sort()).toEqual([...TRANSFER_STATES].sort());
  });
});
