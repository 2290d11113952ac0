/**
 * Profiling the sync at scale by hand, on a folder the `sync` bench kept (BENCH_SYNC_KEEP=1 prints
 * `kept <dir>`): starts the server on its data, logs in, forgets the engine's state (so the first
 * pass starts from an empty journal, as in the bench) and runs the bench's engine process
 * (tests/bench/lib/sync-child.ts, bundled as the bench runs it) with SYNC_TRACE_MEM=1, which prints
 * the process's memory after each phase of each pass (workers/sync/pass.ts).
 * `node --import tsx tests/bench/lib/sync-profile.ts <kept dir> [--keep-state] [node flags…]`
 * (e.g. `--heapsnapshot-signal=SIGUSR2`, `--cpu-prof`). `SYNC_PROFILE_IDLE=<file>` saves a CPU profile of the idle pass alone.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { syncEngineFlags } from '../../../common/sync/engine-flags';
import { freePort, loggedInJar, startServerProcess } from '../../support/drive-server';
import { bundleSyncChild } from './sync-child-bundle';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..');
const [work, ...rest] = process.argv.slice(2);
if (!work) throw new Error('usage: sync-profile.ts <kept dir> [--keep-state] [node flags…]');
const keepState = rest.includes('--keep-state');
const nodeFlags = rest.filter((a) => a !== '--keep-state');

const script = await bundleSyncChild();

const server = await startServerProcess({ dataDir: path.join(work, 'server'), port: await freePort() });
try {
  const jar = await loggedInJar(server.url, server.dataDir);
  const state = path.join(work, 'state');
  if (!keepState) await fsp.rm(state, { recursive: true, force: true });
  const child = spawn(process.execPath, [...syncEngineFlags(process.env), ...nodeFlags, script, server.url, jar.cookie(), path.join(work, 'local'), '/bench', state], {
    cwd: ROOT,
    env: { ...process.env, SYNC_TRACE_MEM: '1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) process.exitCode = 1;
} finally {
  await server.stop();
}
