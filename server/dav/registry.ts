import type { DavContext, DavHandler } from './context';
import type { DavDeps } from './deps';
import { liveProperties, type PropertyProvider } from './properties';
import { optionsHandler } from './method-options';
import { propfindHandler } from './method-propfind';
import { getHandler } from './method-get';
import { putHandler } from './method-put';
import { mkcolHandler } from './method-mkcol';
import { deleteHandler } from './method-delete';
import { copyMoveHandler } from './method-copymove';

/**
 * The WebDAV endpoint's three extension points, in one place:
 *
 * 1. DAV_METHODS: method → handler module. A null entry answers 501 Not Implemented.
 *    TEMPORARY: LOCK, UNLOCK and PROPPATCH are davlock's (issue 39); each becomes one line here
 *    when its module lands. Until then they answer 501 and OPTIONS does not claim class 2.
 * 2. propertyProviders: the sources PROPFIND asks, per page of resources. davlock adds
 *    lockdiscovery/supportedlock and the dead properties PROPPATCH stores.
 * 3. preconditions: checks every modifying method (PUT, DELETE, MKCOL, COPY, MOVE) runs before it
 *    changes anything. davlock adds the `If` header / lock-token check; until then it allows.
 */
export type DavMethodModule = (deps: DavDeps) => DavHandler;

export const DAV_METHODS: Readonly<Record<string, DavMethodModule | null>> = {
  OPTIONS: optionsHandler,
  PROPFIND: propfindHandler,
  GET: getHandler,
  HEAD: getHandler,
  PUT: putHandler,
  DELETE: deleteHandler,
  MKCOL: mkcolHandler,
  COPY: copyMoveHandler,
  MOVE: copyMoveHandler,
  // davlock (issue 39): LOCK, UNLOCK, PROPPATCH — 501 until their modules land.
  PROPPATCH: null,
  LOCK: null,
  UNLOCK: null,
};

export function propertyProviders(deps: DavDeps): PropertyProvider[] {
  return [liveProperties(deps.live)];
}

/** What a modifying method is about to change (the request target; COPY/MOVE also the destination). */
export interface DavChange {
  method: string;
  /** Paths (decoded segments below /dav/) the method changes or creates. */
  paths: ReadonlyArray<readonly string[]>;
  /** Depth of the change (DELETE/MOVE/COPY of a folder: its whole tree). */
  depth: 0 | 'infinity';
}

/** A check run before any change; throws DavError (412, 423…) to refuse it. */
export type DavPrecondition = (ctx: DavContext, change: DavChange) => Promise<void>;

export function preconditions(_deps: DavDeps): DavPrecondition[] {
  // davlock (issue 39): the `If` header and lock tokens. Until then every change is allowed.
  return [];
}

/** Every method the endpoint routes (OPTIONS' Allow lists those with a handler). */
export const DAV_METHOD_NAMES = ['OPTIONS', 'PROPFIND', 'PROPPATCH', 'GET', 'HEAD', 'PUT', 'DELETE', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const;

/** The methods that answer (not 501), for OPTIONS' Allow. */
export function allowedMethods(): string[] {
  return DAV_METHOD_NAMES.filter((m) => DAV_METHODS[m] != null);
}
