/**
 * The sync engine's randomized simulation (tests/sync/sim/): 500 seeds in two-way mode and 150 in
 * backup mode, each a run of user edits on both sides, engine crashes at any call, network failures,
 * files in use and scan errors (folders that cannot be listed, I/O errors, vanished mounts, paths
 * vanishing mid-scan, cloud listings with a folder's contents missing: sim/scan-faults.ts), checked
 * at every plan and remote or local delete ("no delete on either side unless the entry was observed
 * absent by a scan that succeeded for that subtree") and by the oracle at the end (converged, nothing
 * lost, no conflict resolved silently).
 * A failing seed is named in the message; `npm run sync:fuzz -- --seed N --trace` replays it.
 * `npm run sync:fuzz -- --seeds 100000` runs more.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_DELETE_GUARD } from '../../workers/sync/delete-gate';
import { optionsForSeed, simulate } from './sim/simulate';

async function runSeeds(mode: 'two-way' | 'backup', from: number, count: number): Promise<{ failures: string[]; scanFaults: number; listFaults: number }> {
  const failures: string[] = [];
  let scanFaults = 0;
  let listFaults = 0;
  for (let seed = from; seed < from + count; seed++) {
    const result = await simulate(optionsForSeed(seed, mode));
    scanFaults += result.scanFaults;
    listFaults += result.listFaults;
    if (result.failures.length > 0) {
      failures.push(`seed ${seed} (${mode}; replay: npm run sync:fuzz -- --seed ${seed} --mode ${mode} --trace): ${result.failures.slice(0, 5).join('; ')}`);
    }
  }
  return { failures, scanFaults, listFaults };
}

describe('sync simulation', () => {
  it('two-way: 500 seeds with scan errors converge without losing anything and delete nothing unseen', async () => {
    const run = await runSeeds('two-way', 1, 500);
    expect(run.failures).toEqual([]);
    // The seeds do meet scan errors (a few per run), not only in theory.
    expect(run.scanFaults).toBeGreaterThan(1000);
    expect(run.listFaults).toBeGreaterThan(500);
  }, 120_000);

  it('backup: 150 seeds back everything up and never touch the local disk', async () => {
    expect((await runSeeds('backup', 1, 150)).failures).toEqual([]);
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
