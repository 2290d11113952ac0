import type { Static, TSchema } from 'typebox';
import type { ActionCode } from './action-codes';

/**
 * One declaration per endpoint. An entry says everything client and server must agree on: method,
 * path, the schemas of body, query and path parameters (TypeBox: JSON Schema that is also a type),
 * the answer's type, who may call it, its action-log code and its body encoding. From the entry:
 * - the server registers the route with a typed, validated request (server/http/endpoint-route.ts);
 * - ROUTE_ACTIONS, the access matrix's guard flags and the spec coverage table read it;
 * - the client calls it with `api.call(entry, input)` (src/lib/api-client.ts), typed both ways.
 * Entries live in `common/api/<domain>-api.ts`; `common/api/endpoints.ts` lists the domains.
 */

/** Who may call an endpoint; the session guard enforces it, the access matrix checks it. */
export type EndpointAccess =
  /** No session needed (login, captcha, system config, link visitors). */
  | 'public'
  /** Any signed-in user whose password is not due for its forced change. */
  | 'member'
  /** Tenant administrators only; members get FORBIDDEN. */
  | 'admin'
  /** Any signed-in user, also while a forced password change is pending (logout, details, menu). */
  | 'duringPasswordChange';

/**
 * How the request carries its input: a JSON body (the spec's default for POST), a form-encoded body
 * (where spec §7 says so), a query string (GET), or raw bytes the handler reads itself (chunks).
 */
export type EndpointEncoding = 'json' | 'form' | 'query' | 'raw';

/**
 * HEAD is declared only where it is not simply the GET without its body (Fastify answers those by
 * itself): a download ticket's HEAD must not use the ticket, so it is its own entry and handler.
 */
export type EndpointMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

/**
 * The answer: `{ data: T }` (the envelope of spec §8); T itself as a JSON file to keep (no envelope);
 * or bytes/a stream the handler sends itself.
 */
export type EndpointAnswer<T = unknown> = DataAnswer<T> | JsonFileAnswer<T> | BytesAnswer;
export interface DataAnswer<T> {
  readonly kind: 'data';
  readonly __data?: T;
}
export interface JsonFileAnswer<T> {
  readonly kind: 'jsonFile';
  readonly __data?: T;
}
export interface BytesAnswer {
  readonly kind: 'bytes';
}

/** `response: data<UserDetails>()`: the endpoint answers `{ data: UserDetails }`. */
export function data<T>(): DataAnswer<T> {
  return { kind: 'data' };
}

/** `response: jsonFile<T>()`: the endpoint answers T as a JSON attachment, outside the envelope. */
export function jsonFile<T>(): JsonFileAnswer<T> {
  return { kind: 'jsonFile' };
}

/** `response: bytes`: the endpoint answers a file, a ZIP, a picture or an event stream. */
export const bytes: BytesAnswer = { kind: 'bytes' };

export interface Endpoint<
  B extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
  P extends TSchema | undefined = TSchema | undefined,
  R extends EndpointAnswer = EndpointAnswer,
> {
  readonly method: EndpointMethod;
  /** The path exactly as the client sends it (spec §7's, letter for letter, `?ajax=true` included). */
  readonly path: string;
  readonly access: EndpointAccess;
  /** The action-log code this call records, or null for reads and steps recorded elsewhere. */
  readonly action: ActionCode | null;
  /** Answers also while the session's 手势密码 lock is up: the lock screen's own calls (and logout). */
  readonly whileGestureLocked: boolean;
  readonly encoding: EndpointEncoding;
  readonly body: B;
  readonly query: Q;
  /** Path parameters (`:id`), for paths that carry them. */
  readonly params: P;
  readonly response: R;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of entries of any shape
export type AnyEndpoint = Endpoint<any, any, any, any>;

interface Declaration<B, Q, P, R> {
  method: EndpointMethod;
  path: string;
  access: EndpointAccess;
  action: ActionCode | null;
  /** Default false: a locked session (the 手势密码 lock screen is up) is refused GESTURE_LOCKED. */
  whileGestureLocked?: boolean;
  /** Defaults: 'query' for GET and HEAD, 'json' otherwise. */
  encoding?: EndpointEncoding;
  body?: B;
  query?: Q;
  params?: P;
  response: R;
}

/** Declares an endpoint; see the module comment. */
export function endpoint<
  R extends EndpointAnswer,
  B extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  P extends TSchema | undefined = undefined,
>(d: Declaration<B, Q, P, R>): Endpoint<B, Q, P, R> {
  const encoding = d.encoding ?? (d.method === 'GET' || d.method === 'HEAD' ? 'query' : 'json');
  if (encoding === 'query' && d.body) throw new Error(`${d.method} ${d.path}: a query-encoded call takes no body`);
  return {
    method: d.method,
    path: d.path,
    access: d.access,
    action: d.action,
    whileGestureLocked: d.whileGestureLocked ?? false,
    encoding,
    body: d.body as B,
    query: d.query as Q,
    params: d.params as P,
    response: d.response,
  };
}

type StaticOr<S, Absent> = S extends TSchema ? Static<S> : Absent;

/** The request body an endpoint takes (undefined when it takes none). */
export type BodyOf<E extends AnyEndpoint> = StaticOr<E['body'], undefined>;
/** Its query string's fields. */
export type QueryOf<E extends AnyEndpoint> = StaticOr<E['query'], undefined>;
/** Its path parameters. */
export type ParamsOf<E extends AnyEndpoint> = StaticOr<E['params'], undefined>;
/** What `{ data }` holds in its answer, or the JSON file's content (never for endpoints answering bytes). */
export type DataOf<E extends AnyEndpoint> = E['response'] extends DataAnswer<infer T> ? T : E['response'] extends JsonFileAnswer<infer T> ? T : never;
/** What the client passes to `api.call`: the body, or for GET the query fields. */
export type InputOf<E extends AnyEndpoint> = E['body'] extends TSchema ? Static<E['body']> : E['query'] extends TSchema ? Static<E['query']> : undefined;

/** The path the server registers: the client's path without its fixed query (`?ajax=true`). */
export function routePath(e: AnyEndpoint): string {
  return e.path.split('?', 1)[0]!;
}

/** The key the access matrix and ROUTE_ACTIONS use: `METHOD /path`. */
export function routeKey(e: AnyEndpoint): string {
  return `${e.method} ${routePath(e)}`;
}

/** The path with its `:name` parameters filled in (each value URI-encoded). */
export function pathWith(e: AnyEndpoint, params: Record<string, string>): string {
  return e.path.replace(/:([A-Za-z]\w*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${e.path}: missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}
