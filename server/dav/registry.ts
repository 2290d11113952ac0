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
import { proppatchHandler } from './method-proppatch';
import { lockHandler, unlockHandler } from './locks/method-lock';
import { lockPrecondition } from './locks/preconditions';
import { deadProperties, lockProperties } from './lock-and-dead-properties';

/**
 * The WebDAV endpoint's three extension points, in one place:
 *
 * 1. DAV_METHODS: method → handler module. A null entry answers 501 Not Implemented. LOCK, UNLOCK
 *    (locks/method-lock.ts) and PROPPATCH (method-proppatch.ts) make this class 2.
 * 2. propertyProviders: the sources PROPFIND asks, per page of resources: the live properties,
 *    lockdiscovery/supportedlock, and the dead properties PROPPATCH stores.
 * 3. preconditions: checks every modifying method (PUT, DELETE, MKCOL, COPY, MOVE) runs before it
 *    changes anything: the `If` header and lock tokens (locks/preconditions.ts).
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
  PROPPATCH: proppatchHandler,
  LOCK: lockHandler,
  UNLOCK: unlockHandler,
};

export function propertyProviders(deps: DavDeps): PropertyProvider[] {
  return [liveProperties(deps.live), lockProperties(deps.locks), deadProperties(deps.properties)];
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

export function preconditions(deps: DavDeps): DavPrecondition[] {
  return [lockPrecondition(deps)];
}

/** Every method the endpoint routes (OPTIONS' Allow lists those with a handler). */
export const DAV_METHOD_NAMES = ['OPTIONS', 'PROPFIND', 'PROPPATCH', 'GET', 'HEAD', 'PUT', 'DELETE', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'] as const;

/** The methods that answer (not 501), for OPTIONS' Allow. */
export function allowedMethods(): string[] {
  return DAV_METHOD_NAMES.filter((m) => DAV_METHODS[m] != null);
}
