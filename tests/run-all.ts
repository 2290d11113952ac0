/**
 * `npm test`: typecheck, lint, unit + server integration tests, the server tests again on PostgreSQL
 * (a throwaway cluster; docs/postgresql.md), the server suites that touch bytes again on a real S3
 * server (a throwaway Ceph radosgw; docs/object-store.md), the engine against the real server, then
 * end-to-end tests in headless Chromium against the server `npm start` runs. Stops at the first failing
 * stage and ends with one line `summary: N passed, N failed`. Without Chromium, PostgreSQL's server
 * binaries or radosgw, it fails at once, saying how to get them: never skips (DRIVE_TEST_PG=0 and
 * DRIVE_TEST_S3=0 leave the PostgreSQL and object-store stages out on purpose, for a local run).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CHROMIUM_MISSING_MESSAGE, findChromium } from './support/chromium';
import { DAV_CLIENTS_MISSING_MESSAGE, missingDavClients } from './support/dav-client-binaries';
import { postgresBinDir } from './support/postgres';
import { missingRadosgwBinaries, RADOSGW_MISSING_MESSAGE } from './support/radosgw';

interface VitestJson {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

const bin = (name: string): string => path.resolve('node_modules', '.bin', name);
let passed = 0;
let failed = 0;

function finish(ok: boolean): never {
  console.log(`\nsummary: ${passed} passed, ${failed} failed`);
  process.exit(ok && failed === 0 ? 0 : 1);
}

function stage(title: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): boolean {
  const shown = Object.entries(env).map(([k, v]) => `${k}=${v} `).join('');
  console.log(`\n=== ${title}: ${shown}${[path.basename(cmd), ...args].join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = r.status === 0;
  console.log(`=== ${title}: ${ok ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return ok;
}

function vitestStage(title: string, projects: string[], env: NodeJS.ProcessEnv = {}): boolean {
  const dir = mkdtempSync(path.join(tmpdir(), 'drive-vitest-'));
  const out = path.join(dir, 'result.json');
  const args = ['run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile.json=${out}`];
  const ok = stage(title, bin('vitest'), args, env);
  try {
    const r = JSON.parse(readFileSync(out, 'utf8')) as VitestJson;
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    if (r.numPassedTests + r.numFailedTests === 0) {
      console.error(`${title}: no test ran`);
      return false;
    }
  } catch {
    failed += 1; // the runner itself broke before reporting
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return ok;
}

const chromium = findChromium();
if (!chromium) {
  console.error(CHROMIUM_MISSING_MESSAGE);
  failed += 1;
  finish(false);
}
console.log(`chromium: ${chromium}`);

const davMissing = missingDavClients();
if (davMissing.length > 0) {
  console.error(`Missing ${davMissing.join(', ')}: ${DAV_CLIENTS_MISSING_MESSAGE}`);
  failed += 1;
  finish(false);
}

/** The PostgreSQL stage starts its own cluster (tests/support/postgres.ts) unless given one in DRIVE_TEST_PG_URL. */
const withPostgres = process.env.DRIVE_TEST_PG !== '0';
if (withPostgres && !process.env.DRIVE_TEST_PG_URL && !postgresBinDir()) {
  console.error(
    "The server tests run a second time on PostgreSQL, from Debian's server binaries, which are missing: sudo apt-get install -y postgresql (.ci/run does). To leave that stage out of a local run: DRIVE_TEST_PG=0 npm test",
  );
  failed += 1;
  finish(false);
}

/** The object-store stage starts its own radosgw (tests/support/radosgw.ts) unless given one in DRIVE_TEST_S3_ENDPOINT. */
const withS3 = process.env.DRIVE_TEST_S3 !== '0';
if (withS3 && !process.env.DRIVE_TEST_S3_ENDPOINT && missingRadosgwBinaries().length > 0) {
  console.error(`The server suites that touch bytes run a second time on a real S3 server, Ceph's radosgw, and ${RADOSGW_MISSING_MESSAGE}. To leave that stage out of a local run: DRIVE_TEST_S3=0 npm test`);
  failed += 1;
  finish(false);
}

/** Typecheck and lint count as one check each in the summary. */
function checkStage(title: string, cmd: string, args: string[]): boolean {
  const ok = stage(title, cmd, args);
  if (ok) passed += 1;
  else failed += 1;
  return ok;
}

if (!checkStage('typecheck', bin('tsc'), ['-b'])) finish(false);
if (!checkStage('lint', bin('eslint'), ['.', '--max-warnings=0'])) finish(false);
if (!vitestStage('unit + server integration', ['unit', 'server'])) finish(false);
// The server suite a second time, on PostgreSQL (DB_URL): the engine a multi-process installation runs.
// Its suites: all but those vitest.config.ts names (nothing an engine changes, or SQLite itself).
// DRIVE_TEST_PG=0 leaves it out (a local run without PostgreSQL's binaries); CI never sets it.
if (!withPostgres) console.log('\n=== server integration on PostgreSQL: left out (DRIVE_TEST_PG=0)');
else if (!vitestStage('server integration on PostgreSQL', ['server'], { DRIVE_TEST_DB: 'pg' })) finish(false);
// The server suites whose bytes go through the store, a second time on a real S3 server (BLOB_STORE in a
// bucket of one throwaway radosgw): those vitest.config.ts lists in ON_BOTH_STORES, with their reasons.
// DRIVE_TEST_S3=0 leaves it out (a local run without Ceph's packages); CI never sets it.
if (!withS3) console.log('\n=== server byte suites on radosgw (S3): left out (DRIVE_TEST_S3=0)');
else if (!vitestStage('server byte suites on radosgw (S3)', ['server'], { DRIVE_TEST_STORE: 's3' })) finish(false);
if (!vitestStage('engine against the real server (faults, crashes)', ['integration'])) finish(false);
finish(vitestStage('end-to-end (chromium)', ['e2e']));
