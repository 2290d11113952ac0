/**
 * `npm run sync -- --server URL --dir DIR --remote PATH (--cookie 'sid=…' | --user U --password P --data-dir D)
 *                  [--mode backup|two-way] [--delete-remote] [--ignore PATTERN]... [--state DIR]
 *                  [--up-limit BYTES/S] [--down-limit BYTES/S] [--interval SECONDS] [--once]`
 *
 * Syncs a local folder with a folder in 同步文件 (created when missing), headless. With `--once` it
 * runs one pass (and a second one for files that were still being written), prints one JSON line
 * `{"uploaded":N,"downloaded":N,"moved":N,"deleted":N,"conflicts":N,"failed":N,"intercepted":N}` and
 * exits 0 when nothing failed, 1 otherwise. Without it, it keeps watching and prints that line after
 * every pass that did something, until SIGINT/SIGTERM: then the transfer in flight finishes and it
 * exits 0 (a second signal stops at once). Usage errors exit 2.
 *
 * Login: a session cookie, or a user and password with the captcha answered from the server's test
 * outbox (a server started with DRIVE_TEST_HOOKS=1; --data-dir is that server's DATA_DIR).
 * The journal lives in --state (default: ~/.cloud-drive-sync/<hash of server, folder and path>).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { SyncMode, SyncPassSummary } from '../../common/sync/types';
import { EMPTY_SUMMARY } from '../../common/sync/types';
import { createCookieFetch } from '../node/cookie-fetch';
import { captchaOutboxOf, loginWithOutbox } from '../node/login';
import { startNodeSync } from './node-runtime';

const USAGE =
  "usage: npm run sync -- --server URL --dir DIR --remote PATH (--cookie 'sid=…' | --user U --password P --data-dir D) " +
  '[--mode backup|two-way] [--delete-remote] [--ignore PATTERN]... [--state DIR] [--up-limit B/s] [--down-limit B/s] [--interval SECONDS] [--once]';

const DEFAULT_INTERVAL_S = 600;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        server: { type: 'string' },
        dir: { type: 'string' },
        remote: { type: 'string' },
        cookie: { type: 'string' },
        user: { type: 'string' },
        password: { type: 'string' },
        'data-dir': { type: 'string' },
        'captcha-outbox': { type: 'string' },
        mode: { type: 'string', default: 'two-way' },
        'delete-remote': { type: 'boolean', default: false },
        ignore: { type: 'string', multiple: true, default: [] },
        state: { type: 'string' },
        'up-limit': { type: 'string', default: '0' },
        'down-limit': { type: 'string', default: '0' },
        interval: { type: 'string' },
        'network-env': { type: 'string', default: 'internal' },
        once: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.server || !values.dir || !values.remote) fail('--server, --dir and --remote are required');
  if (values.mode !== 'backup' && values.mode !== 'two-way') fail(`--mode must be backup or two-way, not ${values.mode}`);
  const networkEnv = values['network-env'] === 'public' ? 'public' : 'internal';
  const dir = path.resolve(values.dir);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) fail(`--dir ${dir} is not a folder`);
  const remotePath = values.remote.startsWith('/') ? values.remote : `/${values.remote}`;
  const limits = [Number(values['up-limit']), Number(values['down-limit'])];
  if (limits.some((n) => !Number.isFinite(n) || n < 0)) fail('--up-limit and --down-limit are bytes per second (0 = none)');

  const jar = createCookieFetch(values.cookie ?? '');
  const login = async () => {
    const outbox = values['captcha-outbox'] ?? (values['data-dir'] ? captchaOutboxOf(values['data-dir']) : undefined);
    if (!values.user || !values.password || !outbox) fail("give --cookie 'sid=…', or --user, --password and --data-dir");
    await loginWithOutbox(jar, { serverUrl: values.server!, username: values.user, password: values.password, captchaOutbox: outbox });
  };
  if (!values.cookie) await login();

  const stateDir =
    values.state ?? path.join(os.homedir(), '.cloud-drive-sync', createHash('sha256').update(`${values.server}\n${dir}\n${remotePath}`).digest('hex').slice(0, 16));
  const pair = { id: 'cli', localDir: dir, remotePath, mode: values.mode as SyncMode, deleteRemote: values['delete-remote'], ignore: values.ignore, paused: false };
  const intervalS = values.interval ? Number(values.interval) : DEFAULT_INTERVAL_S;
  const sync = startNodeSync({
    serverUrl: values.server,
    networkEnv,
    jar,
    stateDir,
    pairs: [pair],
    settings: { uploadLimit: limits[0]!, downloadLimit: limits[1]!, intervalMs: intervalS * 1000, startAtLogin: false },
    watch: !values.once,
    onPass: (_pair, summary) => {
      if (!values.once && Object.values(summary).some((n) => n > 0)) console.log(JSON.stringify(summary));
    },
  });
  const reportProblems = () => {
    const [status] = sync.engine.status().pairs;
    if (!status) return;
    if (status.message) console.error(`sync: ${status.message}`);
    for (const item of status.lists.failList) console.error(`failed: ${item.path}: ${item.reason}`);
  };

  if (values.once) {
    const total: SyncPassSummary = { ...EMPTY_SUMMARY };
    let summary = await sync.engine.runOnce();
    const add = (s: SyncPassSummary) => {
      for (const key of ['uploaded', 'downloaded', 'moved', 'deleted', 'conflicts'] as const) total[key] += s[key];
    };
    add(summary);
    // Files still being written get a second look (a pass cannot take a file that is changing).
    for (let i = 0; i < 3 && sync.engine.status().pairs[0]!.lists.syncList.some((item) => item.state === 'unstable'); i++) {
      await new Promise((r) => setTimeout(r, 1_000));
      summary = await sync.engine.runOnce();
      add(summary);
    }
    total.failed = summary.failed + sync.engine.status().pairs[0]!.lists.syncList.filter((item) => item.state === 'unstable').length;
    total.intercepted = summary.intercepted;
    reportProblems();
    console.log(JSON.stringify(total));
    await sync.close();
    return total.failed === 0 ? 0 : 1;
  }

  let signals = 0;
  const stopped = new Promise<void>((resolve) => {
    const onSignal = () => {
      signals++;
      if (signals === 1) {
        console.error('sync: finishing the transfer in flight… (again to stop at once)');
        void sync.close().then(resolve);
      } else {
        sync.engine.abort();
        resolve();
      }
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  sync.engine.start();
  console.error(`sync: watching ${dir} ↔ 同步文件${remotePath} (${values.mode}); Ctrl-C to stop`);
  await stopped;
  reportProblems();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`sync failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
