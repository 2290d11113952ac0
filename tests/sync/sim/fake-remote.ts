/**
 * The engine's RemoteApi over the fake server, every call through the gate. A move of an entry to
 * another folder under another name is two calls, as over HTTP (http-remote.ts): rename where the new
 * name is free first, then move; so a crash between them is simulated too.
 */
import type { RemoteEntry } from '../../../workers/sync/model';
import { RemoteError, type BatchFile, type BatchFileOutcome, type FileDigests, type PolicyVerdict, type RemoteApi, type RemoteListing, type UploadSession, type UploadTarget } from '../../../workers/sync/ports';
import { SIM_CHUNK_SIZE } from './content';
import type { FakeServer } from './fake-server';
import type { Gate } from './gate';
import { observed, type Observed, type PickListFault } from './scan-faults';
import { isInside } from '../../../workers/sync/names';

export const SIM_ACCOUNT = '模拟用户';

export class FakeRemote implements RemoteApi {
  constructor(
    private readonly server: FakeServer,
    private readonly gate: Gate,
    /** A listing that leaves out a folder's contents (drawn by the simulation), and where to report what each listing gave. */
    private readonly faults?: { pick: PickListFault; observed(o: Observed): void },
  ) {}

  async account(): Promise<string> {
    return this.gate.run('remote.account', () => SIM_ACCOUNT);
  }

  ensureRoot(path: string): Promise<string> {
    return this.gate.run('remote.ensureRoot', () => this.server.ensureRoot(path));
  }

  listTree(rootId: string, token: string | null): Promise<RemoteListing> {
    return this.gate.run('remote.list', () => {
      const now = this.server.digest(rootId);
      if (token !== null && token === now) return { token: now, entries: null };
      let entries = this.server.list(rootId);
      const hole = this.faults?.pick(entries.filter((e) => e.isDir).map((e) => e.path)) ?? null;
      if (hole === null) {
        this.faults?.observed(observed(entries.map((e) => e.path), []));
        return { token: now, entries };
      }
      entries = entries.filter((e) => !isInside(e.path, hole));
      this.faults?.observed(observed(entries.map((e) => e.path), [hole]));
      return { token: now, entries, unreadable: [{ path: hole, reason: `云端文件夹“${hole}”的内容没有列出：稍后会自动重试（为免误删，本次同步没有改动其中的任何文件）` }] };
    });
  }

  mkdir(parentId: string, name: string): Promise<RemoteEntry> {
    return this.gate.run('remote.mkdir', () => {
      const e = this.server.mkdir(parentId, name);
      return { path: e.name, id: e.id, parentId, isDir: true, size: 0, updatedAt: e.updatedAt, fingerprint: null };
    });
  }

  async upload(source: Blob, target: UploadTarget, _digests: FileDigests | null, session: UploadSession): Promise<{ id: string; fingerprint: string }> {
    const bytes = Buffer.from(await source.arrayBuffer());
    return this.gate.run('remote.upload', () => {
      const e = this.server.upload(target.parentId, target.name, bytes, target.replace);
      session.bytesDone(bytes.length);
      return { id: e.id, fingerprint: e.fingerprint! };
    });
  }

  /** One call: the batch is one request and one transaction on the real server (each item refusable on its own). */
  uploadBatch(files: readonly BatchFile[]): Promise<BatchFileOutcome[]> {
    return this.gate.run('remote.uploadBatch', () =>
      files.map((f): BatchFileOutcome => {
        try {
          const e = this.server.upload(f.target.parentId, f.target.name, Buffer.from(f.bytes), f.target.replace);
          return { id: e.id, fingerprint: e.fingerprint! };
        } catch (error) {
          if (error instanceof RemoteError) return { error };
          throw error;
        }
      }),
    );
  }

  async download(id: string): Promise<AsyncIterable<Uint8Array>> {
    const bytes = await this.gate.run('remote.download', () => this.server.download(id));
    return (async function* () {
      yield bytes;
    })();
  }

  async move(id: string, parentId: string, name: string): Promise<void> {
    const e = await this.gate.run('remote.lookup', () => this.server.live(id));
    if (!e) {
      await this.gate.run('remote.rename', () => this.server.rename(id, name)); // answers not found
      return;
    }
    if (e.parentId === parentId) {
      await this.gate.run('remote.rename', () => this.server.rename(id, name));
      return;
    }
    const freeHere = !this.server.childNamed(e.parentId, name) || this.server.childNamed(e.parentId, name) === e;
    if (e.name !== name && freeHere) await this.gate.run('remote.rename', () => this.server.rename(id, name));
    await this.gate.run('remote.move', () => this.server.moveTo(id, parentId));
    if (this.server.live(id)?.name !== name) await this.gate.run('remote.rename', () => this.server.rename(id, name));
  }

  remove(items: ReadonlyArray<{ id: string; digest: string }>): Promise<{ changed: string[] }> {
    return this.gate.run('remote.remove', () => this.server.remove(items));
  }

  check(items: ReadonlyArray<{ key: string; name: string; size: number }>): Promise<PolicyVerdict[]> {
    return this.gate.run('remote.check', () => this.server.check(items));
  }

  async chunkSize(): Promise<number> {
    return SIM_CHUNK_SIZE;
  }
}
