/**
 * The browser engine's hashing, measured where it runs: in Debian's Chromium. The engine's own hash
 * worker (workers/hash/hash.worker.ts) and hashing loop (workers/engine/chunk-digests.ts) are bundled
 * with esbuild and served from 127.0.0.1 (a secure context, so WebCrypto is there as on https). A file of
 * distinct chunks is written to disk and picked through the page's file input, as a user picks one; the
 * pool digests it exactly as an upload does, and every digest is checked against node:crypto over the
 * same bytes. Rows:
 *  - one worker (the "per worker" figure: hashBrowserWorkerMBps, compared with native as hashBrowserRatio);
 *  - the pool the engine starts on this machine (hashPoolSize(hardwareConcurrency) workers):
 *    hashBrowserPoolMBps, and hashBrowserPoolRatio = pool MB/s over native single-thread (issue 18);
 *  - the same pool reading its slices without digesting them (hashBrowserReadMBps): Chromium's Blob read
 *    alone, the ceiling the pool cannot pass however fast the digest is.
 * Native SHA-256 is measured in the same run by the `hashing` suite; this suite measures it again on
 * the same data so the ratio never mixes two runs.
 */
import { chunkDigestHex } from '../../support/chunk-digest';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { DEFAULT_CHUNK_SIZE } from '../../../common/transfer/chunk-policy';
import { HASH_TASKS_PER_WORKER, hashPoolSize } from '../../../workers/hash/hash-pool';
import { CHROMIUM_ARGS, CHROMIUM_MISSING_MESSAGE, findChromium } from '../../support/chromium';
import type { PageRunRequest, PageRunResult } from '../browser/hash-page';
import { fillChunk } from '../browser/pattern';
import { megabytesPerSecond, MIB, type BenchModule } from '../lib/report';
import { round1 } from '../lib/transfer-context';

/** A picked file of 16 chunks (the page cache holds it after the warm-up, as it does a file just picked). */
const DATA_BYTES = 256 * MIB;
const ROUNDS = 3;

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [new URL(entry, import.meta.url).pathname],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

async function serve(files: Record<string, string>): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const body = files[req.url ?? ''];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': req.url!.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function patternChunks(chunkSize: number, chunks: number): Uint8Array[] {
  return Array.from({ length: chunks }, (_, i) => {
    const b = new Uint8Array(chunkSize);
    fillChunk(b, i);
    return b;
  });
}

function writeFile(file: string, buffers: Uint8Array[]): void {
  const fd = openSync(file, 'w');
  try {
    for (const b of buffers) writeSync(fd, b);
  } finally {
    closeSync(fd);
  }
}

/** Native SHA-256 of the same chunks (main thread, ready buffers): the ceiling, and the digests to check. */
function nativeDigests(buffers: Uint8Array[]): { ms: number; digests: string[] } {
  let best = Infinity;
  let digests: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    digests = buffers.map((b) => chunkDigestHex(b));
    best = Math.min(best, performance.now() - start);
  }
  return { ms: best, digests };
}

export const browserHashingBenchmark: BenchModule = {
  name: 'browser-hashing',
  columns: ['hasher', 'workers', 'MiB', 'MB/s', 'MB/s per worker', 'ratio vs native'],
  async run() {
    const executablePath = findChromium();
    if (!executablePath) throw new Error(CHROMIUM_MISSING_MESSAGE);
    const chunkSize = DEFAULT_CHUNK_SIZE;
    const chunks = DATA_BYTES / chunkSize;
    const buffers = patternChunks(chunkSize, chunks);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hash-bench-'));
    const dataFile = path.join(dir, 'picked.bin');
    writeFile(dataFile, buffers);
    const [page, worker, reader] = await Promise.all([
      bundle('../browser/hash-page.ts'),
      bundle('../../../workers/hash/hash.worker.ts'),
      bundle('../browser/read.worker.ts'),
    ]);
    const { server, url } = await serve({
      '/': '<!doctype html><meta charset="utf-8"><title>hash bench</title><input type="file"><script src="/page.js"></script>',
      '/page.js': page,
      '/hash.worker.js': worker,
      '/read.worker.js': reader,
    });
    const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    try {
      const tab = await browser.newPage();
      const pageErrors: string[] = [];
      tab.on('pageerror', (e) => pageErrors.push(e.message));
      tab.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text()));
      await tab.goto(`${url}/`);
      await tab.waitForFunction(() => 'runHashBench' in globalThis, null, { timeout: 10_000 }).catch(() => {
        throw new Error(`the bench page did not load: ${pageErrors.join('; ') || 'no error reported'}`);
      });
      await tab.setInputFiles('input[type=file]', dataFile);
      const runInPage = (request: PageRunRequest) =>
        tab.evaluate((r) => (globalThis as unknown as { runHashBench(r: PageRunRequest): Promise<PageRunResult> }).runHashBench(r), request);

      const single = await runInPage({ chunkSize, poolSize: 1, concurrency: HASH_TASKS_PER_WORKER, rounds: ROUNDS, readOnly: false });
      if (!single.secureContext) throw new Error('the bench page is not a secure context: WebCrypto would be missing');
      if (single.fileSize !== DATA_BYTES) throw new Error(`the page saw ${single.fileSize} bytes, not ${DATA_BYTES}`);
      const poolSize = hashPoolSize(single.hardwareConcurrency);
      const poolRequest = { chunkSize, poolSize, concurrency: poolSize * HASH_TASKS_PER_WORKER, rounds: ROUNDS };
      const pooled = await runInPage({ ...poolRequest, readOnly: false });
      const readOnly = await runInPage({ ...poolRequest, readOnly: true });
      if (readOnly.digests.some((length, i) => Number(length) !== Math.min(chunkSize, DATA_BYTES - i * chunkSize))) {
        throw new Error('the read-only pool did not read every slice whole');
      }
      const native = nativeDigests(buffers);
      for (const [label, result] of [['one worker', single], ['pool', pooled]] as const) {
        if (result.digests.join() !== native.digests.join()) throw new Error(`Chromium ${label} and node:crypto disagree on the digests`);
      }

      const singleMBps = megabytesPerSecond(DATA_BYTES, Math.min(...single.times));
      const poolMBps = megabytesPerSecond(DATA_BYTES, Math.min(...pooled.times));
      const readMBps = megabytesPerSecond(DATA_BYTES, Math.min(...readOnly.times));
      const nativeMBps = megabytesPerSecond(DATA_BYTES, native.ms);
      const row = (label: string, workers: number, mbps: number) => ({
        label,
        cells: {
          workers: String(workers),
          MiB: String(DATA_BYTES / MIB),
          'MB/s': mbps.toFixed(0),
          'MB/s per worker': (mbps / workers).toFixed(0),
          'ratio vs native': (mbps / workers / nativeMBps).toFixed(2),
        },
      });
      return {
        rows: [
          row('SHA-256 WebCrypto, engine hash worker in Chromium', 1, singleMBps),
          row(`SHA-256 WebCrypto, engine hash pool in Chromium`, poolSize, poolMBps),
          row('the same pool reading without digesting (Blob read ceiling)', poolSize, readMBps),
          row('SHA-256 node:crypto (native, main thread)', 1, nativeMBps),
        ],
        metrics: {
          hashBrowserWorkerMBps: round1(singleMBps),
          hashBrowserPoolMBps: round1(poolMBps),
          hashBrowserPoolWorkers: poolSize,
          hashBrowserPoolRatio: Math.round((poolMBps / nativeMBps) * 1000) / 1000,
          hashBrowserReadMBps: round1(readMBps),
          hashBrowserNativeMBps: round1(nativeMBps),
          hashBrowserRatio: Math.round((singleMBps / nativeMBps) * 1000) / 1000,
        },
      };
    } finally {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

