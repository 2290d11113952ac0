/**
 * The engine's HTTP calls. Every request carries the session cookie and the client headers (spec §7);
 * every answer other than 2xx becomes an ApiCallError with the failure classified once, in common/
 * (a 429 becomes a RateLimitedError carrying Retry-After). `fetch` and the chunk transport are
 * injected so tests can play the server and a Node replay can point anywhere.
 */
import { clientHeaders } from '../../common/api/client-env';
import { type AnyEndpoint, type DataOf, type InputOf, type QueryOf } from '../../common/api/endpoint';
import type { ApiOk } from '../../common/api/envelope';
import { ApiCallError, classifyFailure } from '../../common/api/failure';
import type { EngineConfig } from '../../common/transfer/engine-api';
import { parseBody, type ChunkTransport } from './transport';

export type FetchFn = (input: string, init: RequestInit) => Promise<Response>;

/** The request never got an HTTP answer (offline, DNS, connection reset...). Always worth retrying. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super(`network request failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'NetworkError';
  }
}

export const HTTP_TOO_MANY_REQUESTS = 429;

/** HTTP 429: the server asks us to slow down, after `retryAfterMs` when it said so. */
export class RateLimitedError extends ApiCallError {
  constructor(
    body: unknown,
    readonly retryAfterMs: number | null,
  ) {
    super(HTTP_TOO_MANY_REQUESTS, classifyFailure(HTTP_TOO_MANY_REQUESTS, body), body);
    this.name = 'RateLimitedError';
  }
}

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfterMs(value: string | null, now: number = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function failureOf(status: number, body: unknown, header: (name: string) => string | null): ApiCallError {
  if (status === HTTP_TOO_MANY_REQUESTS) return new RateLimitedError(body, parseRetryAfterMs(header('Retry-After')));
  return new ApiCallError(status, classifyFailure(status, body), body);
}

export interface ApiClient {
  /**
   * Calls a declared endpoint (common/api/endpoints): method and path from the entry, the input sent
   * as its JSON body, or for a query-encoded entry (GET) as its query string; the answer typed by it.
   */
  send<E extends AnyEndpoint>(entry: E, input: InputOf<E>, signal: AbortSignal): Promise<DataOf<E>>;
  /**
   * Sends raw bytes (a chunk, a batch) to a raw-encoded entry, its query fields in the URL. `'quiet'`
   * instead of a progress callback: no upload progress events, the caller watches the request
   * (ChunkRequest.quiet).
   */
  sendBytes<E extends AnyEndpoint>(
    entry: E,
    query: QueryOf<E>,
    body: Blob,
    headers: Record<string, string>,
    signal: AbortSignal,
    onProgress?: ((bytesSent: number) => void) | 'quiet',
  ): Promise<DataOf<E>>;
  getJson<T>(path: string, signal: AbortSignal): Promise<T>;
  postJson<T>(path: string, body: unknown, signal: AbortSignal): Promise<T>;
  /** POSTs raw bytes (a chunk) with extra headers, reporting bytes sent through `onProgress`. */
  postBytes<T>(path: string, body: Blob, headers: Record<string, string>, signal: AbortSignal, onProgress?: ((bytesSent: number) => void) | 'quiet'): Promise<T>;
}

/** The path with the query's defined fields appended (`?a=1&b=x`). */
export function withQuery(path: string, query: object | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) params.append(name, String(value));
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

/** `getConfig` is read per request, so a later `configure()` applies to the next call. */
export function createApiClient(fetchFn: FetchFn, getConfig: () => EngineConfig, transport?: ChunkTransport): ApiClient {
  async function send(method: 'GET' | 'POST', path: string, init: { body?: BodyInit; headers?: Record<string, string> }, signal: AbortSignal): Promise<Response> {
    const config = getConfig();
    try {
      return await fetchFn(config.apiBase + path, {
        method,
        credentials: 'include',
        headers: { ...clientHeaders(config.platform, config.networkEnv), ...init.headers },
        body: init.body,
        signal,
      });
    } catch (err) {
      // An abort is ours (pause, cancel, shutdown), not the network's: pass the reason through.
      if (signal.aborted) throw signal.reason;
      throw new NetworkError(err);
    }
  }

  async function call<T>(method: 'GET' | 'POST', path: string, init: { body?: BodyInit; headers?: Record<string, string> }, signal: AbortSignal): Promise<T> {
    const response = await send(method, path, init, signal);
    let body: unknown;
    try {
      body = parseBody(await response.text());
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      throw new NetworkError(err);
    }
    if (!response.ok) throw failureOf(response.status, body, (n) => response.headers.get(n));
    return (body as ApiOk<T>).data;
  }

  async function postBytes<T>(path: string, body: Blob, headers: Record<string, string>, signal: AbortSignal, onProgress?: ((bytesSent: number) => void) | 'quiet'): Promise<T> {
    if (!transport) return call<T>('POST', path, { body, headers: { 'Content-Type': 'application/octet-stream', ...headers } }, signal);
    const config = getConfig();
    let answer;
    try {
      answer = await transport({
        url: config.apiBase + path,
        body,
        headers: { ...clientHeaders(config.platform, config.networkEnv), 'Content-Type': 'application/octet-stream', ...headers },
        signal,
        onProgress: typeof onProgress === 'function' ? onProgress : () => undefined,
        quiet: onProgress === 'quiet',
      });
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      if (err instanceof Error && err.name === 'StallError') throw err;
      throw new NetworkError(err);
    }
    if (answer.status < 200 || answer.status >= 300) throw failureOf(answer.status, answer.body, answer.header);
    return (answer.body as ApiOk<T>).data;
  }

  function sendEntry<E extends AnyEndpoint>(entry: E, input: InputOf<E>, signal: AbortSignal): Promise<DataOf<E>> {
    if (entry.method !== 'GET' && entry.method !== 'POST') throw new Error(`${entry.path}: the engine sends GET and POST only`);
    if (entry.encoding === 'query') return call(entry.method, withQuery(entry.path, input ?? undefined), {}, signal);
    if (entry.encoding !== 'json') throw new Error(`${entry.path}: ${entry.encoding} bodies are not sent as JSON`);
    return call(entry.method, entry.path, { body: JSON.stringify(input ?? {}), headers: { 'Content-Type': 'application/json' } }, signal);
  }

  return {
    send: sendEntry,
    sendBytes: (entry, query, body, headers, signal, onProgress) => {
      if (entry.encoding !== 'raw') throw new Error(`${entry.path}: not a raw-body endpoint`);
      return postBytes(withQuery(entry.path, query ?? undefined), body, headers, signal, onProgress);
    },
    getJson: (path, signal) => call('GET', path, {}, signal),
    postJson: (path, body, signal) => call('POST', path, { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }, signal),
    postBytes,
  };
}
