/**
 * `npm run bench` runs every benchmark module and prints a table per module;
 * `npm run bench -- --json` also prints all metrics as ONE JSON object on the last line (for CI).
 * `npm run bench -- hashing` runs only the named modules. Add a benchmark by adding a module to BENCHMARKS.
 */
import os from 'node:os';
import { formatTable, type BenchModule } from './lib/report';
import { closeTransferContext } from './lib/transfer-context';
import { browserDownloadBenchmark } from './suites/browser-download';
import { browserHashingBenchmark } from './suites/browser-hashing';
import { browserMemoryBenchmark } from './suites/browser-memory';
import { browserSmallFilesBenchmark } from './suites/browser-small-files';
import { browserUploadBenchmark } from './suites/browser-upload';
import { chunkRequestsBenchmark } from './suites/chunk-requests';
import { deliveryBenchmark } from './suites/delivery';
import { hashingBenchmark } from './suites/hashing';
import { listBenchmark } from './suites/list';
import { auditBenchmark } from './suites/audit';
import { memoryBenchmark } from './suites/memory';
import { noticesBenchmark } from './suites/notices';
import { orgBenchmark } from './suites/org';
import { resendBenchmark } from './suites/resend';
import { sharingBenchmark } from './suites/sharing';
import { syncBenchmark } from './suites/sync';
import { uploadBenchmark } from './suites/upload';

/** upload, resend and memory share one server child process and temp directory (lib/transfer-context). */
const BENCHMARKS: BenchModule[] = [
  hashingBenchmark,
  browserHashingBenchmark,
  uploadBenchmark,
  resendBenchmark,
  memoryBenchmark,
  listBenchmark,
  auditBenchmark,
  orgBenchmark,
  noticesBenchmark,
  chunkRequestsBenchmark,
  deliveryBenchmark,
  browserUploadBenchmark,
  browserSmallFilesBenchmark,
  browserMemoryBenchmark,
  browserDownloadBenchmark,
  syncBenchmark,
  sharingBenchmark,
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
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
      const result = await bench.run();
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(formatTable(`\n[${bench.name}] (${seconds} s)`, bench.columns, result.rows));
      Object.assign(metrics, result.metrics);
    }
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
