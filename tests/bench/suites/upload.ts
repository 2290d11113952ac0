/**
 * Engine upload throughput vs a raw streaming upload of the same bytes to the same server.
 *  - engine: the real engine under Node (tests/replay/node-runtime.ts), default settings, uploading
 *    a generated 1 GiB file; timed from enqueue to 'done', so hashing, chunk/exist, every chunk
 *    and the merge are included;
 *  - raw: `curl -T file URL/api/test/raw-sink` (a bench-only route under DRIVE_TEST_HOOKS=1 that
 *    streams the body to disk), or a Node http streaming PUT when curl is missing.
 * uploadRatio = engine MB/s / raw MB/s (goal ≥ 1.0). The server runs as a child process.
 * Also: the second upload of that file (fingerprint + challenge) against the time to fingerprint it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import { clientHeaders } from '../../../common/api/client-env';
import { hashChunks, fingerprintOfChunkDigests, createSha256Hex } from '../../../workers/hash/sha256';
import { DEFAULT_CHUNK_SIZE } from '../../../common/transfer/constants';
import { createNodeEngine, waitUntilSettled } from '../../replay/engine-harness';
import { openFileSource } from '../../replay/node-runtime';
import { megabytesPerSecond, type BenchModule, type BenchRow } from '../lib/report';
import { GiB, round1, round3, settleDisk, transferContext } from '../lib/transfer-context';

export const RAW_SINK_PATH = '/api/test/raw-sink';

function hasCurl(): boolean {
  return spawnSync('which', ['curl']).status === 0;
}

/** Is the raw-sink route there? (404 = not implemented / hooks off.) */
async function rawSinkAvailable(url: string, cookie: string): Promise<boolean> {
  const res = await fetch(url + RAW_SINK_PATH, {
    method: 'PUT',
    headers: { cookie, ...clientHeaders('desktop', 'internal'), 'content-type': 'application/octet-stream' },
    body: new Uint8Array(0),
    signal: AbortSignal.timeout(10_000),
  });
  await res.text();
  return res.status !== 404;
}

async function rawUploadCurl(url: string, cookie: string, file: string): Promise<number> {
  const started = performance.now();
  const child = spawn('curl', [
    '-sS', '--fail', '-T', file, '-o', '/dev/null', '--max-time', '600',
    '-H', `Cookie: ${cookie}`, '-H', 'Content-Type: application/octet-stream',
    ...Object.entries(clientHeaders('desktop', 'internal')).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
    url + RAW_SINK_PATH,
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`curl failed (${code}): ${err}`);
  return performance.now() - started;
}

async function rawUploadNode(url: string, cookie: string, file: string, size: number): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const req = http.request(url + RAW_SINK_PATH, {
      method: 'PUT',
      headers: { cookie, ...clientHeaders('desktop', 'internal'), 'content-type': 'application/octet-stream', 'content-length': size },
      timeout: 600_000,
    }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode && res.statusCode < 300 ? resolve() : reject(new Error(`raw PUT: HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    fs.createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(req);
  });
  return performance.now() - started;
}

export const uploadBenchmark: BenchModule = {
  name: 'upload',
  columns: ['what', 'MiB', 'seconds', 'MB/s', 'ratio'],
  async run() {
    const ctx = await transferContext();
    const file = await ctx.oneGiBFile();
    const rows: BenchRow[] = [];
    const metrics: Record<string, number | string> = { chunkSize: DEFAULT_CHUNK_SIZE, uploadBytes: GiB };

    // Engine, hashing included.
    ctx.jar.resetCounters();
    const { engine, close } = createNodeEngine(ctx.server.url, ctx.jar);
    let engineMs: number;
    let secondMs = NaN;
    let secondVia = '-';
    try {
      settleDisk();
      const started = performance.now();
      const [id] = await engine.enqueueUploads([await openFileSource(file, 'bench-1gib.bin')], { parentId: null, category: 1 });
      const s = await waitUntilSettled(engine, { ids: [id!], timeoutMs: 600_000, pollMs: 20 });
      engineMs = performance.now() - started;
      const item = s.items.find((i) => i.id === id)!;
      if (item.state !== 'done') throw new Error(`engine upload ended ${item.state}: ${item.lastError}`);
      metrics.engineChunkBytes = ctx.jar.counters.chunkBytes;

      // Second upload of the same bytes under another name.
      ctx.jar.resetCounters();
      settleDisk();
      const started2 = performance.now();
      const [id2] = await engine.enqueueUploads([await openFileSource(file, 'bench-1gib-again.bin')], { parentId: null, category: 1 });
      const s2 = await waitUntilSettled(engine, { ids: [id2!], timeoutMs: 600_000, pollMs: 10 });
      secondMs = performance.now() - started2;
      const item2 = s2.items.find((i) => i.id === id2)!;
      if (item2.state !== 'done') throw new Error(`second upload ended ${item2.state}: ${item2.lastError}`);
      secondVia = item2.via ?? 'chunks';
      metrics.secondUploadChunkBytes = ctx.jar.counters.chunkBytes;
    } finally {
      await close();
    }
    const engineMBps = megabytesPerSecond(GiB, engineMs);

    // Fingerprint alone (the engine's in-thread SHA-256, one chunk at a time).
    const source = await openFileSource(file);
    const sha256 = createSha256Hex();
    const fpStarted = performance.now();
    await fingerprintOfChunkDigests(await hashChunks(source, DEFAULT_CHUNK_SIZE, { sha256 }), sha256);
    const fingerprintMs = performance.now() - fpStarted;

    // Raw streaming upload of the same bytes.
    let rawMBps = NaN;
    let rawLabel = 'raw PUT /api/test/raw-sink: NOT AVAILABLE (route missing on the server)';
    if (await rawSinkAvailable(ctx.server.url, ctx.jar.cookie())) {
      const curl = hasCurl();
      settleDisk();
      const rawMs = curl ? await rawUploadCurl(ctx.server.url, ctx.jar.cookie(), file) : await rawUploadNode(ctx.server.url, ctx.jar.cookie(), file, GiB);
      rawMBps = megabytesPerSecond(GiB, rawMs);
      rawLabel = curl ? 'raw: curl -T → /api/test/raw-sink' : 'raw: Node http streaming PUT → /api/test/raw-sink';
      rows.push({ label: rawLabel, cells: { MiB: '1024', seconds: (rawMs / 1000).toFixed(2), 'MB/s': rawMBps.toFixed(0), ratio: '1.00' } });
    } else {
      rows.push({ label: rawLabel, cells: { MiB: '1024', seconds: '-', 'MB/s': '-', ratio: '-' } });
    }
    const ratio = engineMBps / rawMBps;
    rows.push({
      label: 'engine (Node, hashing included, enqueue → done)',
      cells: { MiB: '1024', seconds: (engineMs / 1000).toFixed(2), 'MB/s': engineMBps.toFixed(0), ratio: Number.isFinite(ratio) ? ratio.toFixed(2) : '-' },
    });
    rows.push({ label: 'fingerprint only (in-thread SHA-256, 4 MiB chunks)', cells: { MiB: '1024', seconds: (fingerprintMs / 1000).toFixed(2), 'MB/s': megabytesPerSecond(GiB, fingerprintMs).toFixed(0), ratio: '' } });
    rows.push({
      label: `second upload of the same bytes (via ${secondVia}, ${metrics.secondUploadChunkBytes} chunk bytes)`,
      cells: { MiB: '1024', seconds: (secondMs / 1000).toFixed(2), 'MB/s': '', ratio: `${(secondMs / fingerprintMs).toFixed(2)}× fp` },
    });

    Object.assign(metrics, {
      engineUploadMBps: round1(engineMBps),
      rawUploadMBps: Number.isFinite(rawMBps) ? round1(rawMBps) : 'unavailable',
      uploadRatio: Number.isFinite(ratio) ? round3(ratio) : 'unavailable',
      fingerprintMs: Math.round(fingerprintMs),
      secondUploadMs: Math.round(secondMs),
      secondUploadVia: secondVia,
      secondUploadVsFingerprint: round3(secondMs / fingerprintMs),
    });
    return { rows, metrics };
  },
};
