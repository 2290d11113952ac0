/**
 * CPU time of another process (or one of its threads) from /proc, for benchmarks where client and
 * server share this machine's cores. Linux only: NaN elsewhere (the tables then show '-').
 */
import { readFileSync } from 'node:fs';

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
