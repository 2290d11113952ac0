/**
 * The sync engine's randomized simulation (tests/sync/sim/): 500 seeds in two-way mode and 150 in
 * backup mode, each a run of user edits on both sides, engine crashes at any call, network failures
 * and files in use, checked by the oracle (converged, nothing lost, no conflict resolved silently).
 * A failing seed is named in the message; `npm run sync:fuzz -- --seed N --trace` replays it.
 * `npm run sync:fuzz -- --seeds 100000` runs more.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_DELETE_GUARD } from '../../workers/sync/delete-gate';
import { optionsForSeed, simulate } from './sim/simulate';

async function runSeeds(mode: 'two-way' | 'backup', from: number, count: number): Promise<string[]> {
  const failures: string[] = [];
  for (let seed = from; seed < from + count; seed++) {
    const result = await simulate(optionsForSeed(seed, mode));
    if (result.failures.length > 0) {
      failures.push(`seed ${seed} (${mode}; replay: npm run sync:fuzz -- --seed ${seed} --mode ${mode} --trace): ${result.failures.slice(0, 5).join('; ')}`);
    }
  }
  return failures;
}

describe('sync simulation', () => {
  it('two-way: 500 seeds converge without losing anything', async () => {
    expect(await runSeeds('two-way', 1, 500)).toEqual([]);
  }, 120_000);

  it('backup: 150 seeds back everything up and never touch the local disk', async () => {
    expect(await runSeeds('backup', 1, 150)).toEqual([]);
  }, 60_000);

  it('two-way with the default delete threshold: 150 seeds whose user confirms what waits converge without losing anything', async () => {
    let held = 0;
    const failures: string[] = [];
    for (let seed = 1; seed <= 150; seed++) {
      const result = await simulate({ ...optionsForSeed(seed, 'two-way'), deleteGuard: DEFAULT_DELETE_GUARD, confirmDeletes: true });
      held += result.heldPasses;
      if (result.failures.length > 0) failures.push(`seed ${seed}: ${result.failures.slice(0, 5).join('; ')}`);
    }
    expect(failures).toEqual([]);
    expect(held).toBeGreaterThan(0); // the threshold was met, and confirming let the deletes through
  }, 60_000);

  it('a seed replays exactly', async () => {
    const a = await simulate(optionsForSeed(4242, 'two-way'));
    const b = await simulate(optionsForSeed(4242, 'two-way'));
    expect(b.trace).toEqual(a.trace);
    expect(a.crashes + a.networkFailures).toBeGreaterThan(0);
  });
});
