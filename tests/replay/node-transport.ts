/**
 * The engine's chunk transport under Node: what XMLHttpRequest is in the browser, over `node:http`.
 *
 * Node's fetch sends a Blob body through web streams in small pieces, which costs a whole core at
 * loopback speed. This transport streams a chunk that is a recorded disk range (disk-ranges.ts)
 * straight from the file into the socket, and any other Blob as one buffer. It reports upload
 * progress as bytes are handed to the socket (so stall detection works as with XHR), keeps
 * connections alive, sends the jar's session cookie and counts the body like the jar's fetch does.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { parseBody, type ChunkResponse, type ChunkTransport } from '../../workers/engine/transport';
import { diskRangeOf } from './disk-ranges';
import type { CookieFetch } from './node-runtime';

/** Read size when streaming a chunk from disk: few syscalls, little memory per request. */
const DISK_READ_BYTES = 1024 * 1024;

/** The body as a stream of Buffers: from the file when the Blob is a recorded disk range. */
async function bodyStream(body: Blob): Promise<Readable | Buffer> {
  const range = diskRangeOf(body);
  if (range && range.end > range.start) {
    return fs.createReadStream(range.path, { start: range.start, end: range.end - 1, highWaterMark: DISK_READ_BYTES });
  }
  return Buffer.from(await body.arrayBuffer());
}

export function createNodeChunkTransport(jar: CookieFetch): ChunkTransport {
  const agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true }),
  };
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

    const source = await bodyStream(request.body);
    const req = client.request(url, { method: 'POST', headers, agent });
    const onAbort = () => req.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const answered = once(req, 'response') as Promise<[http.IncomingMessage]>;
      answered.catch(() => undefined); // awaited below; an early failure must not go unhandled meanwhile
      let sent = 0;
      if (Buffer.isBuffer(source)) {
        req.end(source);
        sent = source.length;
        request.onProgress(sent);
      } else {
        try {
          let answeredEarly = false;
          void answered.then(() => (answeredEarly = true), () => undefined);
          for await (const piece of source as AsyncIterable<Buffer>) {
            // Destroyed (error, abort) or answered before the body ended (a refusal): stop writing.
            // Checked before waiting: a 'close' that already happened would never come again.
            if (req.destroyed || answeredEarly) break;
            if (!req.write(piece) && !req.destroyed) await Promise.race([once(req, 'drain'), once(req, 'close'), answered]);
            sent += piece.length;
            request.onProgress(sent);
          }
        } finally {
          source.destroy();
        }
        req.end();
      }
      const [res] = await answered;
      jar.absorbSetCookie(res.headers['set-cookie'] ?? []);
      const parts: Buffer[] = [];
      for await (const part of res as AsyncIterable<Buffer>) parts.push(part);
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
