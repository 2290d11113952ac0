/**
 * `npm run sync:fuzz -- --seeds N [--from S] [--mode two-way|backup|both] [--steps N] [--seed S --trace]`
 * Runs the deterministic simulation (tests/sync/sim/) for many seeds and prints each failing seed with
 * what the oracle found; `--seed S --trace` replays one seed and prints its trace.
 */
import { parseArgs } from 'node:util';
import { optionsForSeed, simulate, type SimResult } from './sim/simulate';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1000' },
    from: { type: 'string', default: '1' },
    seed: { type: 'string' },
    mode: { type: 'string', default: 'both' },
    steps: { type: 'string', default: '40' },
    trace: { type: 'boolean', default: false },
  },
});

const modes = values.mode === 'both' ? (['two-way', 'backup'] as const) : ([values.mode as 'two-way' | 'backup'] as const);
const steps = Number(values.steps);

function report(r: SimResult): void {
  console.log(`seed ${r.seed} (${r.options.mode}${r.options.caseInsensitive ? ', case-insensitive' : ''}): FAILED`);
  for (const f of r.failures.slice(0, 20)) console.log(`  ${f}`);
}

async function main(): Promise<number> {
  if (values.seed) {
    let failed = 0;
    for (const mode of modes) {
      const r = await simulate(optionsForSeed(Number(values.seed), mode, steps));
      if (values.trace) for (const line of r.trace) console.log(line);
      if (r.failures.length > 0) {
        report(r);
        failed++;
      } else console.log(`seed ${r.seed} (${mode}): ok, ${r.passes} passes, ${r.crashes} crashes, ${r.conflicts} conflicts`);
    }
    return failed > 0 ? 1 : 0;
  }
  const count = Number(values.seeds);
  const from = Number(values.from);
  const started = Date.now();
  const totals = { runs: 0, failed: 0, crashes: 0, conflicts: 0, passes: 0, networkFailures: 0, moved: 0, safetyStops: 0 };
  for (let seed = from; seed < from + count; seed++) {
    for (const mode of modes) {
      const r = await simulate(optionsForSeed(seed, mode, steps));
      totals.runs++;
      totals.crashes += r.crashes;
      totals.conflicts += r.conflicts;
      totals.passes += r.passes;
      totals.networkFailures += r.networkFailures;
      totals.moved += r.moved;
      totals.safetyStops += r.safetyStops;
      if (r.failures.length > 0) {
        totals.failed++;
        report(r);
      }
    }
    if ((seed - from + 1) % 500 === 0) console.log(`… ${seed - from + 1} seeds, ${totals.failed} failed runs, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  console.log(
    `sync fuzz: ${totals.runs} runs (seeds ${from}..${from + count - 1}, ${modes.join(' + ')}), ${totals.failed} failed; ` +
      `${totals.passes} passes, ${totals.crashes} crashes, ${totals.networkFailures} network failures, ${totals.conflicts} conflicts, ${totals.moved} moves, ${totals.safetyStops} empty-side stops, ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return totals.failed > 0 ? 1 : 0;
}

main().then((code) => process.exit(code));
