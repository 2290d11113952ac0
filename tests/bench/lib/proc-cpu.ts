/**
 * CPU time of another process (or one of its threads) from /proc, for benchmarks where client and
 * server share this machine's cores. Linux only: NaN elsewhere (the tables then show '-').
 */
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ of /proc/<pid>/stat: 100 on every Linux this runs on (sysconf(_SC_CLK_TCK)). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU-seconds (user + system) used so far by process `pid`, all its threads; with `tid`, by that
 * thread only (its main thread when `tid` = `pid`).
 */
export function procCpuSeconds(pid: number, tid?: number): number {
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
    // Fields after the command name, which may itself contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** Every live descendant of process `root` (children, their children...), from /proc. Linux only: [] elsewhere. */
export function descendantPids(root: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  for (const name of entries) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** The command line of `pid` with arguments joined by spaces ('' when gone). */
export function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}
