import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';

/** How a converter tool's run ended. */
export interface ToolRun {
  /** Exit code (null when killed by a signal). */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  /** Killed at its deadline. */
  timedOut: boolean;
  /** Largest sum of the resident memory of the run's process tree seen (sampled every RSS_SAMPLE_MS), KiB. */
  peakRssKb: number;
  ms: number;
}

export interface ToolOptions {
  /** ms since the epoch: at that moment the run's whole process group is killed. */
  deadline: number;
  signal?: AbortSignal;
  cwd?: string;
  env: NodeJS.ProcessEnv;
  /** Bytes of stdout kept (more is an error: the run is killed). */
  maxStdout?: number;
}

const RSS_SAMPLE_MS = 200;
const STDERR_KEPT = 4096;

/**
 * Runs a converter tool in a process group of its own (LibreOffice forks: soffice → oosplash →
 * soffice.bin), so an overrun, an abort or too much output kills all of it at once with SIGKILL. Never
 * throws for the tool's own failure: the caller reads the ending.
 */
export function runTool(command: string, args: readonly string[], options: ToolOptions): Promise<ToolRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let timedOut = false;
    let peakRssKb = 0;
    let ended = false;
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, Math.max(0, options.deadline - Date.now()));
    const sampler = setInterval(() => {
      if (child.pid !== undefined) void treeRssKb(child.pid).then((kb) => (peakRssKb = Math.max(peakRssKb, kb)));
    }, RSS_SAMPLE_MS);
    const onAbort = (): void => killGroup();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (piece: Buffer) => {
      outBytes += piece.length;
      if (options.maxStdout !== undefined && outBytes > options.maxStdout) return killGroup();
      out.push(piece);
    });
    child.stderr.on('data', (piece: Buffer) => {
      if (stderr.length < STDERR_KEPT) stderr += piece.toString('utf8').slice(0, STDERR_KEPT - stderr.length);
    });
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      clearInterval(sampler);
      options.signal?.removeEventListener('abort', onAbort);
      // Whatever the tool left running in its group (a daemonised soffice.bin) goes with it.
      killGroup();
      resolve({ code, signal, stdout: Buffer.concat(out), stderr, timedOut, peakRssKb, ms: Date.now() - started });
    };
    child.on('error', (err) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      clearInterval(sampler);
      options.signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.on('close', finish);
  });
}

/**
 * Sum of VmRSS of process `root` and its descendants (Linux /proc: each task's `children`; 0
 * elsewhere). A walk of the tree, not of every process: cheap at RSS_SAMPLE_MS.
 */
async function treeRssKb(root: number): Promise<number> {
  let total = 0;
  const seen = new Set<number>();
  const visit = async (pid: number): Promise<void> => {
    if (seen.has(pid) || seen.size > 64) return;
    seen.add(pid);
    try {
      const status = await fsp.readFile(`/proc/${pid}/status`, 'utf8');
      const rss = /VmRSS:\s+(\d+)/.exec(status);
      if (rss) total += Number(rss[1]);
      // Children are listed per thread: oosplash starts soffice.bin from a thread of its own.
      const tasks = await fsp.readdir(`/proc/${pid}/task`);
      const lists = await Promise.all(tasks.map((t) => fsp.readFile(`/proc/${pid}/task/${t}/children`, 'utf8').catch(() => '')));
      const children = lists.join(' ').trim();
      if (children) await Promise.all(children.split(/\s+/).map((c) => visit(Number(c))));
    } catch {
      // the process ended meanwhile, or no /proc
    }
  };
  await visit(root);
  return total;
}
