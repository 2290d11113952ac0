/**
 * What the transfer benchmarks share: one temp directory, the real server as a child process on a
 * temp DATA_DIR (so it never shares an event loop with the engine or the raw baseline), a logged-in
 * cookie jar, and the generated 1 GiB file. Created on first use; `closeTransferContext()` (called
 * by run.ts when every benchmark is done, also on failure) stops the server and deletes everything.
 */
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CookieFetch } from '../../replay/node-runtime';
import { freePort, loggedInJar, startServerProcess, writeGeneratedFile, type ServerProcess } from '../../support/drive-server';

export const GiB = 1024 ** 3;

export interface TransferContext {
  dir: string;
  dataDir: string;
  server: ServerProcess;
  jar: CookieFetch;
  /** Restarts the server on the same port and DATA_DIR (after a kill). */
  restartServer(): Promise<void>;
  /** The generated 1 GiB file (made on first call). */
  oneGiBFile(): Promise<string>;
}

/**
 * How long memory freed by earlier work stays cheap to write into on this VM. Its balloon device hands
 * free memory back to the host within a few seconds (free page reporting); a page written after that
 * faults in the host again. Writing 1 GiB into the page cache (dd, conv=fsync) measured 0.24 CPU-seconds
 * of kernel time right after a 1 GiB file was deleted and 1.5 / 1.9 / 2.1 CPU-seconds 2 / 4 / 8 s
 * later; in the upload suite, the raw upload's server used 0.9 CPU-seconds in rounds that followed a
 * large deletion and 3.1–3.5 in the others, which moved single rounds between 0.48 and 1.09.
 */
export const FREED_MEMORY_SETTLE_MS = 5_000;

/**
 * Makes every timed transfer phase start from the same state: dirty pages written back to disk
 * (`sync`, so the phase does not pay for the write-back of what was written just before it; without
 * it, runs of the same code varied by ±30 %), and memory freed by earlier work (a deleted file, a
 * finished suite) handed back to the host, so no phase writes into memory that is cheaper than the
 * next phase's by accident.
 */
export async function settleBeforeTimedPhase(): Promise<void> {
  spawnSync('sync');
  await new Promise((resolve) => setTimeout(resolve, FREED_MEMORY_SETTLE_MS));
}

let context: Promise<TransferContext> | null = null;
let cleanup: (() => Promise<void>) | null = null;

async function create(): Promise<TransferContext> {
  const dir = await fsp.mkdtemp(path.join(process.env.BENCH_TMPDIR ?? os.tmpdir(), 'drive-bench-'));
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  let server = await startServerProcess({ dataDir, port });
  cleanup = async () => {
    await server.stop().catch(() => undefined);
    await fsp.rm(dir, { recursive: true, force: true });
  };
  const jar = await loggedInJar(server.url, dataDir);
  let oneGiB: Promise<string> | null = null;
  const ctx: TransferContext = {
    dir,
    dataDir,
    get server() {
      return server;
    },
    jar,
    async restartServer() {
      server = await startServerProcess({ dataDir, port });
    },
    oneGiBFile() {
      oneGiB ??= (async () => {
        const file = path.join(dir, 'one-gib.bin');
        await writeGeneratedFile(file, GiB);
        return file;
      })();
      return oneGiB;
    },
  };
  return ctx;
}

export function transferContext(): Promise<TransferContext> {
  context ??= create();
  return context;
}

export async function closeTransferContext(): Promise<void> {
  const done = cleanup;
  context = null;
  cleanup = null;
  await done?.();
}

/** Free bytes on the file system holding `dir`. */
export async function freeBytes(dir: string): Promise<number> {
  const s = await fsp.statfs(dir);
  return s.bavail * s.bsize;
}

export const round1 = (n: number): number => Math.round(n * 10) / 10;
export const round3 = (n: number): number => Math.round(n * 1000) / 1000;
