/**
 * The department tree as the client draws it: children by parent in the server's order, paths of
 * names, subtree ids, and the rows a virtualised tree shows for a set of expanded ids or a search.
 */
import type { DepartmentNode } from '../api/org-types';
import { reachableFrom } from '../reachable';

export interface DepartmentIndex {
  byId: Map<string, DepartmentNode>;
  /** '' = top level. Children keep the server's order (sortOrder, then id). */
  children: Map<string, DepartmentNode[]>;
}

export function indexDepartments(departments: readonly DepartmentNode[]): DepartmentIndex {
  const byId = new Map(departments.map((d) => [d.id, d]));
  const children = new Map<string, DepartmentNode[]>();
  for (const d of departments) {
    const key = d.parentId ?? '';
    const list = children.get(key);
    if (list) list.push(d);
    else children.set(key, [d]);
  }
  for (const list of children.values()) list.sort((a, b) => a.sortOrder - b.sortOrder || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { byId, children };
}

/** The names from the top level down to the department: ['研发部', '前端组']. */
export function departmentNames(index: DepartmentIndex, id: string): string[] {
  const names: string[] = [];
  for (let at = index.byId.get(id), i = 0; at && i < 100; i++, at = at.parentId ? index.byId.get(at.parentId) : undefined) names.unshift(at.name);
  return names;
}

/** `研发部/前端组` (top level first); pages that show it to people spread it out: ` / ` (DISPLAY_PATH_SEPARATOR). */
export function departmentPath(index: DepartmentIndex, id: string, separator = '/'): string {
  return departmentNames(index, id).join(separator);
}

export const DISPLAY_PATH_SEPARATOR = ' / ';

/** The department and everything under it. */
export function subtreeIds(index: DepartmentIndex, id: string): Set<string> {
  return reachableFrom(id, (at) => (index.children.get(at) ?? []).map((c) => c.id));
}

/** Total people of a department with its subtree. */
export function subtreeMembers(index: DepartmentIndex, id: string): number {
  let n = 0;
  for (const d of subtreeIds(index, id)) n += index.byId.get(d)?.memberCount ?? 0;
  return n;
}

export interface TreeRow {
  node: DepartmentNode;
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
}

/**
 * The visible rows: depth-first through expanded departments; with a keyword, every department whose
 * name or path contains it, with its ancestors (so a hit is seen in place), all expanded.
 */
export function visibleRows(index: DepartmentIndex, expanded: ReadonlySet<string>, keyword = ''): TreeRow[] {
  const needle = keyword.trim().toLowerCase();
  let keep: Set<string> | null = null;
  if (needle) {
    keep = new Set();
    for (const d of index.byId.values()) {
      if (!d.name.toLowerCase().includes(needle)) continue;
      for (let at: DepartmentNode | undefined = d; at && !keep.has(at.id); at = at.parentId ? index.byId.get(at.parentId) : undefined) keep.add(at.id);
    }
  }
  const rows: TreeRow[] = [];
  const walk = (parent: string, depth: number) => {
    for (const node of index.children.get(parent) ?? []) {
      if (keep && !keep.has(node.id)) continue;
      const hasChildren = (index.children.get(node.id)?.length ?? 0) > 0;
      const open = keep ? true : expanded.has(node.id);
      rows.push({ node, depth, hasChildren, expanded: open && hasChildren });
      if (open && hasChildren && depth < 100) walk(node.id, depth + 1);
    }
  };
  walk('', 0);
  return rows;
}
