/**
 * The one HTTP client of the web app. Every call goes through `ApiClient.request`:
 *  - adds the platform / network-environment headers (common/api/client-env.ts) and `credentials: 'include'`;
 *  - sends JSON by default, form-encoded when asked;
 *  - unwraps the `{ data }` envelope;
 *  - on a non-2xx answer classifies the failure (common/api/failure.ts), runs the spec §8 default
 *    reaction (or the caller's own `onError` instead), then throws `ApiCallError`.
 *
 * The module has no React/antd imports: navigation and notices are injected, so unit tests can check
 * every branch in Node. `src/lib/api.ts` builds the app's default instance.
 */
import { ERRORS } from '../../common/api/errors';
import { ApiCallError, classifyFailure, type ApiFailure } from '../../common/api/failure';
import { clientHeaders, type ClientPlatform, type NetworkEnv } from '../../common/api/client-env';
import { REDIRECT_QUERY_PARAM, TOAST_DURATION_SECONDS } from '../../common/constants';
import { untilAborted } from '../../common/until-aborted';
import { pathWith, type AnyEndpoint, type DataOf, type InputOf } from '../../common/api/endpoint';

export { ApiCallError };
export type { ApiFailure };

/** Visible reactions, injected (antd in the app, spies in tests). */
export interface ApiNotifier {
  /** Error toast lasting `durationSeconds`. */
  error(text: string, durationSeconds: number): void;
  /** The '登出' warning box; `onOk` runs when the user presses '退出'. */
  logoutBox(options: { title: string; content: string; okText: string; onOk: () => void }): void;
}

export interface CurrentLocation {
  pathname: string;
  search: string;
}

export interface ApiClientDeps {
  fetch: typeof fetch;
  navigate: (to: string) => void;
  notify: ApiNotifier;
  platform: ClientPlatform;
  networkEnv: NetworkEnv;
  /** Current page location (for the share-link redirect). */
  location: () => CurrentLocation;
  /**
   * The server says the session is over (401, or 400sec-core-301 ended it): the data layer wipes the
   * account's cached answers before the user is sent to log in again.
   */
  onSessionEnded?: () => void;
  /**
   * The server answered GESTURE_LOCKED (the session's 手势密码 lock is up, put up by another tab perhaps):
   * the app shows its lock screen — that, not a toast, is the reaction, whoever made the call.
   */
  onGestureLocked?: () => void;
  /** Prefix of every path; '' = same origin. */
  baseUrl?: string;
}

export type ErrorHandler = (failure: ApiFailure, error: ApiCallError) => void;

export interface RequestOptions {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
  /** JSON body (default) or, with `form: true`, form-encoded fields. */
  body?: unknown;
  form?: boolean;
  /** Appended to the path as a query string. */
  query?: Record<string, string | number | boolean | null | undefined>;
  /** Replaces the spec §8 default reaction. The call still throws ApiCallError afterwards. */
  onError?: ErrorHandler;
  /**
   * 400 error codes the caller answers itself (e.g. a conflict it turns into a dialog): no default
   * reaction for them; every other failure still gets it. The call throws ApiCallError either way.
   */
  quietCodes?: readonly string[];
  signal?: AbortSignal;
  /** Extra request headers (e.g. the outbox's client operation id). */
  headers?: Record<string, string>;
  /** A file sent as the raw body (application/octet-stream) instead of `body`. */
  raw?: Blob;
}

/** Options of `api.call`: what the declaration does not fix. */
export type CallOptions = Omit<RequestOptions, 'method' | 'body' | 'form' | 'query'> & {
  /** Values of the path's `:name` parameters. */
  params?: Record<string, string>;
};

/** `api.call(entry)` for entries that take no input, `api.call(entry, input)` for the others. */
export type CallArgs<E extends AnyEndpoint> = undefined extends InputOf<E> ? [input?: InputOf<E>, options?: CallOptions] : [input: InputOf<E>, options?: CallOptions];

export interface ApiClient {
  /**
   * Calls a declared endpoint (common/api/endpoints): its method, path and encoding come from the
   * declaration, the input (its body, or for GET its query) and the answer are typed by it.
   */
  call<E extends AnyEndpoint>(endpoint: E, ...args: CallArgs<E>): Promise<DataOf<E>>;
  request<T>(path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: Omit<RequestOptions, 'method' | 'body' | 'form'>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  /** Form-encoded POST. */
  postForm<T>(path: string, fields: Record<string, string>, options?: Omit<RequestOptions, 'method' | 'body' | 'form'>): Promise<T>;
  /**
   * Sends now a request a page is about to make (at boot, before the page has rendered): the first
   * identical request within EARLY_ANSWER_TTL_MS takes its answer instead of asking again. Nothing
   * reacts to the answer until then — an error is the taker's to handle, as if it had asked itself.
   */
  prefetch(path: string, options?: Omit<RequestOptions, 'signal' | 'onError' | 'quietCodes'>): void;
  /** `prefetch` of a declared endpoint: sends now the request `api.call(endpoint, input)` will make. */
  prefetchCall<E extends AnyEndpoint>(endpoint: E, ...args: CallArgs<E>): void;
}

/** How long an answer asked for early waits for its request; an older one could be out of date. */
export const EARLY_ANSWER_TTL_MS = 10_000;

export const LOGIN_PATH = '/login';
export const DOWNLOAD_EXCEEDED_PATH = '/downloadExceeded';
/** Pages reached through a share link: a 401 there returns to them after login (spec §4/§8). */
export const SHARE_LINK_PATHS = ['/openShareLink', '/shareLink', '/downLoadM'] as const;

export const LOGOUT_BOX = { title: '登出', okText: '退出' } as const;

function isShareLinkPath(pathname: string): boolean {
  return SHARE_LINK_PATHS.some((p) => pathname === p || pathname.startsWith(p + '/'));
}

/** Where a 401 sends the user: /login, plus `?redirect=` when the current page is a share link. */
export function loginUrlFor(location: CurrentLocation): string {
  if (!isShareLinkPath(location.pathname)) return LOGIN_PATH;
  const current = location.pathname + location.search;
  return `${LOGIN_PATH}?${REDIRECT_QUERY_PARAM}=${encodeURIComponent(current)}`;
}

function withQuery(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.append(k, String(v));
  const qs = params.toString();
  if (!qs) return path;
  return path + (path.includes('?') ? '&' : '?') + qs;
}

function formEncode(fields: unknown): string {
  const params = new URLSearchParams();
  if (fields && typeof fields === 'object') {
    for (const [k, v] of Object.entries(fields as Record<string, unknown>)) {
      if (v !== undefined && v !== null) params.append(k, String(v));
    }
  }
  return params.toString();
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function unwrap<T>(body: unknown): T {
  if (body && typeof body === 'object' && 'data' in body) return (body as { data: T }).data;
  return body as T;
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  const baseUrl = deps.baseUrl ?? '';
  /** One '登出' box at a time, even when several calls fail together. */
  let logoutBoxOpen = false;

  function react(failure: ApiFailure): void {
    switch (failure.kind) {
      case 'sessionTerminated':
        deps.onSessionEnded?.();
        if (logoutBoxOpen) return;
        logoutBoxOpen = true;
        deps.notify.logoutBox({
          title: LOGOUT_BOX.title,
          content: failure.errorMessage,
          okText: LOGOUT_BOX.okText,
          onOk: () => {
            logoutBoxOpen = false;
            deps.navigate(LOGIN_PATH);
          },
        });
        return;
      case 'badRequest':
        deps.notify.error(failure.errorMessage || failure.errorCode, TOAST_DURATION_SECONDS);
        return;
      case 'unauthorized': {
        deps.onSessionEnded?.();
        // Already on /login (another call's 401 got there first): stay, keeping its ?redirect=.
        const location = deps.location();
        if (location.pathname === LOGIN_PATH || location.pathname.startsWith(LOGIN_PATH + '/')) return;
        deps.navigate(loginUrlFor(location));
        return;
      }
      case 'downloadExceeded':
        deps.navigate(DOWNLOAD_EXCEEDED_PATH);
        return;
      case 'serverError':
        deps.notify.error(failure.message || failure.errorCode, TOAST_DURATION_SECONDS);
        return;
      case 'ignored':
        return;
    }
  }

  /** Answers asked for early (`prefetch`), by request (method, URL, body), each taken once. */
  const early = new Map<string, { response: Promise<Response>; at: number }>();

  function build(path: string, options: RequestOptions): { url: string; init: RequestInit; key: string | null } {
    const method = options.method ?? 'POST';
    const headers: Record<string, string> = { ...options.headers, ...clientHeaders(deps.platform, deps.networkEnv) };
    let body: string | Blob | undefined;
    if (options.raw) {
      headers['Content-Type'] = 'application/octet-stream';
      body = options.raw;
    } else if (method !== 'GET' && method !== 'HEAD' && method !== 'DELETE') {
      if (options.form) {
        headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
        body = formEncode(options.body);
      } else {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(options.body ?? {});
      }
    }
    const url = baseUrl + withQuery(path, options.query);
    // Only a request sent as text can be recognised again.
    const key = body instanceof Blob ? null : JSON.stringify([method, url, headers, body ?? null]);
    return { url, init: { method, headers, body, credentials: 'include' }, key };
  }

  /** The answer asked for early for this request, if one is waiting: once, and while it is recent. */
  function takeEarly(key: string | null): Promise<Response> | null {
    const found = key === null ? undefined : early.get(key);
    if (!found) return null;
    early.delete(key!);
    return Date.now() - found.at <= EARLY_ANSWER_TTL_MS ? found.response : null;
  }

  async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const { url, init, key } = build(path, options);
    const ask = () => deps.fetch(url, { ...init, signal: options.signal });
    const earlyAnswer = takeEarly(key);
    // An early request that got no answer (offline at boot, say) is asked again now.
    const res = earlyAnswer ? await untilAborted(earlyAnswer.catch(ask), options.signal) : await ask();
    const parsed = await readBody(res);
    if (res.ok) return unwrap<T>(parsed);

    const failure = classifyFailure(res.status, parsed);
    const error = new ApiCallError(res.status, failure, parsed);
    const gestureLocked = failure.kind === 'badRequest' && failure.errorCode === ERRORS.GESTURE_LOCKED.code;
    if (gestureLocked) deps.onGestureLocked?.();
    if (options.onError) options.onError(failure, error);
    else if (!gestureLocked && !(failure.kind === 'badRequest' && options.quietCodes?.includes(failure.errorCode))) react(failure);
    throw error;
  }

  /** The request `api.call` makes for a declared endpoint: method, path and encoding from the entry. */
  function callRequest<E extends AnyEndpoint>(endpoint: E, ...[input, options = {}]: CallArgs<E>): { path: string; options: RequestOptions } {
    const { params, ...rest } = options;
    const path = params ? pathWith(endpoint, params) : endpoint.path;
    // A raw endpoint's input is its query; its body is the Blob in `options.raw`.
    if (endpoint.encoding === 'query' || endpoint.encoding === 'raw') return { path, options: { ...rest, method: endpoint.method, query: input as RequestOptions['query'] } };
    if (rest.raw) throw new Error(`${endpoint.path}: only raw endpoints take a raw body`);
    return { path, options: { ...rest, method: endpoint.method, body: input ?? {}, form: endpoint.encoding === 'form' } };
  }

  async function call<E extends AnyEndpoint>(endpoint: E, ...args: CallArgs<E>): Promise<DataOf<E>> {
    const { path, options } = callRequest(endpoint, ...args);
    return request<DataOf<E>>(path, options);
  }

  function prefetch(path: string, options: RequestOptions = {}): void {
    const { url, init, key } = build(path, options);
    if (key === null) return;
    const response = deps.fetch(url, init);
    response.catch(() => undefined); // the taker asks again
    // One entry per prefetched request, kept until an identical request comes (used only while recent).
    early.set(key, { response, at: Date.now() });
  }

  return {
    request,
    call,
    get: (path, options) => request(path, { ...options, method: 'GET' }),
    post: (path, body, options) => request(path, { ...options, method: 'POST', body }),
    postForm: (path, fields, options) => request(path, { ...options, method: 'POST', body: fields, form: true }),
    prefetch,
    prefetchCall: (endpoint, ...args) => {
      const { path, options } = callRequest(endpoint, ...args);
      prefetch(path, options);
    },
  };
}
