import type { ServerResponse } from 'node:http';
import { isReclaimable } from '../storage/chunked-read-stream';

type WriteCallback = (error?: Error | null) => void;

/**
 * Hands each piece of `source` back to it (ReclaimableReads) once `res` has finished writing it: the
 * write's callback runs when the socket has handed the bytes to the kernel (or dropped them with the
 * connection), never while they may still be read. `res` is piped to by Fastify, so its writes are
 * observed here rather than by the pipe. A source that cannot take pieces back is left alone.
 */
export function reclaimAfterWrite(res: ServerResponse, source: unknown): void {
  if (!isReclaimable(source)) return;
  const write = res.write as (...args: unknown[]) => boolean;
  res.write = function writeThenReclaim(this: ServerResponse, chunk: unknown, encodingOrCallback?: unknown, maybeCallback?: unknown): boolean {
    if (!(chunk instanceof Uint8Array)) return write.apply(this, [chunk, encodingOrCallback, maybeCallback]);
    const callback = (typeof encodingOrCallback === 'function' ? encodingOrCallback : maybeCallback) as WriteCallback | undefined;
    const encoding = typeof encodingOrCallback === 'string' ? (encodingOrCallback as BufferEncoding) : undefined;
    const done: WriteCallback = (error) => {
      source.reclaim(chunk);
      callback?.(error);
    };
    return write.apply(this, encoding === undefined ? [chunk, done] : [chunk, encoding, done]);
  } as ServerResponse['write'];
}
