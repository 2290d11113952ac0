/**
 * The processes of a Chromium launched by this benchmark process, and the server started by `npm start`,
 * found in /proc (Linux only), so the browser suites can report CPU-seconds and memory per process kind.
 * Chromium's processes are descendants of this process; the kind is read from the `--type=` switch.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { procCpuSeconds } from './proc-cpu';

/**
 * renderer: the tabs (page main thread and every worker of it); network: the network service; storage:
 * the storage service (IndexedDB, blob storage on disk); utility: other utility processes.
 */
export type ChromiumKind = 'browser' | 'renderer' | 'gpu' | 'network' | 'storage' | 'utility' | 'zygote' | 'other';

export const CHROMIUM_KINDS: ChromiumKind[] = ['browser', 'renderer', 'gpu', 'network', 'storage', 'utility', 'zygote', 'other'];

interface ProcInfo {
  pid: number;
  ppid: number;
  argv: string[];
}

function readProc(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    // Processes Chromium's zygote forks rewrite their command line as ONE string: split on spaces too
    // (no switch this module reads contains a space).
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/).filter(Boolean);
    return { pid, ppid, argv };
  } catch {
    return null; // gone meanwhile
  }
}

function allProcs(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const p = readProc(Number(name));
    if (p) out.push(p);
  }
  return out;
}

/** Every live descendant of `root`. */
function descendants(root: number, procs = allProcs()): ProcInfo[] {
  const children = new Map<number, ProcInfo[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: ProcInfo[] = [];
  const stack = [root];
  while (stack.length) {
    for (const c of children.get(stack.pop()!) ?? []) {
      out.push(c);
      stack.push(c.pid);
    }
  }
  return out;
}

function kindOf(argv: string[]): ChromiumKind {
  const type = argv.find((a) => a.startsWith('--type='))?.slice('--type='.length);
  if (type === undefined) return 'browser';
  if (type === 'renderer') return 'renderer';
  if (type === 'gpu-process') return 'gpu';
  if (type === 'zygote') return 'zygote';
  if (type === 'utility') {
    const sub = argv.find((a) => a.startsWith('--utility-sub-type=')) ?? '';
    return sub.includes('NetworkService') ? 'network' : sub.includes('StorageService') ? 'storage' : 'utility';
  }
  return 'other';
}

/** Chromium's processes (descendants of this process whose executable is a chrome/chromium), by kind. */
export function chromiumProcesses(): { pid: number; kind: ChromiumKind }[] {
  return descendants(process.pid)
    .filter((p) => /chrom/i.test(path.basename(p.argv[0] ?? '')))
    .map((p) => ({ pid: p.pid, kind: /crashpad/i.test(path.basename(p.argv[0]!)) ? 'other' : kindOf(p.argv) }));
}

/**
 * The server of an `npm start` listening on `port`: the node process running the server (the bundle
 * dist-server/main.cjs that `npm start` runs, or server/main.ts under tsx) with that PORT in its
 * environment (not npm, not the `sh -c` that started it).
 */
export function npmStartServerPid(port: number): number {
  for (const p of allProcs()) {
    if (!/(^|\/)node$/.test(p.argv[0] ?? '') || !p.argv.some((a) => a === 'server/main.ts' || a.endsWith('dist-server/main.cjs'))) continue;
    try {
      const env = readFileSync(`/proc/${p.pid}/environ`, 'utf8').split('\0');
      if (env.includes(`PORT=${port}`)) return p.pid;
    } catch {
      // not ours to read, or gone
    }
  }
  throw new Error(`no server process (dist-server/main.cjs or server/main.ts) with PORT=${port}`);
}

export type CpuByKind = Record<ChromiumKind | 'server', number>;

/**
 * CPU-seconds used so far, per Chromium process kind and by the server. Processes that exit between two
 * snapshots lose their share (a spare renderer shutting down), so take snapshots around steady work.
 */
export function cpuSnapshot(serverPid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of chromiumProcesses()) out.set(`${p.kind}:${p.pid}`, procCpuSeconds(p.pid));
  out.set(`server:${serverPid}`, procCpuSeconds(serverPid));
  return out;
}

/** CPU-seconds per kind between two snapshots (a process absent from `before` started meanwhile: all of it counts). */
export function cpuDelta(before: Map<string, number>, after: Map<string, number>): CpuByKind {
  const sums = Object.fromEntries([...CHROMIUM_KINDS, 'server'].map((k) => [k, 0])) as CpuByKind;
  for (const [key, seconds] of after) {
    const kind = key.slice(0, key.indexOf(':')) as keyof CpuByKind;
    const delta = seconds - (before.get(key) ?? 0);
    if (Number.isFinite(delta)) sums[kind] += delta;
  }
  return sums;
}

/** Resident set size of a process, bytes (0 when it is gone). */
export function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Samples the summed RSS of Chromium's renderer processes (the tab: its page and every worker) and of
 * the rest of Chromium (browser, network service, GPU…) every `intervalMs`; stop() gives the peaks.
 */
export function sampleChromiumMemory(intervalMs = 100): { stop(): { rendererPeak: number; othersPeak: number } } {
  let rendererPeak = 0;
  let othersPeak = 0;
  // The process list is read again once a second only: walking /proc every sample would cost the
  // CPU this is measuring.
  let procs = chromiumProcesses();
  let listedAt = performance.now();
  const sample = () => {
    if (performance.now() - listedAt > 1000) {
      procs = chromiumProcesses();
      listedAt = performance.now();
    }
    let renderer = 0;
    let others = 0;
    for (const p of procs) {
      if (p.kind === 'renderer') renderer += rssBytes(p.pid);
      else others += rssBytes(p.pid);
    }
    rendererPeak = Math.max(rendererPeak, renderer);
    othersPeak = Math.max(othersPeak, others);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { rendererPeak, othersPeak };
    },
  };
}

/** Summed RSS of the renderer processes now, bytes. */
export function rendererRss(): number {
  return chromiumProcesses()
    .filter((p) => p.kind === 'renderer')
    .reduce((sum, p) => sum + rssBytes(p.pid), 0);
}

/** CPU-seconds used so far by every thread of `pids`, keyed `pid:tid`, with the thread's name (comm). */
export function threadCpuSnapshot(pids: number[]): Map<string, { name: string; seconds: number }> {
  const out = new Map<string, { name: string; seconds: number }>();
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // gone
    }
    for (const tid of tids) {
      try {
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
        out.set(`${pid}:${tid}`, { name, seconds: procCpuSeconds(pid, Number(tid)) });
      } catch {
        // thread ended meanwhile
      }
    }
  }
  return out;
}

/**
 * CPU-seconds of the renderers' threads so far, summed by role: `main` (each renderer's main thread, the
 * page's), else the thread's name (DedicatedWorker = the engine and hash workers, Compositor,
 * ThreadPoolForeg = V8's compiler and GC helpers, Chrome_ChildIOT…). Take two and subtract with
 * {@link threadRolesDelta}: which part of the renderer's figure is the page and which its workers.
 */
export function rendererThreadRoles(): Map<string, number> {
  const out = new Map<string, number>();
  const pids = chromiumProcesses().filter((p) => p.kind === 'renderer').map((p) => p.pid);
  for (const [key, t] of threadCpuSnapshot(pids)) {
    const [pid, tid] = key.split(':');
    const role = pid === tid ? 'main' : t.name;
    out.set(role, (out.get(role) ?? 0) + t.seconds);
  }
  return out;
}

export function threadRolesDelta(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [role, seconds] of after) out.set(role, Math.max(0, seconds - (before.get(role) ?? 0)));
  return out;
}
