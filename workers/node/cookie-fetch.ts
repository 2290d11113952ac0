/**
 * Node's fetch with a one-cookie jar (the `sid` session cookie), as a browser would keep it, plus
 * counters of the chunk bytes handed to fetch or to the chunk transport (what the benches and the
 * sync's "0 bytes sent" check read).
 */
import { routePath } from '../../common/api/endpoint';
import { UPLOADS } from '../../common/api/endpoints/uploads';
import type { FetchFn } from '../engine/api-client';

/** Counts what the engine handed to fetch or the chunk transport for chunk uploads (every attempt, whole body size). */
export interface FetchCounters {
  chunkRequests: number;
  chunkBytes: number;
  /** Chunk bytes per upload session id (the `uploadId` query parameter). */
  chunkBytesByUpload: Map<string, number>;
  requests: number;
}

export interface CookieFetch {
  fetch: FetchFn;
  /** 'sid=...' or ''. */
  cookie(): string;
  setCookie(cookie: string): void;
  /** Keeps the session cookie of a response's Set-Cookie headers (for requests sent without `fetch`). */
  absorbSetCookie(setCookies: readonly string[]): void;
  /** Counts one request to `url` with a body of `bodyBytes` (done by `fetch`; call it for others). */
  countRequest(url: string, bodyBytes: number): void;
  counters: FetchCounters;
  resetCounters(): void;
}

function bodySize(body: BodyInit | null | undefined): number {
  if (!body) return 0;
  if (body instanceof Blob) return body.size;
  if (typeof body === 'string') return Buffer.byteLength(body);
  if (body instanceof ArrayBuffer) return body.byteLength;
  if (ArrayBuffer.isView(body)) return body.byteLength;
  return 0;
}

/** The session cookie ('sid=...', or '' once cleared) after a response's Set-Cookie headers. */
export function sessionCookieAfter(current: string, setCookies: readonly string[]): string {
  let cookie = current;
  for (const c of setCookies) {
    const [pair] = c.split(';');
    if (pair?.startsWith('sid=')) cookie = pair === 'sid=' ? '' : pair;
  }
  return cookie;
}

/** Node's fetch with a cookie jar holding the session cookie, as a browser would keep it. */
export function createCookieFetch(initialCookie = ''): CookieFetch {
  let cookie = initialCookie;
  const counters: FetchCounters = { chunkRequests: 0, chunkBytes: 0, chunkBytesByUpload: new Map(), requests: 0 };
  const countRequest = (input: string, bytes: number) => {
    counters.requests++;
    const url = new URL(input);
    if (url.pathname !== routePath(UPLOADS.chunkUpload)) return;
    const uploadId = url.searchParams.get('uploadId') ?? '';
    counters.chunkRequests++;
    counters.chunkBytes += bytes;
    counters.chunkBytesByUpload.set(uploadId, (counters.chunkBytesByUpload.get(uploadId) ?? 0) + bytes);
  };
  const absorbSetCookie = (setCookies: readonly string[]) => {
    cookie = sessionCookieAfter(cookie, setCookies);
  };
  const fetchFn: FetchFn = async (input, init) => {
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    countRequest(input, bodySize(init.body));
    const response = await fetch(input, { ...init, headers });
    absorbSetCookie(response.headers.getSetCookie());
    return response;
  };
  return {
    fetch: fetchFn,
    cookie: () => cookie,
    setCookie: (c) => {
      cookie = c;
    },
    absorbSetCookie,
    countRequest,
    counters,
    resetCounters() {
      counters.chunkBytes = 0;
      counters.chunkRequests = 0;
      counters.requests = 0;
      counters.chunkBytesByUpload.clear();
    },
  };
}

