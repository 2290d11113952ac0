/**
 * The users of the simulation: one at the laptop (acting on the simulated disk) and one on another
 * device (acting on the fake server), drawing every choice from the seed. Names come from a small
 * pool so that collisions happen often: case-only twins, NFC/NFD twins, names the server refuses,
 * a name the server takes but Windows cannot hold,
 * temporary names the sync ignores, names the tenant's rules intercept.
 *
 * Every write makes a new content; the ledger records which contents a user knowingly replaced or
 * deleted (those may end up only in versions or the recycle bin), so the oracle can tell a
 * legitimate disappearance from a lost one.
 */
import { isInside, SYNC_DIR_NAME } from '../../../workers/sync/names';
import { contentIdOf, makeContent } from './content';
import type { FakeServer, ServerEntry } from './fake-server';
import type { Rng } from './rng';
import type { SimDisk } from './sim-disk';

const NFD_CAFE = 'Cafe\u0301.txt';
/** [name, weight]. */
const NAME_POOL: Array<[string, number]> = [
  ['a.txt', 6],
  ['A.txt', 2],
  ['b.md', 5],
  ['notes.txt', 5],
  ['photo.jpg', 4],
  ['Café.txt', 2],
  [NFD_CAFE, 2],
  ['报告.docx', 4],
  ['报告 (1).docx', 1],
  ['space name.txt', 2],
  ['dir', 5],
  ['Dir', 2],
  ['sub', 4],
  ['新建文件夹', 3],
  ['x,y.txt', 1], // refused by the server
  ['10:30.txt', 1], // taken by the server, but Windows cannot hold it: the sync does not bring it up
  ['trail.', 1], // refused by the server
  ['~$tmp.docx', 1], // ignored
  ['.DS_Store', 1], // ignored
  ['run.exe', 1], // intercepted
  ['机密★计划.txt', 1], // secret
  ['绝密资料.txt', 1], // sensitive
];
const TOTAL_WEIGHT = NAME_POOL.reduce((n, [, w]) => n + w, 0);
/** Names a server accepts (the other device can only create those). */
const SERVER_NAMES = new Set(NAME_POOL.map(([n]) => n).filter((n) => n !== 'x,y.txt' && n !== 'trail.' && n !== 'run.exe'));

export function pickName(rng: Rng, serverOnly = false): string {
  for (;;) {
    let r = rng.int(TOTAL_WEIGHT);
    for (const [name, weight] of NAME_POOL) {
      r -= weight;
      if (r < 0) {
        if (!serverOnly || SERVER_NAMES.has(name)) return name.normalize(name === NFD_CAFE ? 'NFD' : 'NFC');
        break;
      }
    }
  }
}

export class Ledger {
  private next = 1;
  /** Content id → knowingly replaced or deleted by a user. */
  readonly dropped = new Set<number>();
  readonly created = new Map<number, 'local' | 'remote'>();

  /** A new content; it counts once `wrote` says it landed (a refused write leaves nothing to keep). */
  newContent(rng: Rng, _side: 'local' | 'remote', sameSizeAs?: Buffer): Buffer {
    const id = this.next++;
    const size = sameSizeAs && rng.chance(0.5) ? sameSizeAs.length : 12 + rng.int(180);
    return makeContent(id, size);
  }

  wrote(bytes: Buffer, side: 'local' | 'remote'): void {
    this.created.set(contentIdOf(bytes), side);
  }

  drop(bytes: Buffer | null | undefined): void {
    if (!bytes) return;
    const id = contentIdOf(bytes);
    if (id > 0) this.dropped.add(id);
  }
}

const visible = (path: string) => path !== SYNC_DIR_NAME && !path.startsWith(`${SYNC_DIR_NAME}/`);

export class LocalUser {
  constructor(
    private readonly disk: SimDisk,
    private readonly rng: Rng,
    private readonly ledger: Ledger,
    private readonly trace: (line: string) => void,
  ) {}

  private entries() {
    return this.disk.walk().filter(([p]) => visible(p));
  }

  private dirs(): string[] {
    return ['', ...this.entries().filter(([, n]) => n.kind === 'dir').map(([p]) => p)].filter((p) => p.split('/').length < 4);
  }

  act(): void {
    const r = this.rng.next();
    const entries = this.entries();
    const files = entries.filter(([, n]) => n.kind === 'file');
    try {
      if (r < 0.3 || entries.length === 0) return this.create();
      if (r < 0.55 && files.length > 0) {
        const [path, node] = this.rng.pick(files);
        const old = (node as { content: Buffer }).content;
        const next = this.ledger.newContent(this.rng, 'local', old);
        if (this.rng.chance(0.3)) this.disk.replaceFile(path, next);
        else this.disk.writeFile(path, next);
        this.ledger.drop(old);
        this.ledger.wrote(next, 'local');
        this.trace(`local edit ${path} c${contentIdOf(old)} → c${contentIdOf(next)}`);
        return;
      }
      if (r < 0.67) {
        const [path, node] = this.rng.pick(entries);
        for (const [, n] of node.kind === 'dir' ? this.disk.walk(path) : []) if (n.kind === 'file') this.ledger.drop(n.content);
        if (node.kind === 'file') this.ledger.drop(node.content);
        this.disk.remove(path);
        this.trace(`local delete ${path}`);
        return;
      }
      if (r < 0.85) {
        const [path] = this.rng.pick(entries);
        const dir = this.rng.pick(this.dirs().filter((d) => d !== path && !isInside(d, path)));
        const name = this.rng.chance(0.3) ? flipCase(path.split('/').pop()!) : pickName(this.rng);
        const to = dir === '' ? name : `${dir}/${name}`;
        this.disk.renameNoReplace(path, to);
        this.trace(`local move ${path} → ${to}`);
        return;
      }
      if (r < 0.93) {
        const dir = this.rng.pick(this.dirs());
        const name = pickName(this.rng);
        const path = dir === '' ? name : `${dir}/${name}`;
        this.disk.mkdir(path);
        this.trace(`local mkdir ${path}`);
        return;
      }
      if (files.length > 0) {
        const [path] = this.rng.pick(files);
        this.disk.touch(path);
        this.trace(`local touch ${path}`);
      }
    } catch {
      // The name was taken or the place vanished: a user's attempt that failed, nothing happened.
    }
  }

  create(): void {
    const dir = this.rng.pick(this.dirs());
    const path = dir === '' ? pickName(this.rng) : `${dir}/${pickName(this.rng)}`;
    if (this.disk.get(path)) return;
    try {
      const content = this.ledger.newContent(this.rng, 'local');
      this.disk.writeFile(path, content);
      this.ledger.wrote(content, 'local');
      this.trace(`local create ${path} c${contentIdOf(content)}`);
    } catch {
      // parent vanished
    }
  }
}

export class RemoteUser {
  constructor(
    private readonly server: FakeServer,
    private readonly rootId: string,
    private readonly rng: Rng,
    private readonly ledger: Ledger,
    private readonly trace: (line: string) => void,
  ) {}

  private subtree(): ServerEntry[] {
    const out: ServerEntry[] = [];
    const visit = (parentId: string) => {
      for (const e of this.server.children(parentId).sort((a, b) => (a.id < b.id ? -1 : 1))) {
        out.push(e);
        if (e.isDir) visit(e.id);
      }
    };
    visit(this.rootId);
    return out;
  }

  private folders(): string[] {
    return [this.rootId, ...this.subtree().filter((e) => e.isDir).map((e) => e.id)];
  }

  act(): void {
    const r = this.rng.next();
    const all = this.subtree();
    const files = all.filter((e) => !e.isDir);
    try {
      if (r < 0.3 || all.length === 0) {
        const parent = this.rng.pick(this.folders());
        const name = pickName(this.rng, true);
        if (this.server.childNamed(parent, name)) return;
        const content = this.ledger.newContent(this.rng, 'remote');
        this.server.userWrite(parent, name, content);
        this.ledger.wrote(content, 'remote');
        this.trace(`remote create ${name} in ${parent} c${contentIdOf(content)}`);
        return;
      }
      if (r < 0.55 && files.length > 0) {
        const f = this.rng.pick(files);
        const old = f.content!;
        const next = this.ledger.newContent(this.rng, 'remote', old);
        this.server.userWrite(f.parentId!, f.name, next);
        this.ledger.drop(old);
        this.ledger.wrote(next, 'remote');
        this.trace(`remote edit ${f.name} (${f.id}) c${contentIdOf(old)} → c${contentIdOf(next)}`);
        return;
      }
      if (r < 0.67) {
        const e = this.rng.pick(all);
        for (const d of [e, ...all.filter((x) => this.isUnder(x, e.id))]) if (!d.isDir) this.ledger.drop(d.content);
        this.server.userDelete(e.id);
        this.trace(`remote delete ${e.name} (${e.id})`);
        return;
      }
      if (r < 0.87) {
        const e = this.rng.pick(all);
        const parent = this.rng.pick(this.folders().filter((id) => id !== e.id && !this.isUnderId(id, e.id)));
        const name = this.rng.chance(0.3) ? flipCase(e.name) : pickName(this.rng, true);
        if (parent !== e.parentId) this.server.moveTo(e.id, parent);
        this.server.rename(e.id, name);
        this.trace(`remote move ${e.name} (${e.id}) → ${name} in ${parent}`);
        return;
      }
      const parent = this.rng.pick(this.folders());
      const name = pickName(this.rng, true);
      this.server.mkdir(parent, name);
      this.trace(`remote mkdir ${name} in ${parent}`);
    } catch {
      // refused (name taken...): a user's attempt that failed
    }
  }

  private isUnder(e: ServerEntry, ancestorId: string): boolean {
    return this.isUnderId(e.id, ancestorId);
  }

  private isUnderId(id: string, ancestorId: string): boolean {
    for (let p = this.server.entries.get(id)?.parentId ?? null; p !== null; p = this.server.entries.get(p)?.parentId ?? null) {
      if (p === ancestorId) return true;
    }
    return false;
  }
}

function flipCase(name: string): string {
  const upper = name.toUpperCase();
  return upper !== name ? upper : name.toLowerCase();
}
