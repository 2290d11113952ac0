import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/** DRIVE_TEST_DB=pg: the server suite on PostgreSQL (tests/support/test-database.ts reads the same variable). */
const onPostgres = /^(pg|postgres(ql)?)$/i.test(process.env.DRIVE_TEST_DB ?? '');

/**
 * The server suites the PostgreSQL stage of `npm test` leaves out (docs/postgresql.md, "Tests on both
 * engines"): they exercise nothing an engine changes, or SQLite itself. Every other server suite runs
 * on both engines, a new one too unless it is added here with its reason.
 */
const NOT_ON_POSTGRES: ReadonlyArray<readonly [suite: string, reason: string]> = [
  // SQLite itself: its planner, its statement cache, migrations replayed on old SQLite schemas.
  ['query-plans', "SQLite's EXPLAIN QUERY PLAN; postgres-plans.test.ts holds PostgreSQL's rule for the same queries"],
  ['sharing-plans', "SQLite's EXPLAIN QUERY PLAN"],
  ['action-log-plans', "SQLite's EXPLAIN QUERY PLAN with SQLite's statistics"],
  ['statement-cache', "better-sqlite3's prepared-statement cache"],
  ['org-migration', 'migration 0020 replayed on a SQLite database written before it'],
  ['share-terms-migration', 'migration 0082 replayed on a SQLite database written before it'],
  // HTTP, files on disk, declarations: the same bytes whatever keeps the rows.
  ['readable-refusals', "how Node's HTTP server refuses bodies (100 Continue, lingering): no query involved"],
  ['body-encoding', 'JSON versus form bodies, refused before any handler runs'],
  ['errors', "the error handler's shapes"],
  ['lazy-validators', 'route schemas compiled by Ajv'],
  ['endpoint-declarations', 'the endpoint declarations, read without a server'],
  ['spec-coverage', "the §7 coverage table, compared with the route registry"],
  ['docs-figures', 'what the docs quote, compared with the code'],
  ['static-delivery', "the built web app's files and headers"],
  ['desktop-release', 'release files served from a directory'],
  ['captcha-image', "the captcha image's pixels"],
  ['content-signatures', 'file types told from their first bytes'],
  ['thumbnail-store', 'thumbnails cached on disk'],
  ['coalescing-writer', 'chunk bytes gathered and hashed on their way to disk'],
];

/** DRIVE_TEST_STORE=s3: the server suites that touch bytes, on a real radosgw (tests/support/test-store.ts reads the same variable). */
const onS3 = /^s3$/i.test(process.env.DRIVE_TEST_STORE ?? '');

/**
 * The server suites the object-store stage of `npm test` runs (DRIVE_TEST_STORE=s3: every test server's
 * bytes in a bucket of one throwaway Ceph radosgw; docs/object-store.md, "Tests on both stores"): those
 * whose bytes go through the store. Every other server suite runs on the disk store only; a new suite
 * that reads or writes file bytes is added here with its reason.
 */
const ON_BOTH_STORES: ReadonlyArray<readonly [suite: string, reason: string]> = [
  ['upload', 'chunked upload and merge, chunk/exist, zero-length chunks, the upload sweeper, readHead'],
  ['range-upload', 'many chunks in one request, a cut body (kept as a partial on disk only)'],
  ['streaming-session', 'chunks before the digests are known, the server-made fingerprint'],
  ['unhashed-streaming', 'chunk digests computed as the body streams into the store'],
  ['batch-upload', 'small-file batches (parallel PUTs), and the intents a crash leaves'],
  ['transfer', 'dedup, second upload and versions; downloads with Range across chunk boundaries'],
  ['fingerprint-upgrade', 'the block-list fingerprint recomputed from stored chunks'],
  ['chunk-size-change', 'dedup and proofs of possession across chunk sizes, read from the store'],
  ['byte-access', 'previews and downloads through shares and links, with Range and download limits'],
  ['archive', 'streamed ZIPs, previews with Range and thumbnails, read from stored blobs'],
  ['documents', 'Office renditions and first-page thumbnails written beside the blob, previews of them with Range, removed with the last reference'],
  ['link-tickets', 'link downloads through tickets: Range, resumes, parallel segments, ZIPs'],
  ['zip-read-ahead', 'ZIPs of many stored members read ahead: byte-exact and in order, no read after the client went'],
  ['recycle', 'purge removing the bytes of the last reference, keeping shared ones'],
  ['crash', 'SIGKILL inside chunk writes and merges: recovery of the store, nothing left over'],
  ['restart-recovery', "startup recovery's report, real damage in the store"],
  ['dav-put', 'WebDAV PUT through the chunk-upload receive path: several chunks, chunked bodies, a cut body leaving nothing'],
  ['dav-propfind', 'WebDAV GET/HEAD with Range and the content ETag, read from stored blobs'],
  ['object-store-faults', 'its own radosgw killed and stuck: coded errors, recovery and the sweeper on a bucket (S3 only)'],
];

/**
 * Three projects, all run by `npm test`:
 *  - unit: pure logic, the API client, the Dexie queue on fake-indexeddb (Node environment);
 *  - server: integration over real HTTP against a started server with a temp SQLite database;
 *  - integration: the transfer engine (run under Node) against the real server, through a
 *    fault-injecting proxy, across server crashes;
 *  - e2e: playwright-core driving Debian chromium against the server `npm start` runs.
 */
export default defineConfig({
  test: {
    // Two test files at once at least, in the projects that allow it (unit, server; integration and e2e
    // say fileParallelism: false). Vitest's default, the cores less one, is one worker on CI's 2 cores:
    // every file after the other. A server file mostly waits (HTTP round trips, child servers starting,
    // timers, PostgreSQL, radosgw); on this idle 2-core machine two workers took unit + server 962 → 634 s
    // and the PostgreSQL stage ~1,330 → 717–734 s, green (docs/testing.md, "Workers"). Each file has its
    // own data directories, ports, PostgreSQL database and bucket. `--maxWorkers=1` on the command line wins.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/unit/**/*.test.ts', 'tests/sync/**/*.test.ts', 'common/**/*.test.ts', 'workers/**/*.test.ts', 'src/**/*.test.{ts,tsx}'],
          // As the server project: a worker imports antd, React, Dexie and the engine once, not once per file.
          // Each file opens IndexedDB databases of its own names (fake-indexeddb is one per worker), and a file
          // that stubs a global or sets a library's process-wide setting restores it (docs/testing.md,
          // "One module graph per worker").
          isolate: false,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: onS3 ? ON_BOTH_STORES.map(([suite]) => `tests/server/${suite}.test.ts`) : ['tests/server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...(onPostgres ? NOT_ON_POSTGRES.map(([suite]) => `tests/server/${suite}.test.ts`) : [])],
          // DRIVE_TEST_DB=pg: one throwaway PostgreSQL for the run (docs/postgresql.md);
          // DRIVE_TEST_STORE=s3: one throwaway Ceph radosgw (docs/object-store.md).
          globalSetup: ['tests/support/postgres-global-setup.ts', 'tests/support/radosgw-global-setup.ts'],
          // One module graph per worker, not one per file: every server file imports the whole server
          // (Fastify, Kysely, the routes, Ajv's schemas), ~2.6 s a file, 244–295 s of the stages' worker
          // time. Each file still starts its own server with its own data directory, database and port;
          // the server keeps no state per module that a second app in the same process would see
          // (caches of constants, the hashing threads' pool). A test that patches a module or a global
          // restores it (docs/testing.md, "One module graph per worker").
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/support/radosgw-global-setup.ts'],
          // As the server project: one module graph for the run (the engine, the server bundle's build,
          // the test kits), not one per file (docs/testing.md, "One module graph per worker").
          isolate: false,
          testTimeout: 180_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          setupFiles: ['tests/e2e/failure-report.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // expect.poll's own limit is 1 s: too short for a page waiting on the server on two busy cores.
          // gesture-lock read the wrong-pattern count before the server's answer came (each pattern is
          // judged with scrypt, N = 2^15) in a full e2e stage beside the server suites; 113 of 151 polls
          // here named no limit. A poll still fails when its condition never holds.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
