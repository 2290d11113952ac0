/**
 * Peak memory of the engine uploading a 4 GiB file (generated: a repeated random block stamped with
 * a counter, real content to hash), measured in a CHILD process that runs only the engine
 * (tests/bench/lib/memory-child.ts) against the bench server. peakMemMB = peak RSS − baseline RSS
 * (MiB); the absolute peak is reported too. The 4 GiB file and the server's copy need ~9 GiB free;
 * both are deleted afterwards (the file here, the server's copy with the bench directory).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { writeGeneratedFile } from '../../support/drive-server';
import type { BenchModule } from '../lib/report';
import { freeBytes, GiB, round1, transferContext } from '../lib/transfer-context';

const SIZE = 4 * GiB;
const MiB = 1024 * 1024;
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..');

export const memoryBenchmark: BenchModule = {
  name: 'memory',
  columns: ['what', 'MiB'],
  async run() {
    const ctx = await transferContext();
    const free = await freeBytes(ctx.dir);
    if (free < 2.3 * SIZE) throw new Error(`memory bench needs ~${((2.3 * SIZE) / GiB).toFixed(1)} GiB free in ${ctx.dir}, only ${(free / GiB).toFixed(1)} GiB`);
    const file = path.join(ctx.dir, 'memory-4gib.bin');
    try {
      await writeGeneratedFile(file, SIZE);
      const child = spawn(process.execPath, ['--import', 'tsx', '--expose-gc', 'tests/bench/lib/memory-child.ts'], {
        cwd: ROOT,
        env: { ...process.env, BENCH_SERVER: ctx.server.url, BENCH_COOKIE: ctx.jar.cookie(), BENCH_FILE: file },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 900_000);
      const [code] = (await once(child, 'exit')) as [number | null];
      clearTimeout(timer);
      if (code !== 0) throw new Error(`memory child exited ${code}: ${out}`);
      const r = JSON.parse(out.trim().split('\n').pop()!) as { state: string; error: string | null; baseline: number; peak: number; ms: number; chunkBytes: number };
      if (r.state !== 'done') throw new Error(`4 GiB upload ended ${r.state}: ${r.error}`);
      // A figure from an upload that did not send the bytes would be meaningless: refuse it.
      if (r.chunkBytes < SIZE) throw new Error(`${out.trim().split("\n").pop()} — memory child sent only ${r.chunkBytes} chunk bytes of ${SIZE} in ${r.ms.toFixed(0)} ms: no real upload was measured`);
      const peakMemMB = (r.peak - r.baseline) / MiB;
      return {
        rows: [
          { label: 'baseline RSS (engine started, before enqueue)', cells: { MiB: (r.baseline / MiB).toFixed(1) } },
          { label: 'peak RSS while uploading 4 GiB', cells: { MiB: (r.peak / MiB).toFixed(1) } },
          { label: 'peak − baseline (peakMemMB, goal ≤ 150)', cells: { MiB: peakMemMB.toFixed(1) } },
          { label: `upload time ${(r.ms / 1000).toFixed(1)} s → ${((SIZE / 1e6) / (r.ms / 1000)).toFixed(0)} MB/s`, cells: { MiB: '' } },
        ],
        metrics: { peakMemMB: round1(peakMemMB), peakRssMB: round1(r.peak / MiB), baselineRssMB: round1(r.baseline / MiB), memoryFileBytes: SIZE },
      };
    } finally {
      await fsp.rm(file, { force: true });
    }
  },
};
