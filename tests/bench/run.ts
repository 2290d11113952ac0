/**
 * `npm run bench` runs every benchmark module and prints a table per module;
 * `npm run bench -- --json` also prints all metrics as ONE JSON object on the last line (for CI).
 * `npm run bench -- hashing` runs only the named modules. Add a benchmark by adding a module to BENCHMARKS
 * (all-suites.ts). `--record` keeps each suite's metrics in tests/bench/results.json (with when, the commit
 * and the machine's load) and rewrites the latest figures in docs/benchmarks.md from that file.
 */
import os from 'node:os';
import { formatTable } from './lib/report';
import { closeTransferContext } from './lib/transfer-context';
import { BENCHMARKS } from './all-suites';
import { recordSuite, writeLatestFigures } from './lib/results';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const record = args.includes('--record');
  const only = args.filter((a) => !a.startsWith('--'));
  const selected = only.length ? BENCHMARKS.filter((b) => only.includes(b.name)) : BENCHMARKS;
  if (selected.length === 0) throw new Error(`no benchmark named ${only.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`);

  const metrics: Record<string, number | string> = {
    node: process.version,
    cpus: os.cpus().length,
  };
  try {
    for (const bench of selected) {
      const started = performance.now();
      const loadAtStart = os.loadavg()[0]!;
      const result = await bench.run();
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(formatTable(`\n[${bench.name}] (${seconds} s)`, bench.columns, result.rows));
      Object.assign(metrics, result.metrics);
      if (record) recordSuite(bench.name, result.metrics, loadAtStart);
    }
    if (record) console.log(`recorded in ${writeLatestFigures()}`);
  } finally {
    // Stops the bench server and deletes its temp directory (generated files included), even on failure.
    await closeTransferContext();
  }
  if (json) console.log(JSON.stringify(metrics));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
