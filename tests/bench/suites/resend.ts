/**
 * Bytes re-sent after a cut at 50 %: the engine uploads a generated 256 MiB file; when half of it is
 * confirmed the server (a child process) is SIGKILLed and restarted on the same DATA_DIR; the engine
 * resumes by itself. The engine talks to the server through the (fault-free) proxy of
 * tests/support/fault-proxy.ts, which counts the chunk bytes that really went to the server:
 * resentBytes = those bytes minus the file size. The chunk bytes handed to fetch (every attempt
 * counted in full, even when the cut ended it early) are shown too, as an upper bound. So are the bytes
 * the kernel held on their way to the server just before the kill (`ss`), which no server process can keep.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { DEFAULT_CHUNK_SIZE } from '../../../common/transfer/chunk-policy';
import { DEFAULT_CHUNK_CONCURRENCY } from '../../../common/transfer/constants';
import { createNodeEngine, waitUntilSettled } from '../../replay/engine-harness';
import { openFileSource } from '../../replay/node-runtime';
import { writeGeneratedFile } from '../../support/drive-server';
import { startFaultProxy } from '../../support/fault-proxy';
import type { BenchModule } from '../lib/report';
import { transferContext } from '../lib/transfer-context';

const SIZE = 256 * 1024 * 1024;

/**
 * Bytes the kernel holds on the way to the server's port at this moment (`ss`): the server sockets'
 * receive queues (arrived, not yet read by the process) plus the send queues of the sockets sending to
 * it (the proxy's, written, not yet arrived). A SIGKILL loses them; null where `ss` is missing.
 */
function bytesQueuedTowards(port: number): { bytes: number; sockets: number } | null {
  let out: string;
  try {
    out = execFileSync('ss', ['-tnH', 'state', 'established'], { encoding: 'utf8' });
  } catch {
    return null;
  }
  let bytes = 0;
  let sockets = 0;
  for (const line of out.split('\n')) {
    const [recvQ, sendQ, local, peer] = line.trim().split(/\s+/);
    if (!recvQ || !sendQ || !local || !peer) continue;
    if (local.endsWith(`:${port}`) && Number(recvQ) > 0) {
      bytes += Number(recvQ);
      sockets++;
    } else if (peer.endsWith(`:${port}`) && Number(sendQ) > 0) bytes += Number(sendQ);
  }
  return { bytes, sockets };
}

export const resendBenchmark: BenchModule = {
  name: 'resend',
  columns: ['what', 'bytes', 'chunks'],
  async run() {
    const ctx = await transferContext();
    const file = path.join(ctx.dir, 'resend-256mib.bin');
    await writeGeneratedFile(file, SIZE, 16 * 1024 * 1024);
    ctx.jar.resetCounters();
    const proxy = await startFaultProxy({ target: ctx.server.url, faultRate: 0 });
    // Fixed jitter so the retry schedule (250 ms, 500 ms, 1 s, 2 s...) outlasts the restart.
    const { engine, close } = createNodeEngine(proxy.url, ctx.jar, { random: () => 0.5 });
    let cutAt = -1;
    let queuedAtCut: { bytes: number; sockets: number } | null = null;
    let restart: Promise<void> | null = null;
    try {
      const [id] = await engine.enqueueUploads([await openFileSource(file)], { parentId: null, category: 1 });
      const s = await waitUntilSettled(engine, {
        ids: [id!],
        timeoutMs: 300_000,
        pollMs: 10,
        onSnapshot: async (snap) => {
          const item = snap.items[0]!;
          if (cutAt < 0 && item.bytesDone >= SIZE / 2) {
            cutAt = item.bytesDone;
            queuedAtCut = bytesQueuedTowards(Number(new URL(ctx.server.url).port));
            await ctx.server.kill();
            restart = ctx.restartServer();
          }
        },
      });
      await restart;
      const item = s.items.find((i) => i.id === id)!;
      if (item.state !== 'done') throw new Error(`resend upload ended ${item.state}: ${item.lastError}`);
    } finally {
      await close();
      await proxy.close();
    }
    const sent = proxy.counters.chunkBytesForwarded;
    const resent = sent - SIZE;
    const handed = ctx.jar.counters.chunkBytes;
    const chunks = (bytes: number): string => (bytes / DEFAULT_CHUNK_SIZE).toFixed(2);
    const queued = queuedAtCut as { bytes: number; sockets: number } | null;
    return {
      rows: [
        { label: `file (cut at ${cutAt} B confirmed, server SIGKILL + restart)`, cells: { bytes: String(SIZE), chunks: String(SIZE / DEFAULT_CHUNK_SIZE) } },
        { label: 'chunk bytes that reached the server', cells: { bytes: String(sent), chunks: chunks(sent) } },
        { label: 're-sent (reached the server twice)', cells: { bytes: String(resent), chunks: chunks(resent) } },
        ...(queued
          ? [{ label: `in kernel queues towards the server just before the kill (${queued.sockets} sockets with unread bytes)`, cells: { bytes: String(queued.bytes), chunks: chunks(queued.bytes) } }]
          : []),
        { label: `chunk bodies handed to fetch (upper bound; ${DEFAULT_CHUNK_CONCURRENCY} in flight at the cut)`, cells: { bytes: String(handed), chunks: chunks(handed) } },
      ],
      metrics: {
        resentBytes: resent,
        resentChunks: Math.round((resent / DEFAULT_CHUNK_SIZE) * 100) / 100,
        resentUpperBoundBytes: handed - SIZE,
        resendFileBytes: SIZE,
        resendCutAtBytes: cutAt,
        ...(queued ? { resendQueuedAtCutBytes: queued.bytes } : {}),
      },
    };
  },
};
