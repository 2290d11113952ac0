/**
 * The sync bench's engine process (a fresh process, so its peak memory is the engine's): logs in with
 * the given cookie, runs the first pass over the folder (fresh journal) and then a pass with nothing
 * changed, and prints one JSON line with the timings, what each pass did, the chunk bytes and requests
 * it sent, and the process's peak RSS.
 * `node --import tsx tests/bench/lib/sync-child.ts <serverUrl> <cookie> <dir> <remotePath> <stateDir> [watch]`
 */
import { createCookieFetch } from '../../../workers/node/cookie-fetch';
import { startNodeSync } from '../../../workers/sync/node-runtime';

const [serverUrl, cookie, dir, remotePath, stateDir, watchArg] = process.argv.slice(2);
if (!serverUrl || !cookie || !dir || !remotePath || !stateDir) throw new Error('usage: sync-child.ts <server> <cookie> <dir> <remote> <state> [watch]');

const jar = createCookieFetch(cookie);
const sync = startNodeSync({
  serverUrl,
  jar,
  stateDir,
  pairs: [{ id: 'bench', localDir: dir, remotePath, mode: 'two-way', deleteRemote: false, ignore: [], paused: false }],
  settings: { uploadLimit: 0, downloadLimit: 0, intervalMs: 3600_000, startAtLogin: false },
  watch: watchArg === 'watch',
});

if (process.env.SYNC_TRACE_MEM === '1') process.stderr.write(`[mem] process started       rss ${(process.memoryUsage().rss / 1048576).toFixed(1)}\n`);

const timed = async () => {
  jar.resetCounters();
  const started = performance.now();
  const summary = await sync.engine.runOnce();
  return { ms: performance.now() - started, summary, chunkBytes: jar.counters.chunkBytes, requests: jar.counters.requests };
};

const first = await timed();
if (watchArg === 'watch') sync.engine.start();
// SYNC_PROFILE_IDLE=<file>: a V8 CPU profile of the idle pass alone (sync-profile.ts prints its top functions).
const idle = process.env.SYNC_PROFILE_IDLE ? await profiled(process.env.SYNC_PROFILE_IDLE, timed) : await timed();
const [status] = sync.engine.status().pairs;
console.log(
  JSON.stringify({
    first,
    idle,
    files: status?.lists.allFilepathsLength ?? 0,
    failList: status?.lists.failList.slice(0, 5) ?? [],
    peakRssMB: process.resourceUsage().maxRSS / 1024,
  }),
);
await sync.close();
process.exit(0);

async function profiled<T>(file: string, work: () => Promise<T>): Promise<T> {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  }
}
