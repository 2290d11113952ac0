/**
 * A simulated local disk: folders and files with inode numbers and modification times from the
 * simulation's clock. Case-sensitive like Linux's ext4, or case- and normalization-insensitive (but
 * preserving) like macOS's APFS and Windows' NTFS. Users act on it directly; the engine goes through
 * SimFs, whose every call passes the gate.
 */
import type { FakeClock } from './rng';
import { pathKey } from '../../../workers/sync/names';

export interface SimFile {
  kind: 'file';
  ino: number;
  mtime: number;
  content: Buffer;
}
export interface SimDir {
  kind: 'dir';
  ino: number;
  /** lookup key → [name as spelled, node] */
  children: Map<string, [string, SimNode]>;
}
export type SimNode = SimFile | SimDir;

export class DiskError extends Error {
  constructor(
    readonly code: 'ENOENT' | 'EEXIST' | 'ENOTDIR' | 'EISDIR' | 'ENOTEMPTY' | 'EINVAL',
    path: string,
  ) {
    super(`${code}: ${path}`);
  }
}

export class SimDisk {
  readonly root: SimDir;
  private nextIno = 2;

  constructor(
    readonly clock: FakeClock,
    readonly caseInsensitive: boolean,
  ) {
    this.root = { kind: 'dir', ino: 1, children: new Map() };
  }

  lookupKey(name: string): string {
    return this.caseInsensitive ? pathKey(name) : name;
  }

  private parts(path: string): string[] {
    return path === '' ? [] : path.split('/');
  }

  /** The node at `path`, or undefined. */
  get(path: string): SimNode | undefined {
    let node: SimNode = this.root;
    for (const part of this.parts(path)) {
      if (node.kind !== 'dir') return undefined;
      const child = node.children.get(this.lookupKey(part));
      if (!child) return undefined;
      node = child[1];
    }
    return node;
  }

  /** The name of `path`'s last component as stored (the disk's spelling). */
  spelled(path: string): string | undefined {
    const parts = this.parts(path);
    const parent = this.get(parts.slice(0, -1).join('/'));
    if (!parent || parent.kind !== 'dir' || parts.length === 0) return undefined;
    return parent.children.get(this.lookupKey(parts[parts.length - 1]!))?.[0];
  }

  private parentDir(path: string): SimDir {
    const parts = this.parts(path);
    const parent = this.get(parts.slice(0, -1).join('/'));
    if (!parent) throw new DiskError('ENOENT', path);
    if (parent.kind !== 'dir') throw new DiskError('ENOTDIR', path);
    return parent;
  }

  private lastName(path: string): string {
    const parts = this.parts(path);
    return parts[parts.length - 1]!;
  }

  writeFile(path: string, content: Buffer): void {
    const parent = this.parentDir(path);
    const key = this.lookupKey(this.lastName(path));
    const existing = parent.children.get(key);
    if (existing?.[1].kind === 'dir') throw new DiskError('EISDIR', path);
    if (existing) {
      // In place: same inode, new bytes and time (what most programs' saves look like).
      const file = existing[1] as SimFile;
      file.content = content;
      file.mtime = this.clock.now();
      return;
    }
    parent.children.set(key, [this.lastName(path), { kind: 'file', ino: this.nextIno++, mtime: this.clock.now(), content }]);
  }

  /** Like an editor's "save as temp, rename over": a new inode each time. */
  replaceFile(path: string, content: Buffer): void {
    const parent = this.parentDir(path);
    const key = this.lookupKey(this.lastName(path));
    const existing = parent.children.get(key);
    if (existing?.[1].kind === 'dir') throw new DiskError('EISDIR', path);
    parent.children.set(key, [existing?.[0] ?? this.lastName(path), { kind: 'file', ino: this.nextIno++, mtime: this.clock.now(), content }]);
  }

  touch(path: string): void {
    const node = this.get(path);
    if (node?.kind === 'file') node.mtime = this.clock.now();
  }

  mkdir(path: string): void {
    const parent = this.parentDir(path);
    const key = this.lookupKey(this.lastName(path));
    if (parent.children.has(key)) throw new DiskError('EEXIST', path);
    parent.children.set(key, [this.lastName(path), { kind: 'dir', ino: this.nextIno++, children: new Map() }]);
  }

  mkdirp(path: string): void {
    let so = '';
    for (const part of this.parts(path)) {
      so = so === '' ? part : `${so}/${part}`;
      const node = this.get(so);
      if (!node) this.mkdir(so);
      else if (node.kind !== 'dir') throw new DiskError('ENOTDIR', so);
    }
  }

  /** Removes a file or a whole folder. */
  remove(path: string): void {
    const parent = this.parentDir(path);
    const key = this.lookupKey(this.lastName(path));
    if (!parent.children.delete(key)) throw new DiskError('ENOENT', path);
  }

  unlink(path: string): void {
    const node = this.get(path);
    if (!node) throw new DiskError('ENOENT', path);
    if (node.kind === 'dir') throw new DiskError('EISDIR', path);
    this.remove(path);
  }

  rmdir(path: string): void {
    const node = this.get(path);
    if (!node) throw new DiskError('ENOENT', path);
    if (node.kind !== 'dir') throw new DiskError('ENOTDIR', path);
    if (node.children.size > 0) throw new DiskError('ENOTEMPTY', path);
    this.remove(path);
  }

  /** rename(2) that refuses to replace (EEXIST); a case-only rename of one entry is allowed. */
  renameNoReplace(from: string, to: string): void {
    const node = this.get(from);
    if (!node) throw new DiskError('ENOENT', from);
    if (to === from || to.startsWith(`${from}/`)) throw new DiskError('EINVAL', to);
    const fromParent = this.parentDir(from);
    const toParent = this.parentDir(to);
    const fromKey = this.lookupKey(this.lastName(from));
    const toKey = this.lookupKey(this.lastName(to));
    const existing = toParent.children.get(toKey);
    if (existing && !(existing[1] === node && toParent === fromParent)) throw new DiskError('EEXIST', to);
    if (node.kind === 'dir' && this.isAncestor(node, toParent)) throw new DiskError('EINVAL', to);
    fromParent.children.delete(fromKey);
    toParent.children.set(toKey, [this.lastName(to), node]);
  }

  private isAncestor(dir: SimDir, of: SimDir): boolean {
    if (dir === of) return true;
    for (const [, child] of dir.children.values()) if (child.kind === 'dir' && this.isAncestor(child, of)) return true;
    return false;
  }

  /** Every entry under `path` as [path, node], parents first (spelled paths). */
  walk(path = ''): Array<[string, SimNode]> {
    const out: Array<[string, SimNode]> = [];
    const visit = (dirPath: string, dir: SimDir) => {
      const names = [...dir.children.values()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
      for (const [name, node] of names) {
        const p = dirPath === '' ? name : `${dirPath}/${name}`;
        out.push([p, node]);
        if (node.kind === 'dir') visit(p, node);
      }
    };
    const start = this.get(path);
    if (start?.kind === 'dir') visit(path, start);
    return out;
  }
}
