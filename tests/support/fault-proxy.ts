/**
 * A fault-injecting HTTP proxy in front of the real server (loopback only).
 *
 * Every request is forwarded to `target`. Chunk uploads (API.chunkUpload) and small-file batches
 * (API.batchUpload), the requests that carry file bytes, are faulted with
 * probability `faultRate`, the kind drawn from `kinds`, all from a seeded PRNG (same seed + same
 * request order → same faults):
 *  - drop:    the connection is destroyed before anything is forwarded;
 *  - reset:   headers and about half the body are forwarded, then both connections are destroyed;
 *  - stall:   the body is not read and nothing is answered until the client gives up (its stall
 *             timeout) — or, bounded, until `stallMs` passes, when the proxy destroys the connection;
 *  - corrupt: the whole body is forwarded with one byte flipped (the server must refuse the digest).
 *             An empty body cannot be corrupted: it is dropped instead (counted as a drop);
 *  - hold:    about half the body is forwarded, then nothing more, and the connection to the server
 *             stays open even after the client gives up (a proxy or NAT that never tells the server
 *             the client left), until the proxy closes. Not among FAULT_KINDS: asked for by name.
 * Counters say what was done and how many chunk body bytes reached the server. When the target is
 * down, requests get a 502 (the crash test restarts the server behind the proxy).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { API } from '../../common/api/paths';

export type FaultKind = 'drop' | 'reset' | 'stall' | 'corrupt' | 'hold';
export const FAULT_KINDS: readonly FaultKind[] = ['drop', 'reset', 'stall', 'corrupt'];

export interface FaultProxyOptions {
  /** e.g. http://127.0.0.1:12345 (must be loopback). */
  target: string;
  /** Share of chunk-upload requests to fault, 0..1. */
  faultRate?: number;
  kinds?: readonly FaultKind[];
  seed?: number;
  /** Longest a stalled request is held before the proxy itself cuts it. */
  stallMs?: number;
  /**
   * Never fault the same chunk (uploadId + index) twice in a row. Off by default; the fault test
   * turns it on for 'corrupt' only when the engine retries a digest mismatch just once.
   */
  maxConsecutiveFaultsPerChunk?: number;
  /** Fault the first N chunk requests whatever the rate (kinds taking turns); later ones at `faultRate`. */
  faultFirst?: number;
  /**
   * Forward chunk bodies at most this fast (bytes per second, per request). A test that must act while
   * an upload is under way (pause it once the server recorded a chunk) gets time to see it, whatever
   * the machine's load.
   */
  chunkBytesPerSecond?: number;
}

export interface FaultCounters {
  requests: number;
  chunkRequests: number;
  faults: Record<FaultKind, number>;
  /** Stalls ended by the client (it gave up) vs by the proxy's own bound. */
  stallsEndedByClient: number;
  stallsEndedByProxy: number;
  /** Chunk body bytes written to the server (faulted requests' partial bodies included). */
  chunkBytesForwarded: number;
  /** Chunk requests forwarded whole and answered 2xx by the server. */
  chunkRequestsOk: number;
  /** Chunk body bytes of those 2xx requests. */
  chunkBytesOk: number;
  /** Requests answered 502 because the server could not be reached. */
  upstreamErrors: number;
}

export interface FaultProxy {
  url: string;
  counters: FaultCounters;
  setFaultRate(rate: number): void;
  resetCounters(): void;
  close(): Promise<void>;
}

/** mulberry32: small, fast, good enough for choosing faults. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function emptyCounters(): FaultCounters {
  return {
    requests: 0,
    chunkRequests: 0,
    faults: { drop: 0, reset: 0, stall: 0, corrupt: 0, hold: 0 },
    stallsEndedByClient: 0,
    stallsEndedByProxy: 0,
    chunkBytesForwarded: 0,
    chunkRequestsOk: 0,
    chunkBytesOk: 0,
    upstreamErrors: 0,
  };
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  if (target.hostname !== '127.0.0.1' && target.hostname !== 'localhost') throw new Error('the fault proxy only forwards to loopback');
  const random = seededRandom(options.seed ?? 1);
  const kinds = options.kinds ?? FAULT_KINDS;
  const stallMs = options.stallMs ?? 10_000;
  let faultRate = options.faultRate ?? 0;
  const counters = emptyCounters();
  const consecutive = new Map<string, number>();
  let faultTurn = 0;
  const kindOffset = Math.floor(random() * kinds.length);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const timers = new Set<NodeJS.Timeout>();

  function chooseFault(chunkKey: string, bodyLength: number): FaultKind | null {
    const roll = counters.chunkRequests <= (options.faultFirst ?? 0) ? -1 : random();
    if (roll >= faultRate) {
      consecutive.delete(chunkKey);
      return null;
    }
    const limit = options.maxConsecutiveFaultsPerChunk;
    const already = consecutive.get(chunkKey) ?? 0;
    if (limit !== undefined && already >= limit) {
      consecutive.delete(chunkKey);
      return null;
    }
    consecutive.set(chunkKey, already + 1);
    // Kinds take turns from a seeded starting point, so every kind shows up once there are enough faults.
    let kind = kinds[(kindOffset + faultTurn++) % kinds.length]!;
    if (kind === 'corrupt' && bodyLength === 0) kind = 'drop';
    return kind;
  }

  const server = http.createServer((req, res) => {
    counters.requests++;
    const url = new URL(req.url ?? '/', 'http://proxy');
    const isChunk = req.method === 'POST' && (url.pathname === API.chunkUpload || url.pathname === API.batchUpload);
    const bodyLength = Number(req.headers['content-length'] ?? 0);
    let fault: FaultKind | null = null;
    if (isChunk) {
      counters.chunkRequests++;
      fault = chooseFault(`${url.searchParams.get('uploadId')}:${url.searchParams.get('index')}`, bodyLength);
      if (fault) counters.faults[fault]++;
    }

    if (fault === 'drop') {
      req.socket.destroy();
      return;
    }
    if (fault === 'stall') {
      req.pause();
      let ended = false;
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (ended) return;
        ended = true;
        counters.stallsEndedByProxy++;
        req.socket.destroy();
      }, stallMs);
      timers.add(timer);
      req.socket.once('close', () => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        timers.delete(timer);
        counters.stallsEndedByClient++;
      });
      return;
    }

    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        if (isChunk && fault === null && answer.statusCode !== undefined && answer.statusCode < 300) {
          counters.chunkRequestsOk++;
          counters.chunkBytesOk += bodyLength;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    let cutByUs = false;
    upstream.on('error', () => {
      if (cutByUs || held) return;
      counters.upstreamErrors++;
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'application/json', connection: 'close' });
        res.end(JSON.stringify({ errorCode: 502, errorMessage: 'proxy: server unreachable' }));
      } else {
        res.destroy();
      }
    });
    // The client left before its whole body was passed on: the server's side is cut too. Not `complete`:
    // a request paused here (the server reading slowly) may hold the last bytes of a complete body, and
    // Node discards them when the client closes, with no 'end'. The upstream then waited for them for
    // good, holding the server's writer of that chunk (seen as a pipelined upload that never settled).
    req.on('close', () => {
      if (!req.readableEnded && fault !== 'hold') {
        cutByUs = true;
        upstream.destroy();
      }
    });

    let forwarded = 0;
    const resetAt = fault === 'reset' ? Math.floor(bodyLength / 2) : Infinity;
    const holdAt = fault === 'hold' ? Math.floor(bodyLength / 2) : Infinity;
    let held = false;
    const flipAt = fault === 'corrupt' ? Math.floor(random() * bodyLength) : -1;
    req.on('data', (data: Buffer) => {
      if (held) return;
      let piece = data;
      if (flipAt >= forwarded && flipAt < forwarded + piece.length) {
        piece = Buffer.from(piece);
        const at = flipAt - forwarded;
        piece[at] = piece[at]! ^ 0xff;
      }
      if (forwarded + piece.length > holdAt) {
        const head = piece.subarray(0, Math.max(0, holdAt - forwarded));
        if (head.length) upstream.write(head);
        if (isChunk) counters.chunkBytesForwarded += head.length;
        forwarded = holdAt;
        held = true;
        req.pause(); // nothing more gets through; the upstream is left as it is
        return;
      }
      if (forwarded + piece.length > resetAt) {
        const head = piece.subarray(0, Math.max(0, resetAt - forwarded));
        if (head.length) upstream.write(head);
        if (isChunk) counters.chunkBytesForwarded += head.length;
        cutByUs = true;
        upstream.destroy();
        req.socket.destroy();
        forwarded = resetAt;
        return;
      }
      forwarded += piece.length;
      if (isChunk) counters.chunkBytesForwarded += piece.length;
      const drained = upstream.write(piece);
      const throttleMs = isChunk && options.chunkBytesPerSecond ? (piece.length / options.chunkBytesPerSecond) * 1000 : 0;
      if (drained && throttleMs < 1) return;
      req.pause();
      let waiting = (drained ? 0 : 1) + (throttleMs >= 1 ? 1 : 0);
      const resumeWhenBothDone = () => {
        if (--waiting === 0 && !req.destroyed) req.resume();
      };
      if (!drained) upstream.once('drain', resumeWhenBothDone);
      if (throttleMs >= 1) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resumeWhenBothDone();
        }, throttleMs);
        timers.add(timer);
      }
    });
    req.on('end', () => {
      if (fault === 'hold') return; // a body shorter than a read: what arrived is held too
      if (fault === 'reset') {
        // Body shorter than a read: cut now, before the server can answer.
        cutByUs = true;
        upstream.destroy();
        req.socket.destroy();
        return;
      }
      upstream.end();
    });
  });
  server.keepAliveTimeout = 5_000;
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counters,
    setFaultRate(rate) {
      faultRate = rate;
    },
    resetCounters() {
      Object.assign(counters, emptyCounters());
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      // Bounded: a connection that will not close does not hold the caller.
      await Promise.race([closed, new Promise((r) => setTimeout(r, 2_000).unref())]);
    },
  };
}
