import { ERRORS } from '../../common/api/errors';
import { FILE_CATEGORY } from '../../common/api/types';
import type { FilesTable } from '../db/schema';
import { AppError } from '../http/app-error';
import type { FileRepository, ListParent, ListPosition } from '../repositories/file-repository';
import type { Caller } from '../services/caller';
import { nameKeyOf, scopeOf } from '../services/file-service';
import type { GroupService } from '../services/group-service';
import { freeName } from '../services/naming';
import type { SharedFilesService } from '../services/sharing/shared-files-service';
import type { AccessService } from '../services/space-access';
import { PUBLIC_SPACE_NAME } from '../services/space-access';
import type { DavNode, Resolved, TopFolder } from './context';
import { DavError } from './context';

/** The names of the fixed top folders: the web app's menu (src/app/route-table.ts). */
export const TOP_NAMES = {
  personal: '个人文件',
  shared: '共享文件',
  synced: '同步文件',
  exchange: '交换区',
  public: PUBLIC_SPACE_NAME,
} as const;

/** Rows per keyset page of a folder listing (PROPFIND writes each page as it comes). */
export const DAV_PAGE_ROWS = 500;

/** Pages of 共享文件 read to find a name in it (each page FILE_LIST_MAX_PAGE_SIZE shares). */
const SHARED_MAX_PAGES = 40;

export interface DavTreeDeps {
  files: FileRepository;
  access: AccessService;
  groups: GroupService;
  sharedFiles: SharedFilesService;
  /** Whether the tenant's build offers the exchange area (the tenant switch). */
  exchangeOn(tenantId: string): Promise<boolean>;
}

/**
 * The /dav/ namespace over the file tree: paths to entries and folder listings, every decision of who
 * may see what taken by the same AccessService the web app's calls use (another tenant's or user's
 * entries are simply not there: 404).
 */
export class DavTree {
  constructor(private readonly deps: DavTreeDeps) {}

  /** The caller's top folders, in the web app's menu order. Group names that clash with a fixed name get a suffix. */
  async tops(caller: Caller): Promise<TopFolder[]> {
    const { access, groups } = this.deps;
    const out: TopFolder[] = [
      { kind: 'category', name: TOP_NAMES.personal, category: FILE_CATEGORY.personal },
      { kind: 'shared', name: TOP_NAMES.shared },
      { kind: 'category', name: TOP_NAMES.synced, category: FILE_CATEGORY.synced },
      { kind: 'space', name: TOP_NAMES.public, space: await access.publicSpace(caller), role: null },
    ];
    if (await this.deps.exchangeOn(caller.tenantId)) out.push({ kind: 'category', name: TOP_NAMES.exchange, category: FILE_CATEGORY.exchange });
    const taken = new Set(out.map((t) => t.name.toLowerCase()));
    for (const info of await groups.list(caller)) {
      const { space, role } = await access.space(caller, info.id);
      const name = freeName(space.name, taken);
      taken.add(name.toLowerCase());
      out.push({ kind: 'space', name, space, role });
    }
    return out;
  }

  /** Resolves decoded segments below /dav/ (see Resolved). A missing ancestor answers 409 (RFC 4918 §9.7.1, §9.3.1). */
  async resolve(caller: Caller, segments: readonly string[]): Promise<Resolved> {
    if (segments.length === 0) return { segments: [], node: { kind: 'root' }, parent: null, name: '' };
    const tops = await this.tops(caller);
    const topKey = nameKeyOf(segments[0]!);
    const top = tops.find((t) => nameKeyOf(t.name) === topKey);
    const rootNode: DavNode = { kind: 'root' };
    if (!top) return this.missing(segments, segments.length === 1 ? rootNode : null);
    let node: DavNode = { kind: 'top', top };
    for (let i = 1; i < segments.length; i++) {
      const child = await this.child(caller, node, segments[i]!);
      if (!child) return this.missing(segments, i === segments.length - 1 ? node : null);
      node = child;
    }
    const parent = segments.length === 1 ? rootNode : null;
    return { segments: [...segments], node, parent, name: segments[segments.length - 1]! };
  }

  /** The parent of a resolved path (resolve keeps it only for missing targets and the root's children). */
  async parentOf(caller: Caller, target: Resolved): Promise<DavNode | null> {
    if (target.parent || target.segments.length === 0) return target.parent;
    const up = await this.resolve(caller, target.segments.slice(0, -1));
    return up.node;
  }

  private missing(segments: readonly string[], parent: DavNode | null): Resolved {
    return { segments: [...segments], node: null, parent, name: segments[segments.length - 1]! };
  }

  /** The child named `name` of a folder node, or null. */
  async child(caller: Caller, node: DavNode, name: string): Promise<DavNode | null> {
    if (node.kind === 'root') {
      const key = nameKeyOf(name);
      const top = (await this.tops(caller)).find((t) => nameKeyOf(t.name) === key);
      return top ? { kind: 'top', top } : null;
    }
    if (node.kind === 'top' && node.top.kind === 'shared') return this.sharedChild(caller, node.top, name);
    if (node.kind === 'entry' && node.row.is_dir !== 1) return null;
    const parent = this.listParent(caller, node);
    const [row] = await this.deps.files.liveNamesAt(parent, [nameKeyOf(name)]);
    if (!row) return null;
    return this.entryNode(caller, node.kind === 'top' ? node.top : node.top, row);
  }

  /** An entry node with its access decision (AccessService.entry: space role or share grant); null when not the caller's to see. */
  async entryNode(caller: Caller, top: TopFolder, row: FilesTable): Promise<DavNode | null> {
    try {
      const entry = await this.deps.access.entry(caller, row.id);
      return { kind: 'entry', top, entry, row: entry.row };
    } catch (err) {
      if (err instanceof AppError && err.code === ERRORS.NOT_FOUND.code) return null;
      throw err;
    }
  }

  /** Which rows list a folder node (not the root, not 共享文件's top). */
  listParent(caller: Caller, node: DavNode): ListParent {
    if (node.kind === 'top') {
      if (node.top.kind === 'category') return { kind: 'root', scope: scopeOf(caller), category: node.top.category };
      if (node.top.kind === 'space') return { kind: 'folder', parentId: node.top.space.root_id };
      throw new DavError(500, 'shared top has no parent row');
    }
    if (node.kind === 'entry') return { kind: 'folder', parentId: node.row.id };
    throw new DavError(500, 'the root has no parent row');
  }

  /**
   * The children of a folder node, a keyset page at a time (never the whole folder in memory): the
   * caller writes each page before the next is read. `signal`: the client went away.
   */
  async *children(caller: Caller, node: DavNode, signal: AbortSignal): AsyncGenerator<DavNode[]> {
    if (node.kind === 'root') {
      yield (await this.tops(caller)).map((top) => ({ kind: 'top', top }) as const);
      return;
    }
    if (node.kind === 'entry' && node.row.is_dir !== 1) return;
    if (node.kind === 'top' && node.top.kind === 'shared') {
      for await (const page of this.sharedPages(caller, node.top)) {
        if (signal.aborted) return;
        yield page.map(({ node: n }) => n);
      }
      return;
    }
    const top = node.top;
    const parent = this.listParent(caller, node);
    let after: ListPosition | null = null;
    for (;;) {
      if (signal.aborted) return;
      const rows = await this.deps.files.list({ parent, column: 'sort_key', descending: false, after, limit: DAV_PAGE_ROWS });
      // The folder itself was checked; its children share its space (or owner, or grant).
      if (rows.length > 0) yield rows.map((row) => this.childOfChecked(node, top, row));
      if (rows.length < DAV_PAGE_ROWS) return;
      const last = rows[rows.length - 1]!;
      after = { isDir: last.is_dir, value: last.sort_key, id: last.id };
    }
  }

  /**
   * A child of a folder whose access was decided: the same space role, or the same share grant
   * (a grant on a folder reaches its whole tree), without one look-up per row.
   */
  private childOfChecked(parent: DavNode, top: TopFolder, row: FilesTable): DavNode {
    if (parent.kind === 'entry') return { kind: 'entry', top, row, entry: { row, access: parent.entry.access, share: parent.entry.share } };
    if (parent.kind === 'top' && parent.top.kind === 'space') {
      return { kind: 'entry', top, row, entry: { row, access: { space: parent.top.space, role: parent.top.role } } };
    }
    return { kind: 'entry', top, row, entry: { row, access: null } };
  }

  /** 共享文件's entries, newest share first, each with a name unique in the folder (a clash gets ' (n)'). */
  private async *sharedPages(caller: Caller, top: TopFolder): AsyncGenerator<Array<{ name: string; node: DavNode }>> {
    const taken = new Set<string>();
    let cursor: string | null = null;
    for (let page = 0; page < SHARED_MAX_PAGES; page++) {
      const list = await this.deps.sharedFiles.list(caller, { parentId: null, cursor, pageSize: 500 });
      const ids = list.items.map((i) => i.id);
      const entries = ids.length > 0 ? await this.deps.access.entries(caller, ids).catch(() => []) : [];
      const out = entries.map((entry) => {
        const name = freeName(entry.row.name, taken);
        taken.add(name.toLowerCase());
        // Shown under its unique name; the row keeps the owner's.
        return { name, node: { kind: 'entry', top, entry, row: { ...entry.row, name } } as DavNode };
      });
      if (out.length > 0) yield out;
      if (!list.nextCursor) return;
      cursor = list.nextCursor;
    }
  }

  private async sharedChild(caller: Caller, top: TopFolder, name: string): Promise<DavNode | null> {
    const key = nameKeyOf(name);
    for await (const page of this.sharedPages(caller, top)) {
      const hit = page.find((p) => nameKeyOf(p.name) === key);
      if (hit) return hit.node;
    }
    return null;
  }
}
