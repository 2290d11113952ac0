/**
 * Sending one chunk body with byte progress, and aborting a request that stalls.
 *
 * `ChunkTransport` is an engine dependency: the browser default uses XMLHttpRequest (available in
 * dedicated workers, and the only API with upload progress events); where there is no XHR (Node) the
 * fetch transport sends the body in one go and reports progress when it is accepted. Either way
 * `withStallDetection` aborts a request that shows no progress for the stall timeout (or, once its
 * body has gone, no answer for a longer bound) — except a quiet request (`ChunkRequest.quiet`: no
 * progress events at all), which its caller watches itself.
 */
import { ANSWER_TIMEOUT_STALLS } from '../../common/transfer/constants';
import type { FetchFn } from './api-client';

export interface ChunkRequest {
  url: string;
  body: Blob;
  headers: Record<string, string>;
  signal: AbortSignal;
  /** Total bytes of the body sent so far (monotonic within one request). */
  onProgress(bytesSent: number): void;
  /**
   * No upload progress events: Chromium's network service reports an XHR's upload progress (~10 times
   * a second, each an event the engine's thread handles) only when `xhr.upload` has a listener at
   * `send()`. The caller learns how far the request got another way (whole-file.ts: what the server
   * recorded) and aborts it through `signal` when that stalls; `withStallDetection` leaves it alone.
   */
  quiet?: boolean;
}

export interface ChunkResponse {
  status: number;
  /** Parsed JSON, or the text when it is not JSON, or null when empty. */
  body: unknown;
  header(name: string): string | null;
}

/** Rejects with the abort reason when aborted, with any other error when no HTTP answer came. */
export type ChunkTransport = (request: ChunkRequest) => Promise<ChunkResponse>;

/** The request showed no progress for the stall timeout and was aborted (retryable). */
export class StallError extends Error {
  constructor(timeoutMs: number) {
    super(`no progress for ${timeoutMs} ms`);
    this.name = 'StallError';
  }
}

export function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** XMLHttpRequest transport: reports upload progress as the browser sends the body. */
export function createXhrTransport(): ChunkTransport {
  return (request) =>
    new Promise<ChunkResponse>((resolve, reject) => {
      const { signal } = request;
      if (signal.aborted) return reject(signal.reason as unknown);
      const xhr = new XMLHttpRequest();
      xhr.open('POST', request.url);
      xhr.withCredentials = true;
      for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
      const onAbort = () => xhr.abort();
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = () => signal.removeEventListener('abort', onAbort);
      if (!request.quiet) xhr.upload.onprogress = (event) => request.onProgress(event.loaded);
      xhr.onload = () => {
        settle();
        resolve({ status: xhr.status, body: parseBody(xhr.responseText), header: (name) => xhr.getResponseHeader(name) });
      };
      xhr.onerror = () => {
        settle();
        reject(new TypeError('XMLHttpRequest failed'));
      };
      xhr.onabort = () => {
        settle();
        reject(signal.aborted ? (signal.reason as unknown) : new TypeError('XMLHttpRequest aborted'));
      };
      xhr.send(request.body);
    });
}

/** fetch transport (no upload progress in fetch): the whole body counts as sent once answered. */
export function createFetchTransport(fetchFn: FetchFn): ChunkTransport {
  return async (request) => {
    const response = await fetchFn(request.url, {
      method: 'POST',
      credentials: 'include',
      headers: request.headers,
      body: request.body,
      signal: request.signal,
    });
    const body = parseBody(await response.text());
    if (response.ok) request.onProgress(request.body.size);
    return { status: response.status, body, header: (name) => response.headers.get(name) };
  };
}

/** The browser's XHR transport when XMLHttpRequest exists, else fetch. */
export function defaultChunkTransport(fetchFn: FetchFn): ChunkTransport {
  return typeof (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest === 'function' ? createXhrTransport() : createFetchTransport(fetchFn);
}

/**
 * Wraps a transport so that a request is aborted, rejecting with StallError, when it shows no
 * progress for `timeoutMs` while its body goes out (none since it started, or since its last
 * progress event), or gets no answer within `answerTimeoutMs` once the whole body has gone. The wait
 * for the answer has a bound of its own, longer: after the last byte is handed to the network, bytes
 * may still be buffered on the way (socket buffers, a proxy), and the server finishes the chunk's
 * digest and makes it durable (fsync) before it answers, seconds for a large chunk on a busy disk,
 * with no progress to show meanwhile. (A transport without upload progress, fetch, reports the body
 * only with the answer: its whole request has `timeoutMs`.)
 */
export function withStallDetection(transport: ChunkTransport, timeoutMs: number, answerTimeoutMs = ANSWER_TIMEOUT_STALLS * timeoutMs): ChunkTransport {
  return async (request) => {
    // Its caller watches it (ChunkRequest.quiet): no events to arm a timer with.
    if (request.quiet) return transport(request);
    const outer = request.signal;
    outer.throwIfAborted();
    const inner = new AbortController();
    const forward = () => inner.abort(outer.reason);
    outer.addEventListener('abort', forward, { once: true });
    let stalledAfter: number | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        stalledAfter = ms;
        inner.abort(new StallError(ms));
      }, ms);
    };
    arm(timeoutMs);
    try {
      return await transport({
        ...request,
        signal: inner.signal,
        onProgress: (bytes) => {
          arm(bytes >= request.body.size ? answerTimeoutMs : timeoutMs);
          request.onProgress(bytes);
        },
      });
    } catch (error) {
      if (outer.aborted) throw outer.reason;
      if (stalledAfter !== null) throw new StallError(stalledAfter);
      throw error;
    } finally {
      clearTimeout(timer);
      outer.removeEventListener('abort', forward);
    }
  };
}
