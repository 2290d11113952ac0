import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Refusals a client can read (issue 35, finding 5). Two ways a client used to lose the answer:
 *
 * 1. `Expect: 100-continue` (curl sends it for large bodies): Node answered `100 Continue` to every
 *    such request at once, so the client started sending the body the route was about to refuse
 *    without reading (no session, Content-Length over the limit, an unknown upload, a bad digest
 *    header). Now `100 Continue` goes out when something first reads the body, and only then: a
 *    refusal decided on the headers is the first thing the client hears, and it sends no body.
 *
 * 2. An answer given before the body's end. Where Node then closed the connection (Connection:
 *    close, an unsent `100 Continue`), the body bytes still arriving met a closed socket, the kernel
 *    reset the connection and threw away the answer the client had not read yet: EPIPE or a reset,
 *    never the 413 or 400. Now the server lingers (as nginx's lingering_close and Apache's lingering
 *    close do): it half-closes after the answer and keeps reading and discarding the body until its
 *    end, the client's close, or a bound (LINGER: bytes, total time, silence) — a hostile body is
 *    never read without end. On a kept-alive connection the rest of the body is discarded within the
 *    same bounds, and the connection is cut when one is passed.
 *
 * Node-level on purpose: it holds for every route, for Fastify's own refusals (body limit, unknown
 * route) and for answers given by hooks, whichever code answered.
 */
export interface LingerLimits {
  /** Body bytes discarded after the answer before the connection is cut. */
  maxBytes: number;
  /** Time after the answer before the connection is cut. */
  maxMs: number;
  /** Silence (no body bytes) after the answer before the connection is cut. */
  idleMs: number;
}

/** nginx's lingering_time (30 s) and lingering_timeout (5 s); 64 MiB covers a 16 MiB chunk several times. */
export const LINGER: LingerLimits = { maxBytes: 64 * 1024 * 1024, maxMs: 30_000, idleMs: 5_000 };

/** The request announced a body (a length above 0, or chunked) that has not fully arrived. */
function bodyStillComing(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

type Readish = IncomingMessage & { _read(size: number): void };

/** Sends `100 Continue` when the body is first read (never after the answer began). */
function continueOnFirstRead(req: IncomingMessage, res: ServerResponse): void {
  const request = req as Readish;
  const read = request._read;
  request._read = function firstRead(this: Readish, size: number) {
    delete (this as Partial<Readish>)._read; // back to IncomingMessage's own
    if (!res.headersSent && !res.writableEnded) res.writeContinue();
    read.call(this, size);
  };
}

type Closable = Socket & { destroySoon(): void };

/**
 * Called as the answer is finished while the body is still coming: the rest of the body is read and
 * discarded within `limits`. When Node closes the connection meanwhile (destroySoon), it only
 * half-closes: the client reads the answer and the end of the stream, and its close (or the body's
 * end) ends the linger; passing a bound cuts the connection.
 */
function lingerAfterAnswer(req: IncomingMessage, limits: LingerLimits): void {
  const socket = req.socket as Closable;
  let closeWanted = false;
  let done = false;
  let drained = 0;
  const finish = (cut: boolean) => {
    if (done) return;
    done = true;
    clearTimeout(total);
    clearTimeout(idle);
    req.off('data', count);
    delete (socket as Partial<Closable>).destroySoon; // back to net.Socket's own
    if (cut) socket.destroy();
    else if (closeWanted && !socket.destroyed) socket.destroySoon();
  };
  const count = (piece: Buffer) => {
    drained += piece.length;
    if (drained > limits.maxBytes) return finish(true);
    idle.refresh();
  };
  const total = setTimeout(() => finish(true), limits.maxMs);
  const idle = setTimeout(() => finish(true), limits.idleMs);
  total.unref();
  idle.unref();
  socket.destroySoon = function lingeringClose(this: Closable) {
    closeWanted = true;
    if (this.writable) this.end();
  };
  socket.once('close', () => finish(false));
  req.once('end', () => finish(false));
  // Whoever read the body before the answer has stopped; the rest is counted here and dropped.
  req.unpipe();
  req.removeAllListeners('data');
  // An async iterator waiting for its next piece (a read stopped mid-body: body-source.ts) listens to
  // 'readable', which keeps the stream from flowing: nothing was drained and the linger cut the connection.
  req.removeAllListeners('readable');
  req.on('data', count);
  req.resume();
}

export function installReadableRefusals(server: Server, limits: LingerLimits = LINGER): void {
  // Registered before Fastify's handler, so the answer's end is watched however early it comes.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    res.once('prefinish', () => {
      if (bodyStillComing(req)) lingerAfterAnswer(req, limits);
    });
  });
  // With a checkContinue listener Node leaves `100 Continue` to us and hands the request over here.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    continueOnFirstRead(req, res);
    server.emit('request', req, res);
  });
}
