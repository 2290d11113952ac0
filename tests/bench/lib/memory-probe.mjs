/**
 * Loaded into a benchmark's server child (NODE_OPTIONS=--import <this file>; plain JS: it runs before
 * tsx is registered). Samples process.memoryUsage() every 25 ms and, on SIGUSR2, writes to
 * BENCH_MEMORY_PROBE_FILE the sample at the highest RSS since the last SIGUSR2 (what the RSS was made
 * of then: V8 heap, `external` = memory outside the heap that JS objects hold, `arrayBuffers` = the
 * Buffers among it) and the highest of each field, then starts over. What the RSS holds beyond heap
 * and external is native: code, thread stacks, worker isolates, malloc's arenas, socket buffers.
 * BENCH_MEMORY_PROBE_SMAPS=<file> (a diagnosis) also appends to that file, at each phase's end, the
 * resident MB by kind of mapping: `node` (the binary), `[heap]` (glibc's main arena: Buffers' memory),
 * `anon` (the V8 heap, thread arenas and stacks, worker isolates), `lib` (shared libraries).
 */
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { setInterval } from 'node:timers';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_MEMORY_PROBE_FILE;
// Worker threads (the hash threads) load it too: only the process's main thread answers.
if (file && isMainThread) {
  let atPeak = null;
  let highest = null;
  const sample = () => {
    const m = process.memoryUsage();
    if (!atPeak || m.rss > atPeak.rss) atPeak = m;
    highest = highest ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, Math.max(v, highest[k])])) : m;
  };
  setInterval(sample, 25).unref();
  // Diagnosis (BENCH_STORE_GC_MS): a full GC this often shows what is live; the gap to a run without it is
  // garbage waiting for V8's own collection.
  const gcMs = Number(process.env.BENCH_MEMORY_PROBE_GC_MS ?? 0);
  if (gcMs > 0 && typeof globalThis.gc === 'function') setInterval(() => globalThis.gc(), gcMs).unref();
  process.on('SIGUSR2', () => {
    sample();
    writeFileSync(`${file}.tmp`, JSON.stringify({ atPeak, highest, now: process.memoryUsage() }));
    if (process.env.BENCH_MEMORY_PROBE_SMAPS) {
      const by = {};
      let cur = '';
      for (const l of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
        const h = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(l);
        if (h) { cur = h[1] ? (h[1].startsWith('/usr/bin/node') ? 'node' : h[1].startsWith('[') ? h[1] : 'lib') : 'anon'; continue; }
        const r = /^Rss:\s+(\d+) kB/.exec(l);
        if (r) by[cur] = (by[cur] || 0) + Number(r[1]) / 1024;
      }
      const m = process.memoryUsage();
      for (const k of Object.keys(by)) by[k] = Math.round(by[k]);
      appendFileSync(`${process.env.BENCH_MEMORY_PROBE_SMAPS}`, `${file} ${JSON.stringify(by)} heapTotal ${Math.round(m.heapTotal / 1048576)} ext ${Math.round(m.external / 1048576)} peakAt ${JSON.stringify(atPeak && { rss: atPeak.rss >> 20, heapTotal: atPeak.heapTotal >> 20, ext: atPeak.external >> 20 })}\n`);
    }
    renameSync(`${file}.tmp`, file);
    atPeak = null;
    highest = null;
    sample();
  });
}
