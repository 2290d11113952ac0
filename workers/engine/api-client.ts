/**
 * The engine's HTTP calls. Every request carries the session cookie and the client headers (spec §7);
 * every answer other than 2xx becomes an ApiCallError with the failure classified once, in common/.
 * `fetch` is injected so tests can play the server and a Node replay can point anywhere.
 */
import { clientHeaders } from '../../common/api/client-env';
import type { ApiOk } from '../../common/api/envelope';
import { ApiCallError, classifyFailure } from '../../common/api/failure';
import type { EngineConfig } from '../../common/transfer/engine-api';

export type FetchFn = (input: string, init: RequestInit) => Promise<Response>;

/** The request never got an HTTP answer (offline, DNS, connection reset...). Always worth retrying. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super(`network request failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'NetworkError';
  }
}

export interface ApiClient {
  getJson<T>(path: string, signal: AbortSignal): Promise<T>;
  postJson<T>(path: string, body: unknown, signal: AbortSignal): Promise<T>;
  /** POSTs raw bytes (a chunk) with extra headers. */
  postBytes<T>(path: string, body: Blob, headers: Record<string, string>, signal: AbortSignal): Promise<T>;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `getConfig` is read per request, so a later `configure()` applies to the next call. */
export function createApiClient(fetchFn: FetchFn, getConfig: () => EngineConfig): ApiClient {
  async function call<T>(method: 'GET' | 'POST', path: string, init: { body?: BodyInit; headers?: Record<string, string> }, signal: AbortSignal): Promise<T> {
    const config = getConfig();
    let response: Response;
    try {
      response = await fetchFn(config.apiBase + path, {
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
    let body: unknown;
    try {
      body = await readBody(response);
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      throw new NetworkError(err);
    }
    if (!response.ok) throw new ApiCallError(response.status, classifyFailure(response.status, body), body);
    return (body as ApiOk<T>).data;
  }

  return {
    getJson: (path, signal) => call('GET', path, {}, signal),
    postJson: (path, body, signal) => call('POST', path, { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }, signal),
    postBytes: (path, body, headers, signal) =>
      call('POST', path, { body, headers: { 'Content-Type': 'application/octet-stream', ...headers } }, signal),
  };
}
