/**
 * Child process of the "memory" benchmark: uploads one file with the real engine under Node and
 * samples process.memoryUsage().rss every 20 ms. Prints one JSON line: baseline RSS (after start-up,
 * before enqueueing), peak RSS, and the upload time. Input: env BENCH_SERVER, BENCH_COOKIE, BENCH_FILE.
 */
import { createNodeEngine, waitUntilSettled } from '../../replay/engine-harness';
import { createCookieFetch, openFileSource } from '../../replay/node-runtime';

async function main(): Promise<void> {
  const server = process.env.BENCH_SERVER!;
  const file = process.env.BENCH_FILE!;
  const jar = createCookieFetch(process.env.BENCH_COOKIE!);
  const { engine, close } = createNodeEngine(server, jar);
  await engine.start();
  const source = await openFileSource(file, 'bench-memory.bin');
  globalThis.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  try {
    const [id] = await engine.enqueueUploads([source], { parentId: null, category: 1 });
    const s = await waitUntilSettled(engine, { ids: [id!], timeoutMs: 900_000, pollMs: 50 });
    const item = s.items[0]!;
    peak = Math.max(peak, process.memoryUsage().rss);
    console.log(JSON.stringify({ state: item.state, via: item.via, size: item.size, bytesDone: item.bytesDone, error: item.lastError, baseline, peak, ms: performance.now() - started, chunkBytes: jar.counters.chunkBytes }));
  } finally {
    clearInterval(timer);
    await close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
