/**
 * The engine's chunk transport under Node: what XMLHttpRequest is in the browser, over `node:http`.
 *
 * Node's fetch sends a Blob body through web streams in small pieces, which costs a whole core at
 * loopback speed. This transport sends a chunk that is a recorded disk range (disk-ranges.ts)
 * straight from the file into the socket, and any other Blob as one buffer. It reports upload
 * progress as the socket takes the bytes (so stall detection works as with XHR), keeps connections
 * alive, sends the jar's session cookie and counts the body like the jar's fetch does.
 */
import { once } from 'node:events';
import { promises as fsp } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { parseBody, type ChunkResponse, type ChunkTransport } from '../engine/transport';
import { diskRangeOf, readDiskRangeInto, type DiskRange } from './disk-ranges';
import type { CookieFetch } from './cookie-fetch';

/** Read size when sending a chunk from disk: few syscalls, little memory per request. */
const DISK_READ_BYTES = 1024 * 1024;

/**
 * Read buffers of DISK_READ_BYTES, reused across requests. A stream that allocates a fresh buffer
 * per read made ~1 GiB of garbage per GiB sent; collecting it cost the client ~1.6 CPU-seconds per
 * GiB on V8's helper threads (per-thread CPU of the 1 GiB upload bench), on a 2-core machine where
 * the server needs that CPU too.
 */
class ReadBufferPool {
  private readonly free: Buffer[] = [];

  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(DISK_READ_BYTES);
  }

  /** Only once the socket is done with it (its write callback ran). */
  give(buffer: Buffer): void {
    this.free.push(buffer);
  }
}

/**
 * Sends a disk range as the request body with two pooled buffers: one is read while the other is
 * being written, and a buffer is read into again only after its write callback (the socket no longer
 * needs its bytes). Stops early when the request is destroyed or answered before the body ended (a
 * refusal). Returns the bytes the socket took.
 */
async function sendDiskRange(
  req: http.ClientRequest,
  range: DiskRange,
  pool: ReadBufferPool,
  stopped: () => boolean,
  onProgress: (sent: number) => void,
  throttle?: (bytes: number) => Promise<void>,
): Promise<number> {
  const handle = await fsp.open(range.path, 'r');
  const buffers = [pool.take(), pool.take()];
  const writes: Array<Promise<void> | null> = [null, null];
  const reusable: boolean[] = [true, true];
  let sent = 0;
  // Settles when the socket took the bytes, or fails (destroyed request); never rejects unhandled.
  const write = (data: Buffer, slot: number): Promise<void> => {
    reusable[slot] = false;
    return new Promise<void>((resolve, reject) => {
      req.write(data, (error) => {
        if (error) return reject(error);
        reusable[slot] = true;
        sent += data.length;
        onProgress(sent);
        resolve();
      });
    });
  };
  const gone = Promise.race([once(req, 'close'), once(req, 'error')]).catch(() => undefined);
  try {
    for (let position = range.start, slot = 0; position < range.end; slot ^= 1) {
      const previous = writes[slot];
      // The buffer is free once its earlier write is done; a request closed meanwhile ends the loop.
      if (previous) await Promise.race([previous, gone]);
      if (stopped() || !reusable[slot]) break;
      const length = Math.min(DISK_READ_BYTES, range.end - position);
      if (throttle) await throttle(length);
      if (stopped()) break;
      const buffer = buffers[slot]!;
      await readDiskRangeInto(handle, buffer, position, length, range);
      const data = buffer.subarray(0, length);
      if (stopped()) break;
      const pending = write(data, slot);
      pending.catch(() => undefined); // awaited on the next use of the slot, or below
      writes[slot] = pending;
      position += length;
    }
    await Promise.race([Promise.all(writes.filter(Boolean)), gone]);
  } finally {
    await handle.close();
    // A buffer whose write never finished may still be referenced by the socket: let it go.
    buffers.forEach((buffer, slot) => reusable[slot] && pool.give(buffer));
  }
  return sent;
}

export interface NodeTransportOptions {
  /** Waits before each piece of a body goes out (the sync's upload bandwidth limit). */
  throttle?: (bytes: number, signal: AbortSignal) => Promise<void>;
}

export function createNodeChunkTransport(jar: CookieFetch, options: NodeTransportOptions = {}): ChunkTransport {
  const agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true }),
  };
  const pool = new ReadBufferPool();
  return async (request) => {
    const { signal } = request;
    signal.throwIfAborted();
    const url = new URL(request.url);
    const client = url.protocol === 'https:' ? https : http;
    const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:'];
    const headers: Record<string, string | number> = { ...request.headers, 'content-length': request.body.size };
    const cookie = jar.cookie();
    if (cookie) headers.cookie = cookie;
    jar.countRequest(request.url, request.body.size);

    const range = diskRangeOf(request.body);
    const inMemory = range && range.end > range.start ? null : Buffer.from(await request.body.arrayBuffer());
    const req = client.request(url, { method: 'POST', headers, agent });
    const onAbort = () => req.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    let cutShort = false;
    try {
      const answered = once(req, 'response') as Promise<[http.IncomingMessage]>;
      answered.catch(() => undefined); // awaited below; an early failure must not go unhandled meanwhile
      if (inMemory) {
        if (options.throttle) await options.throttle(inMemory.length, signal);
        req.end(inMemory);
        request.onProgress(inMemory.length);
      } else {
        let answeredEarly = false;
        void answered.then(() => (answeredEarly = true), () => undefined);
        // Destroyed (error, abort) or answered before the body ended (a refusal): stop writing.
        const throttle = options.throttle ? (bytes: number) => options.throttle!(bytes, signal) : undefined;
        const sent = await sendDiskRange(req, range!, pool, () => req.destroyed || answeredEarly, request.onProgress, throttle);
        // A body cut short leaves its connection mid-request: it must not carry another one.
        if (sent === range!.end - range!.start) req.end();
        else cutShort = true;
      }
      const [res] = await answered;
      jar.absorbSetCookie(res.headers['set-cookie'] ?? []);
      const parts: Buffer[] = [];
      for await (const part of res as AsyncIterable<Buffer>) parts.push(part);
      // The read can end quietly with the answer's body missing: aborted after the answer arrived and
      // before its body was read (the engine cancels a chunk when a sibling fails; this one's refusal was
      // in while its body still went out), ClientRequest.destroy drops the body and the read just ends.
      // That was answered as a 500 without its coded body (cluster-faults, during PostgreSQL's restart).
      // The browser's XHR reports an abort as an abort, never as an answer; so does this. (An answer cut
      // by the connection is already an error of the read: node-transport.test.ts.)
      if (signal.aborted) throw signal.reason;
      if (cutShort) req.destroy();
      const answer: ChunkResponse = {
        status: res.statusCode ?? 0,
        body: parseBody(Buffer.concat(parts).toString('utf8')),
        header: (name) => {
          const value = res.headers[name.toLowerCase()];
          return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
        },
      };
      return answer;
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      req.destroy();
      throw error;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  };
}
