/**
 * A tree of entries keyed by path key, as the planner sees one side: look-ups by key and id, and
 * moving a whole subtree (a folder moved on one side moves its journal rows and, once the move is
 * planned, the other side's entries with it).
 */
import { isInside, parentPath, pathKey } from './names';

export interface PathEntry {
  path: string;
}

export class KeyedTree<T extends PathEntry> {
  readonly byKey = new Map<string, T>();

  constructor(entries: Iterable<T> = []) {
    for (const e of entries) this.byKey.set(pathKey(e.path), e);
  }

  get(key: string): T | undefined {
    return this.byKey.get(key);
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  set(key: string, entry: T): void {
    this.byKey.set(key, entry);
  }

  delete(key: string): void {
    this.byKey.delete(key);
  }

  keys(): IterableIterator<string> {
    return this.byKey.keys();
  }

  /**
   * Moves the entry at `fromKey` and everything under it to `toKey`, respelling their paths under
   * `toPath`. `patch` adjusts each moved entry (e.g. a journal row's key field).
   */
  move(fromKey: string, toKey: string, toPath: string, patch: (entry: T, key: string, path: string) => T = (e, _k, path) => ({ ...e, path })): void {
    const root = this.byKey.get(fromKey);
    const fromPathLength = root ? root.path.length : fromKey.length;
    const moved: Array<[string, T]> = [];
    for (const [key, entry] of this.byKey) {
      if (key === fromKey || isInside(key, fromKey)) moved.push([key, entry]);
    }
    for (const [key] of moved) this.byKey.delete(key);
    for (const [key, entry] of moved) {
      const newKey = toKey + key.slice(fromKey.length);
      const newPath = toPath + entry.path.slice(fromPathLength);
      this.byKey.set(newKey, patch(entry, newKey, newPath));
    }
  }
}

/** The key of the parent folder ('' for the pair's root). */
export function parentKey(key: string): string {
  return parentPath(key);
}
