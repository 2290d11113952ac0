import { describe, expect, it } from 'vitest';
import { reachableFrom } from '../../../common/reachable';

describe('reachableFrom', () => {
  it('collects the root and everything below it, each once, and ends on cycles', () => {
    const edges: Record<string, string[]> = { a: ['b', 'c'], b: ['d'], c: ['d', 'a'], d: [], e: ['a'] };
    expect([...reachableFrom('a', (n) => edges[n] ?? [])].sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('walks a deep chain without recursion', () => {
    const depth = 200_000;
    expect(reachableFrom(0, (n) => (n < depth ? [n + 1] : [])).size).toBe(depth + 1);
  });
});
