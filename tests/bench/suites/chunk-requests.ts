/**
 * What one chunk request costs the server, apart from its bytes: announced (hash-first) sessions of
 * SMALL and LARGE chunk counts, 256 KiB chunks (the smallest a server may announce, so the request
 * itself, not the body, is what is measured), sent 3 at a time over HTTP to a server child process.
 * The figure is the CPU time of the server's main thread (routing, session, queries, file calls) per
 * request; it must not grow with the session's chunk count (`chunkRequestCpuGrowth` ≈ 1): each
 * request used to read and parse the whole digest list three times.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chunkDigestHex } from '../../support/chunk-digest';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clientHeaders } from '../../../common/api/client-env';
import { API } from '../../../common/api/paths';
import { MIN_CHUNK_SIZE } from '../../../common/transfer/chunk-policy';
import { HEADER_CHUNK_SHA256 } from '../../../common/transfer/constants';
import type { ChunkExistResponse } from '../../../common/transfer/protocol';
import { freePort, loggedInJar, startServerProcess } from '../../support/drive-server';
import { procCpuSeconds } from '../lib/proc-cpu';
import type { BenchModule, BenchRow } from '../lib/report';

const SMALL = 256;
const LARGE = 2_560;
const LANES = 3;

interface SessionRun {
  chunks: number;
  ms: number;
  cpuMsPerRequest: number;
}

export const chunkRequestsBenchmark: BenchModule = {
  name: 'chunk-requests',
  columns: ['session', 'chunks', 'seconds', 'server main-thread CPU ms / request'],
  async run() {
    const dir = await fsp.mkdtemp(path.join(process.env.BENCH_TMPDIR ?? os.tmpdir(), 'drive-bench-requests-'));
    const dataDir = path.join(dir, 'data');
    const server = await startServerProcess({ dataDir, port: await freePort(), env: { CHUNK_SIZE: String(MIN_CHUNK_SIZE) } });
    try {
      const jar = await loggedInJar(server.url, dataDir);
      const headers = { ...clientHeaders('desktop', 'internal'), cookie: jar.cookie() };
      const pid = server.child.pid!;
      const template = randomBytes(MIN_CHUNK_SIZE);

      const runSession = async (chunks: number, label: string): Promise<SessionRun> => {
        // Distinct chunks: the index and the session are written into each.
        const bodies = Array.from({ length: chunks }, (_, i) => {
          const body = Buffer.from(template);
          body.writeUInt32BE(i, 0);
          body.write(label, 4);
          return body;
        });
        const digests = bodies.map((b) => chunkDigestHex(b));
        const fingerprint = createHash('sha256').update(Buffer.concat(digests.map((d) => Buffer.from(d, 'hex')))).digest('hex');
        const opened = await fetch(server.url + API.chunkExist, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ fingerprint, size: chunks * MIN_CHUNK_SIZE, chunkSize: MIN_CHUNK_SIZE, chunkDigests: digests, name: `${label}.bin`, parentId: null, category: 1 }),
        });
        if (!opened.ok) throw new Error(`chunk/exist: HTTP ${opened.status} ${await opened.text()}`);
        const { uploadId } = ((await opened.json()) as { data: ChunkExistResponse }).data;
        const cpu0 = procCpuSeconds(pid, pid);
        const started = performance.now();
        let next = 0;
        await Promise.all(
          Array.from({ length: LANES }, async () => {
            while (next < chunks) {
              const i = next++;
              const res = await fetch(`${server.url}${API.chunkUpload}?uploadId=${uploadId}&index=${i}`, {
                method: 'POST',
                headers: { ...headers, 'content-type': 'application/octet-stream', [HEADER_CHUNK_SHA256]: digests[i]! },
                body: bodies[i],
              });
              const text = await res.text();
              if (!res.ok) throw new Error(`chunk ${i}: HTTP ${res.status} ${text}`);
            }
          }),
        );
        const ms = performance.now() - started;
        return { chunks, ms, cpuMsPerRequest: ((procCpuSeconds(pid, pid) - cpu0) * 1000) / chunks };
      };

      // A warm-up session first (JIT, statement cache), then the two measured ones.
      await runSession(4 * SMALL, 'warm-up');
      const small = await runSession(SMALL, 'small');
      const large = await runSession(LARGE, 'large');
      const row = (label: string, r: SessionRun): BenchRow => ({
        label,
        cells: { chunks: String(r.chunks), seconds: (r.ms / 1000).toFixed(2), 'server main-thread CPU ms / request': r.cpuMsPerRequest.toFixed(2) },
      });
      const round2 = (n: number) => Math.round(n * 100) / 100;
      return {
        rows: [row(`announced session, ${MIN_CHUNK_SIZE / 1024} KiB chunks, ${LANES} at a time`, small), row('the same, ten times the chunks', large)],
        metrics: {
          chunkRequestCpuMs: round2(small.cpuMsPerRequest),
          chunkRequestCpuMsLargeSession: round2(large.cpuMsPerRequest),
          chunkRequestCpuGrowth: round2(large.cpuMsPerRequest / small.cpuMsPerRequest),
        },
      };
    } finally {
      await server.stop();
      await fsp.rm(dir, { recursive: true, force: true });
    }
  },
};
