/**
 * Every benchmark module, in the order `npm run bench` runs them. Add a benchmark by adding its module here
 * (and its section to docs/benchmarks.md: tests/server/docs-figures.test.ts checks that each has one).
 */
import type { BenchModule } from './lib/report';
import { browserDownloadBenchmark } from './suites/browser-download';
import { browserHashingBenchmark } from './suites/browser-hashing';
import { browserMemoryBenchmark } from './suites/browser-memory';
import { browserSmallFilesBenchmark } from './suites/browser-small-files';
import { browserUploadBenchmark } from './suites/browser-upload';
import { chunkRequestsBenchmark } from './suites/chunk-requests';
import { contentSearchBenchmark } from './suites/content-search';
import { deliveryBenchmark } from './suites/delivery';
import { documentPreviewBenchmark } from './suites/document-preview';
import { documentsBenchmark } from './suites/documents';
import { hashingBenchmark } from './suites/hashing';
import { listBenchmark } from './suites/list';
import { loadBenchmark } from './suites/load';
import { auditBenchmark } from './suites/audit';
import { memoryBenchmark } from './suites/memory';
import { noticesBenchmark } from './suites/notices';
import { orgBenchmark } from './suites/org';
import { reportsBenchmark } from './suites/reports';
import { resendBenchmark } from './suites/resend';
import { sharingBenchmark } from './suites/sharing';
import { storeBenchmark } from './suites/store';
import { syncBenchmark } from './suites/sync';
import { uploadBenchmark } from './suites/upload';
import { webdavBenchmark } from './suites/webdav';

/** upload, resend, memory and webdav share one server child process and temp directory (lib/transfer-context). */
export const BENCHMARKS: BenchModule[] = [
  hashingBenchmark,
  browserHashingBenchmark,
  uploadBenchmark,
  resendBenchmark,
  memoryBenchmark,
  webdavBenchmark,
  listBenchmark,
  auditBenchmark,
  orgBenchmark,
  reportsBenchmark,
  noticesBenchmark,
  chunkRequestsBenchmark,
  deliveryBenchmark,
  documentPreviewBenchmark,
  browserUploadBenchmark,
  browserSmallFilesBenchmark,
  browserMemoryBenchmark,
  browserDownloadBenchmark,
  syncBenchmark,
  sharingBenchmark,
  loadBenchmark,
  storeBenchmark,
  documentsBenchmark,
  contentSearchBenchmark,
];
