/**
 * An in-process fake of the server's file contract, as far as the sync uses it — the same rules as
 * the real server (checked against it by tests/sync/remote-contract.test.ts): names valid per
 * common/validation/names.ts, unique per folder case-insensitively in NFC; a delete moves a subtree to
 * the recycle bin (its names are free again); new content of an existing file keeps the old one as a
 * version; an upload replacing a file carries ifMatch (refused when the file is not that file at that
 * fingerprint); a delete carries the subtree's digest (left alone when it changed); the listing's
 * token is the digest of the whole subtree.
 *
 * "Other devices" (the users of the simulation) change it directly through the `user*` methods.
 */
import { createHash } from 'node:crypto';
import { checkFileName, normalizeFileName } from '../../../common/validation/names';
import { judgeSyncFile } from '../../../common/sync/policy';
import { DEFAULT_BLOCKED_EXTENSIONS, DEFAULT_SENSITIVE_KEYWORDS } from '../../../common/transfer/checks';
import { subtreeOf, treeDigestInput } from '../../../common/sync/tree-digest';
import { RemoteError, type PolicyVerdict } from '../../../workers/sync/ports';
import type { RemoteEntry } from '../../../workers/sync/model';
import { fingerprintOf } from './content';
import type { FakeClock } from './rng';

export interface ServerEntry {
  id: string;
  /** null: the root of the synced-files category. */
  parentId: string | null;
  name: string;
  isDir: boolean;
  content: Buffer | null;
  fingerprint: string | null;
  /** Earlier contents, oldest first. */
  versions: Buffer[];
  deleted: boolean;
  updatedAt: number;
  lockedByOther: boolean;
}

export const nameKey = (name: string): string => name.normalize('NFC').toLowerCase();

export class FakeServer {
  readonly entries = new Map<string, ServerEntry>();
  private nextId = 1;

  constructor(readonly clock: FakeClock) {}

  private newId(): string {
    return `f${this.nextId++}`;
  }

  live(id: string): ServerEntry | undefined {
    const e = this.entries.get(id);
    return e && !e.deleted ? e : undefined;
  }

  children(parentId: string | null): ServerEntry[] {
    return [...this.entries.values()].filter((e) => !e.deleted && e.parentId === parentId);
  }

  childNamed(parentId: string | null, name: string): ServerEntry | undefined {
    const key = nameKey(name);
    return this.children(parentId).find((e) => nameKey(e.name) === key);
  }

  private validName(raw: string): string {
    const problem = checkFileName(raw);
    if (problem) throw new RemoteError(problem.message, 'refused', problem.code);
    return normalizeFileName(raw);
  }

  private requireFolder(id: string): ServerEntry {
    const e = this.live(id);
    if (!e || !e.isDir) throw new RemoteError('文件不存在或已被删除', 'notFound', 'FILE-3005');
    return e;
  }

  // ---- the contract the engine uses ----------------------------------------------------------

  ensureRoot(path: string): string {
    let parent: string | null = null;
    for (const part of path.split('/').filter(Boolean)) {
      const existing: ServerEntry | undefined = this.childNamed(parent, part);
      if (existing && !existing.isDir) throw new RemoteError('当前目录下已存在同名文件或文件夹', 'conflict', 'FILE-3004');
      parent = existing ? existing.id : this.mkdir(parent, part).id;
    }
    if (parent === null) throw new RemoteError('请求参数不正确', 'refused', 'REQ-2001');
    return parent;
  }

  /** The subtree under `rootId` (not the root), with paths relative to it. */
  list(rootId: string): RemoteEntry[] {
    this.requireFolder(rootId);
    const out: RemoteEntry[] = [];
    const visit = (parentId: string, prefix: string) => {
      for (const e of this.children(parentId)) {
        const path = prefix === '' ? e.name : `${prefix}/${e.name}`;
        out.push({ path, id: e.id, parentId, isDir: e.isDir, size: e.content?.length ?? 0, updatedAt: e.updatedAt, fingerprint: e.fingerprint, lockedByOther: e.lockedByOther });
        if (e.isDir) visit(e.id, path);
      }
    };
    visit(rootId, '');
    return out;
  }

  /** The digest of `id`'s live subtree (common/sync/tree-digest.ts). */
  digest(id: string): string {
    const all = [...this.entries.values()].filter((e) => !e.deleted);
    const entries = subtreeOf(id, all).map((e) => ({ ...e, size: e.content?.length ?? 0 }));
    return createHash('sha256').update(treeDigestInput(entries)).digest('hex');
  }

  mkdir(parentId: string | null, rawName: string): ServerEntry {
    const name = this.validName(rawName);
    if (parentId !== null) this.requireFolder(parentId);
    const clash = this.childNamed(parentId, name);
    if (clash) {
      if (clash.isDir) return clash;
      throw new RemoteError('当前目录下已存在同名文件或文件夹', 'conflict', 'FILE-3004');
    }
    const e: ServerEntry = { id: this.newId(), parentId, name, isDir: true, content: null, fingerprint: null, versions: [], deleted: false, updatedAt: this.clock.now(), lockedByOther: false };
    this.entries.set(e.id, e);
    return e;
  }

  upload(parentId: string, rawName: string, content: Buffer, replace: { id: string; ifMatch: string | null } | null): ServerEntry {
    const name = this.validName(rawName);
    this.requireFolder(parentId);
    const verdict = judgeSyncFile(name, { blockedExtensions: [...DEFAULT_BLOCKED_EXTENSIONS], sensitiveKeywords: [], secretMarks: [] });
    if (verdict.verdict === 'intercepted') throw new RemoteError('不允许上传该类型的文件', 'refused', 'UPL-4008');
    const clash = this.childNamed(parentId, name);
    if (clash) {
      if (!replace || clash.isDir || clash.id !== replace.id || (replace.ifMatch !== null && clash.fingerprint !== replace.ifMatch)) {
        throw new RemoteError('文件已被修改', 'conflict', replace ? 'SYN-5001' : 'FILE-3004');
      }
      if (clash.lockedByOther) throw new RemoteError('文件已被他人锁定，无法覆盖', 'refused', 'FILE-3010');
      clash.versions.push(clash.content!);
      clash.content = content;
      clash.fingerprint = fingerprintOf(content);
      clash.updatedAt = this.clock.now();
      return clash;
    }
    const e: ServerEntry = {
      id: this.newId(),
      parentId,
      name,
      isDir: false,
      content,
      fingerprint: fingerprintOf(content),
      versions: [],
      deleted: false,
      updatedAt: this.clock.now(),
      lockedByOther: false,
    };
    this.entries.set(e.id, e);
    return e;
  }

  download(id: string): Buffer {
    const e = this.live(id);
    if (!e || e.isDir) throw new RemoteError('文件不存在或已被删除', 'notFound', 'FILE-3005');
    return e.content!;
  }

  rename(id: string, rawName: string): void {
    const name = this.validName(rawName);
    const e = this.live(id);
    if (!e) throw new RemoteError('文件不存在或已被删除', 'notFound', 'FILE-3005');
    if (e.lockedByOther) throw new RemoteError('文件已被他人锁定', 'refused', 'FILE-3010');
    if (e.name === name) return;
    const clash = this.childNamed(e.parentId, name);
    if (clash && clash !== e) throw new RemoteError('当前目录下已存在同名文件或文件夹', 'conflict', 'FILE-3004');
    e.name = name;
    e.updatedAt = this.clock.now();
  }

  /** Into another folder, keeping the name (as the real move does). */
  moveTo(id: string, parentId: string): void {
    const e = this.live(id);
    if (!e) throw new RemoteError('文件不存在或已被删除', 'notFound', 'FILE-3005');
    this.requireFolder(parentId);
    if (e.lockedByOther) throw new RemoteError('文件已被他人锁定', 'refused', 'FILE-3010');
    for (let p: string | null = parentId; p !== null; p = this.entries.get(p)?.parentId ?? null) {
      if (p === id) throw new RemoteError('不能移动到自身或其子文件夹中', 'refused', 'FILE-3011');
    }
    if (e.parentId === parentId) return;
    const clash = this.childNamed(parentId, e.name);
    if (clash) throw new RemoteError('目标位置已存在同名文件', 'conflict', 'FILE-3013');
    e.parentId = parentId;
    e.updatedAt = this.clock.now();
  }

  /** To the recycle bin, each only if its subtree still has the given digest. */
  remove(items: ReadonlyArray<{ id: string; digest: string }>): { changed: string[] } {
    const changed: string[] = [];
    for (const { id, digest } of items) {
      const e = this.live(id);
      if (!e) continue;
      if (this.digest(id) !== digest) {
        changed.push(id);
        continue;
      }
      if (e.lockedByOther) throw new RemoteError('文件已被他人锁定', 'refused', 'FILE-3010');
      this.trash(id);
    }
    return { changed };
  }

  check(items: ReadonlyArray<{ key: string; name: string }>): PolicyVerdict[] {
    return items.map((i) => {
      const v = judgeSyncFile(i.name, { blockedExtensions: [...DEFAULT_BLOCKED_EXTENSIONS], sensitiveKeywords: [...DEFAULT_SENSITIVE_KEYWORDS], secretMarks: [] });
      return { key: i.key, verdict: v.verdict, reason: v.reason };
    });
  }

  private trash(id: string): void {
    const all = [...this.entries.values()].filter((e) => !e.deleted);
    for (const e of subtreeOf(id, all)) e.deleted = true;
  }

  // ---- other devices -------------------------------------------------------------------------

  userWrite(parentId: string, name: string, content: Buffer): void {
    const clash = this.childNamed(parentId, name);
    if (clash && !clash.isDir) {
      this.upload(parentId, name, content, { id: clash.id, ifMatch: null });
      return;
    }
    if (clash) throw new RemoteError('当前目录下已存在同名文件夹', 'conflict');
    this.upload(parentId, name, content, null);
  }

  userDelete(id: string): void {
    if (this.live(id)) this.trash(id);
  }
}
