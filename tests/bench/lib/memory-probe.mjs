/**
 * Loaded into a benchmark's server child (NODE_OPTIONS=--import <this file>; plain JS: it runs before
 * tsx is registered). Samples process.memoryUsage() every 25 ms and, on SIGUSR2, writes to
 * BENCH_MEMORY_PROBE_FILE the sample at the highest RSS since the last SIGUSR2 (what the RSS was made
 * of then: V8 heap, `external` = memory outside the heap that JS objects hold, `arrayBuffers` = the
 * Buffers among it) and the highest of each field, then starts over. What the RSS holds beyond heap
 * and external is native: code, thread stacks, worker isolates, malloc's arenas, socket buffers.
 */
import { renameSync, writeFileSync } from 'node:fs';
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
    renameSync(`${file}.tmp`, file);
    atPeak = null;
    highest = null;
    sample();
  });
}
