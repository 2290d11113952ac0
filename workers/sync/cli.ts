/**
 * `npm run sync -- --server URL --dir DIR --remote PATH (--cookie 'sid=…' | --user U --password P --data-dir D)
 *                  [--mode backup|two-way] [--delete-remote] [--ignore PATTERN]... [--state DIR]
 *                  [--up-limit BYTES/S] [--down-limit BYTES/S] [--interval SECONDS] [--once]
 *                  [--max-delete PERCENT] [--max-delete-count N] [--confirm-deletes] [--restore-deletion ID|last]`
 *
 * Syncs a local folder with a folder in 同步文件 (created when missing), headless. With `--once` it
 * runs one pass (and a second one for files that were still being written), prints one JSON line
 * `{"uploaded":N,"downloaded":N,"moved":N,"deleted":N,"conflicts":N,"failed":N,"intercepted":N}` and
 * exits with a code of exit-codes.ts: 0 nothing failed, 1 something failed, 3 deletes wait for
 * `--confirm-deletes`, 4 another engine syncs the folder, 5 the server could not be reached. Without
 * it, it keeps watching and prints that line after every pass that did something, until
 * SIGINT/SIGTERM: then the transfer in flight finishes and it exits 0 (a second signal stops at once).
 * Usage errors exit 2.
 *
 * Deletes: a pass that would delete more than --max-delete percent (default 50) of the synced files or
 * more than --max-delete-count files (default 100), or meets a side with no file left, deletes
 * nothing and lists what waits; `--confirm-deletes` on the next run lets exactly those go. Every pass
 * that deleted something prints its deletion event's id; `--restore-deletion ID` (or `last`) brings
 * that event's files back (cloud: from the recycle bin; local: from the sync's own trash) before the pass.
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
import { isNetworkFailure, unreachableMessage } from '../node/network-failure';
import { DEFAULT_DELETE_GUARD } from './delete-gate';
import { EXIT } from './exit-codes';
import { startNodeSync } from './node-runtime';
import { lockPair, PairLocked, type PairLock } from './pair-lock';

const USAGE =
  "usage: npm run sync -- --server URL --dir DIR --remote PATH (--cookie 'sid=…' | --user U --password P --data-dir D) " +
  '[--mode backup|two-way] [--delete-remote] [--ignore PATTERN]... [--state DIR] [--up-limit B/s] [--down-limit B/s] [--interval SECONDS] [--once] ' +
  '[--max-delete PERCENT] [--max-delete-count N] [--confirm-deletes] [--restore-deletion ID|last]';

const DEFAULT_INTERVAL_S = 600;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(EXIT.usage);
}

/** Ends the run with a message of its own (no usage text). */
class Exit extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/** The folder's lock, for the whole run. */
let heldLock: PairLock | null = null;

/** Held deletes shown on stderr: this many paths, then a count. */
const HELD_LINES = 20;

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
        'max-delete': { type: 'string', default: String(DEFAULT_DELETE_GUARD.maxShare * 100) },
        'max-delete-count': { type: 'string', default: String(DEFAULT_DELETE_GUARD.maxCount) },
        'confirm-deletes': { type: 'boolean', default: false },
        'restore-deletion': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    console.log(USAGE);
    return EXIT.ok;
  }
  if (!values.server || !values.dir || !values.remote) fail('--server, --dir and --remote are required');
  if (values.mode !== 'backup' && values.mode !== 'two-way') fail(`--mode must be backup or two-way, not ${values.mode}`);
  const networkEnv = values['network-env'] === 'public' ? 'public' : 'internal';
  const dir = path.resolve(values.dir);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) fail(`--dir ${dir} is not a folder`);
  const remotePath = values.remote.startsWith('/') ? values.remote : `/${values.remote}`;
  const limits = [Number(values['up-limit']), Number(values['down-limit'])];
  if (limits.some((n) => !Number.isFinite(n) || n < 0)) fail('--up-limit and --down-limit are bytes per second (0 = none)');
  const maxShare = Number(values['max-delete']) / 100;
  const maxCount = Number(values['max-delete-count']);
  if (!Number.isFinite(maxShare) || maxShare < 0 || maxShare > 1) fail('--max-delete is a percentage of the synced files, 0 to 100');
  if (!Number.isInteger(maxCount) || maxCount < 0) fail('--max-delete-count is a number of files');

  const jar = createCookieFetch(values.cookie ?? '');
  const login = async () => {
    const outbox = values['captcha-outbox'] ?? (values['data-dir'] ? captchaOutboxOf(values['data-dir']) : undefined);
    if (!values.user || !values.password || !outbox) fail("give --cookie 'sid=…', or --user, --password and --data-dir");
    try {
      await loginWithOutbox(jar, { serverUrl: values.server!, username: values.user, password: values.password, captchaOutbox: outbox });
    } catch (error) {
      if (isNetworkFailure(error)) throw new Exit(unreachableMessage(values.server!, error), EXIT.unreachable);
      throw error;
    }
  };

  const stateDir =
    values.state ?? path.join(os.homedir(), '.cloud-drive-sync', createHash('sha256').update(`${values.server}\n${dir}\n${remotePath}`).digest('hex').slice(0, 16));
  // One engine per folder: before anything else (a second engine logs nothing in, sends nothing).
  fs.mkdirSync(stateDir, { recursive: true });
  try {
    heldLock = lockPair(dir, stateDir); // held until the process ends (kept referenced: a collected handle would let it go)
  } catch (error) {
    if (error instanceof PairLocked) throw new Exit(error.message, EXIT.locked);
    throw error;
  }
  if (!values.cookie) await login();
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
    deleteGuard: { ...DEFAULT_DELETE_GUARD, maxShare, maxCount },
    lockPairs: false,
    onPass: (_pair, summary) => {
      if (!values.once && Object.values(summary).some((n) => n > 0)) console.log(JSON.stringify(summary));
      if (!values.once) reportDeletion();
    },
  });
  const reportProblems = () => {
    const [status] = sync.engine.status().pairs;
    if (!status) return;
    if (status.message) console.error(`sync: ${status.message}${status.code === 'unreachable' && values.once ? '（本次同步未完成）' : ''}`);
    const held = status.heldDeletes;
    if (held) {
      for (const item of held.items.slice(0, HELD_LINES)) {
        console.error(`waiting: delete ${item.side === 'remote' ? 'in the cloud' : 'locally'}: ${item.path}${item.isDir ? `/ (${item.files} files)` : ''}`);
      }
      if (held.items.length > HELD_LINES) console.error(`waiting: … ${held.localFiles + held.remoteFiles} files in all`);
      console.error('sync: 确认删除这些文件：再次运行并加上 --confirm-deletes（只确认上面列出的这些删除）');
    }
    for (const item of status.lists.failList) console.error(`failed: ${item.path}: ${item.reason}`);
    // Counted as failed too: not done, and why (still being written, changed during the pass).
    for (const item of status.lists.syncList) if (item.state === 'unstable') console.error(`failed: ${item.path}: ${item.action}（稍后再同步即可）`);
  };
  let lastEvent = (await sync.engine.deletionEvents('cli'))[0]?.id ?? null;
  const reportDeletion = () => {
    const event = sync.engine.status().pairs[0]?.deletions?.[0];
    if (!event || event.id === lastEvent) return;
    lastEvent = event.id;
    console.error(`sync: 本次删除已记录（云端 ${event.remote} 项、本机 ${event.local} 项），可用 --restore-deletion ${event.id} 一次恢复`);
  };
  const exitCode = (failed: number): number => {
    const code = sync.engine.status().pairs[0]?.code;
    if (code === 'locked') return EXIT.locked;
    if (code === 'unreachable') return EXIT.unreachable;
    if (code === 'deletesHeld') return EXIT.deletesHeld;
    return failed === 0 ? EXIT.ok : EXIT.failed;
  };

  if (values['restore-deletion']) {
    const events = await sync.engine.deletionEvents('cli');
    const wanted = values['restore-deletion'] === 'last' ? events[0]?.id : values['restore-deletion'];
    if (!wanted || !events.some((e) => e.id === wanted)) {
      await sync.close();
      throw new Exit(`sync: 没有这次删除记录：${values['restore-deletion']}（已有：${events.map((e) => e.id).join('、') || '无'}）`, EXIT.usage);
    }
    const restored = await sync.engine.restoreDeletion('cli', wanted);
    for (const f of restored.failed) console.error(`failed: ${f.path}: ${f.reason}`);
    console.error(`sync: 已恢复 ${restored.restored} 项${restored.failed.length > 0 ? `，${restored.failed.length} 项未能恢复` : ''}`);
    lastEvent = sync.engine.status().pairs[0]?.deletions?.[0]?.id ?? null;
  }
  if (values['confirm-deletes']) await sync.engine.confirmDeletes('cli', null).catch(() => undefined); // nothing held: nothing to confirm

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
    reportDeletion();
    console.log(JSON.stringify(total));
    const code = exitCode(total.failed);
    await sync.close();
    heldLock?.release();
    return code;
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
  return EXIT.ok;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof Exit) {
      console.error(error.message.startsWith('sync') ? error.message : `sync failed: ${error.message}`);
      process.exit(error.code);
    }
    console.error(`sync failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(EXIT.failed);
  },
);
