/**
 * The engine's LocalFs over the simulated disk: every call passes the gate (where the simulation may
 * act, crash the engine or fail a read the way a locked file does). The sync area
 * (`.cloud-drive-sync`, temporary downloads and the trash) lives on the same disk, as it does in a
 * real synced folder.
 */
import { LocalFsError, type FileDigests, type LocalFs, type LocalStat, type ScanIssue, type ScanResult } from '../../../workers/sync/ports';
import { issueOf, observed, type Observed, type PickScanFaults } from './scan-faults';
import { SYNC_DIR_NAME } from '../../../workers/sync/names';
import type { LocalEntry } from '../../../workers/sync/model';
import { digestsOf } from './content';
import { DiskError, type SimDisk, type SimNode } from './sim-disk';
import type { Gate } from './gate';

function fsError(error: unknown): never {
  if (error instanceof DiskError) {
    const code = error.code === 'ENOENT' || error.code === 'ENOTDIR' ? 'missing' : error.code === 'EEXIST' || error.code === 'ENOTEMPTY' ? 'exists' : 'other';
    throw new LocalFsError(error.message, code);
  }
  throw error;
}

function statOf(node: SimNode): LocalStat {
  return node.kind === 'dir'
    ? { isDir: true, isSymlink: false, size: 0, mtimeMs: 0, fileId: `sim:${node.ino}` }
    : { isDir: false, isSymlink: false, size: node.content.length, mtimeMs: node.mtime, fileId: `sim:${node.ino}` };
}

export class SimFs implements LocalFs {
  private tempCounter = 0;

  constructor(
    private readonly disk: SimDisk,
    private readonly gate: Gate,
    /** Files whose reads fail as "in use by another program" (the simulation sets it). */
    private readonly busy: ReadonlySet<string> = new Set(),
    /** Scan errors to inject, and where to report what each scan really saw. */
    private readonly faults?: { pick: PickScanFaults; observed(o: Observed): void },
  ) {}

  scan(skip: (path: string, isDir: boolean) => boolean): Promise<ScanResult> {
    return this.gate.run('fs.scan', () => {
      const entries: LocalEntry[] = [];
      const issues: ScanIssue[] = [];
      const faults = new Map((this.faults?.pick(this.visible(skip)) ?? []).map((f) => [f.path, f]));
      const visit = (dirPath: string) => {
        const dir = this.disk.get(dirPath);
        if (dir?.kind !== 'dir') return;
        for (const [name, node] of dir.children.values()) {
          const path = dirPath === '' ? name : `${dirPath}/${name}`;
          const s = statOf(node);
          if (skip(path, node.kind === 'dir')) {
            if (!path.startsWith(SYNC_DIR_NAME)) entries.push({ path, isDir: s.isDir, size: s.size, mtimeMs: s.mtimeMs, fileId: s.fileId, ignored: true });
            continue;
          }
          const fault = faults.get(path);
          // A folder that cannot be listed is seen itself (its parent lists it), nothing under it; a
          // file with an I/O error, or anything that vanished since its folder was listed, not at all.
          if (fault && (fault.code === 'ENOENT' || node.kind === 'file')) {
            issues.push(issueOf(fault, node.kind === 'dir'));
            continue;
          }
          entries.push({ path, isDir: s.isDir, size: s.size, mtimeMs: s.mtimeMs, fileId: s.fileId });
          if (fault) issues.push(issueOf(fault, true));
          else if (node.kind === 'dir') visit(path);
        }
      };
      visit('');
      this.faults?.observed(observed(entries.map((e) => e.path), issues.map((i) => i.path)));
      return { entries, issues };
    });
  }

  /** The entries a scan will meet (for the fault plan to pick from). */
  private visible(skip: (path: string, isDir: boolean) => boolean): Array<{ path: string; isDir: boolean }> {
    const out: Array<{ path: string; isDir: boolean }> = [];
    for (const [path, node] of this.disk.walk()) {
      if (path === SYNC_DIR_NAME || path.startsWith(`${SYNC_DIR_NAME}/`)) continue;
      let skipped = false;
      for (let p = path; p !== '' && !skipped; p = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '') skipped = skip(p, p === path ? node.kind === 'dir' : true);
      if (!skipped) out.push({ path, isDir: node.kind === 'dir' });
    }
    return out;
  }

  stat(path: string): Promise<LocalStat | null> {
    return this.gate.run('fs.stat', () => {
      const node = this.disk.get(path);
      return node ? statOf(node) : null;
    });
  }

  digest(path: string, chunkSize: number): Promise<FileDigests> {
    return this.gate.run('fs.digest', () => {
      const node = this.disk.get(path);
      if (!node) throw new LocalFsError(`文件不存在：${path}`, 'missing');
      if (node.kind !== 'file') throw new LocalFsError(`不是文件：${path}`, 'other');
      if (this.busy.has(path)) throw new LocalFsError('文件被其他程序占用', 'busy');
      return { chunkSize, ...digestsOf(node.content, chunkSize) };
    });
  }

  openBlob(path: string): Promise<Blob> {
    return this.gate.run('fs.openBlob', () => {
      const node = this.disk.get(path);
      if (node?.kind !== 'file') throw new LocalFsError(`文件不存在：${path}`, 'missing');
      return new Blob([new Uint8Array(node.content)]);
    });
  }

  mkdir(path: string): Promise<void> {
    return this.gate.run('fs.mkdir', () => {
      try {
        this.disk.mkdir(path);
      } catch (error) {
        fsError(error);
      }
    });
  }

  renameNoReplace(from: string, to: string): Promise<void> {
    return this.gate.run('fs.rename', () => {
      try {
        this.disk.renameNoReplace(from, to);
      } catch (error) {
        fsError(error);
      }
    });
  }

  unlink(path: string): Promise<void> {
    return this.gate.run('fs.unlink', () => {
      try {
        this.disk.unlink(path);
      } catch (error) {
        fsError(error);
      }
    });
  }

  rmdir(path: string): Promise<void> {
    return this.gate.run('fs.rmdir', () => {
      try {
        this.disk.rmdir(path);
      } catch (error) {
        fsError(error);
      }
    });
  }

  async writeTemp(body: AsyncIterable<Uint8Array>): Promise<string> {
    const parts: Uint8Array[] = [];
    for await (const part of body) parts.push(part);
    return this.gate.run('fs.writeTemp', () => {
      const path = `${SYNC_DIR_NAME}/tmp/${++this.tempCounter}-${this.disk.clock.now()}`;
      this.disk.mkdirp(`${SYNC_DIR_NAME}/tmp`);
      this.disk.writeFile(path, Buffer.concat(parts));
      return path;
    });
  }

  trashPath(originalPath: string): string {
    this.disk.mkdirp(`${SYNC_DIR_NAME}/trash`);
    return `${SYNC_DIR_NAME}/trash/${++this.tempCounter}~${encodeURIComponent(originalPath)}`;
  }

  listTrash(): Promise<Array<{ trashPath: string; originalPath: string }>> {
    return this.gate.run('fs.listTrash', () => {
      const dir = `${SYNC_DIR_NAME}/trash`;
      return this.disk
        .walk(dir)
        .filter(([, node]) => node.kind === 'file')
        .map(([path]) => ({ trashPath: path, originalPath: decodeURIComponent(path.slice(dir.length + 1).replace(/^\d+~/, '')) }));
    });
  }

  cleanTemp(): Promise<void> {
    return this.gate.run('fs.cleanTemp', () => {
      const path = `${SYNC_DIR_NAME}/tmp`;
      if (this.disk.get(path)) this.disk.remove(path);
    });
  }
}
