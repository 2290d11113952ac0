import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SpaceRole } from '../../common/api/types';
import type { FilesTable, SpacesTable } from '../db/schema';
import type { Grant } from '../repositories/share-grants';
import type { Caller } from '../services/caller';
import type { EntryAccess } from '../services/space-access';

/**
 * The seams of the WebDAV endpoint (issue 39), shared by its three builders:
 * - davcore: routing, paths, PROPFIND/GET/PUT/MKCOL/DELETE/COPY/MOVE (this directory);
 * - davpw: who the caller is (device passwords), one function of the request (`DavAuthenticate`);
 * - davlock: LOCK/UNLOCK/PROPPATCH (one line each in methods.ts), the `If` header (preconditions.ts)
 *   and lock/dead properties (properties.ts).
 */

/** What authentication answers: the caller web requests get, or a refusal to send as it is. */
export type DavAuthResult =
  | { ok: true; caller: Caller }
  | { ok: false; status: number; headers: Record<string, string>; body: string };

/** Authenticates a WebDAV request (davpw: Basic with a device password). */
export type DavAuthenticate = (request: FastifyRequest) => Promise<DavAuthResult>;

/**
 * The folders at /dav/: the caller's areas, named as in the web app. `category`: a personal
 * category's root (个人文件, 同步文件, 交换区); `space`: the public space or a group (its root
 * folder); `shared`: what others share with the caller (共享文件).
 */
export type TopFolder =
  | { kind: 'category'; name: string; category: number }
  | { kind: 'space'; name: string; space: SpacesTable; role: SpaceRole | null }
  | { kind: 'shared'; name: string };

/**
 * A resource a path names: the root, one of the top folders, or an entry of the file tree the
 * caller may see (`entry` carries the access decision: space role, or the share grant).
 */
export type DavNode =
  | { kind: 'root' }
  | { kind: 'top'; top: TopFolder }
  | { kind: 'entry'; top: TopFolder; entry: EntryAccess; row: FilesTable };

/** A path resolved as far as it exists: the node, or its parent and the missing last name. */
export interface Resolved {
  /** The decoded path segments below /dav/. */
  segments: string[];
  /** The node the whole path names, or null when only its parent exists. */
  node: DavNode | null;
  /** The parent of the last segment (null for the root itself). */
  parent: DavNode | null;
  /** The last segment (the new name for PUT/MKCOL; '' at the root). */
  name: string;
}

/** One request to a WebDAV handler: who, what and the raw exchange. */
export interface DavContext {
  caller: Caller;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The request URI's target (always resolved before the handler; `node` null = does not exist). */
  target: Resolved;
  /** The href of the target as the server writes it (percent-encoded, folders end in '/'). */
  href: string;
}

/** A WebDAV method's handler: it answers through ctx.reply (or throws a DavError / AppError). */
export type DavHandler = (ctx: DavContext) => Promise<void>;

/** The grant of an entry reached through a share (undefined elsewhere). */
export function grantOfNode(node: DavNode | null): Grant | undefined {
  return node?.kind === 'entry' ? node.entry.share : undefined;
}

/** A refusal in WebDAV's terms: an HTTP status, a readable reason, and optionally a precondition element. */
export class DavError extends Error {
  /**
   * Not an action for the action log: nothing was asked that the server refused (MKCOL of a folder
   * that is there — how rclone and others make sure a folder exists before every file they send).
   */
  notAnAction = false;

  constructor(
    readonly status: number,
    message: string,
    /** RFC 4918 §16 precondition/postcondition code (e.g. 'propfind-finite-depth'), sent in a DAV:error body. */
    readonly condition?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'DavError';
  }
}
