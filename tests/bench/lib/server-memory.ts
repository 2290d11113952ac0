/**
 * A benchmark's server child's memory, phase by phase: its resident set read from /proc every 50 ms
 * (the peak of each phase and of the run; not VmHWM, which includes the start, tsx compiling the
 * server, which no file size changes), and what the RSS was made of at each phase's peak (V8 heap,
 * `external`, `arrayBuffers`), reported by tests/bench/lib/memory-probe.mjs inside the child.
 */
import { existsSync, promises as fsp, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { procCpuSeconds } from './proc-cpu';

const MiB = 1024 * 1024;

/** BENCH_STORE_GC_MS: the server child runs a full GC this often (a diagnosis: what is live, not garbage); 0 = never. */
export const forcedGcMs = (): number => Number(process.env.BENCH_STORE_GC_MS ?? 0);

/** The environment that loads the probe into the server child, writing to `file`. */
export function memoryProbeEnv(file: string): Record<string, string> {
  const probe = path.join(path.dirname(fileURLToPath(import.meta.url)), 'memory-probe.mjs');
  const gc = forcedGcMs() > 0 ? ' --expose-gc' : '';
  return { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''}${gc} --import=${probe}`.trim(), BENCH_MEMORY_PROBE_FILE: file, BENCH_MEMORY_PROBE_GC_MS: String(forcedGcMs()) };
}

/** The server's resident set now, MiB (/proc/<pid>/status VmRSS). */
export function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

interface ProbeSample {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export interface PhaseMemory {
  phase: string;
  /** Peak RSS during the phase (sampled from outside), MiB. */
  peakMB: number;
  /** At the probe's highest RSS sample of the phase: V8 heap used / total, external, of it Buffers (MiB). */
  heapUsedMB?: number;
  heapTotalMB?: number;
  externalMB?: number;
  arrayBuffersMB?: number;
  /** CPU-seconds the server used in the phase (all its threads). */
  cpuS: number;
}

interface ProbeAnswer {
  atPeak: ProbeSample;
}

export class ServerMemory {
  readonly phases: PhaseMemory[] = [];
  /** RSS once started and logged in, before any phase. */
  readonly baselineMB: number;
  private phasePeak: number;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    private readonly probeFile: string,
  ) {
    this.baselineMB = rssMiB(pid);
    this.phasePeak = this.baselineMB;
    this.timer = setInterval(() => {
      const now = rssMiB(pid);
      if (now > this.phasePeak) this.phasePeak = now;
    }, 50);
  }

  get peakMB(): number {
    return Math.max(this.baselineMB, this.phasePeak, ...this.phases.map((p) => p.peakMB));
  }

  /** Runs one phase, noting its peak (and the probe's breakdown at it). */
  async phase<T>(name: string, run: () => Promise<T>): Promise<T> {
    await this.readProbe(); // starts the probe's window over
    this.phasePeak = rssMiB(this.pid);
    const cpuBefore = procCpuSeconds(this.pid);
    const out = await run();
    const peakMB = Math.max(this.phasePeak, rssMiB(this.pid));
    const cpuS = procCpuSeconds(this.pid) - cpuBefore;
    const probe = await this.readProbe();
    const mb = (n: number | undefined) => (n === undefined ? undefined : n / MiB);
    this.phases.push({
      phase: name,
      peakMB,
      heapUsedMB: mb(probe?.atPeak.heapUsed),
      heapTotalMB: mb(probe?.atPeak.heapTotal),
      externalMB: mb(probe?.atPeak.external),
      arrayBuffersMB: mb(probe?.atPeak.arrayBuffers),
      cpuS,
    });
    return out;
  }

  /** Asks the probe for its window's sample at the highest RSS; undefined when the child has no probe. */
  private async readProbe(): Promise<ProbeAnswer | undefined> {
    await fsp.rm(this.probeFile, { force: true });
    try {
      process.kill(this.pid, 'SIGUSR2');
    } catch {
      return undefined;
    }
    for (let i = 0; i < 100 && !existsSync(this.probeFile); i++) await new Promise((r) => setTimeout(r, 20));
    if (!existsSync(this.probeFile)) return undefined;
    return JSON.parse(await fsp.readFile(this.probeFile, 'utf8')) as ProbeAnswer;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
