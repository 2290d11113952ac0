import type { FileRepository } from '../../repositories/file-repository';
import type { ShareGrantRepository } from '../../repositories/share-grants';
import type { ShareRepository } from '../../repositories/share-repository';
import type { SharingLookupRepository } from '../../repositories/sharing-lookup-repository';
import type { FileReach, FileReader, ReachedFile } from '../notices/file-reach';

/**
 * The notices' reach widened by shares (app.ts: `extendFileReach(base, new SharedFileReach(…))`): an
 * entry shared with a reader (or lying under one) keeps its name in their messages, and the people
 * a share of an entry or of a folder above it reaches, with its sharer, hear of changes to it. The
 * message opens 共享文件 at the entry (target `shared`).
 */
export class SharedFileReach implements FileReach {
  constructor(
    private readonly grants: ShareGrantRepository,
    private readonly files: FileRepository,
    private readonly shares: ShareRepository,
    private readonly lookup: SharingLookupRepository,
  ) {}

  async resolve(reader: FileReader, fileIds: readonly string[]): Promise<Map<string, ReachedFile>> {
    const out = new Map<string, ReachedFile>();
    const granted = await this.grants.grants(reader.tenantId, reader.userId, fileIds);
    if (granted.size === 0) return out;
    for (const row of await this.files.findManyInTenant(reader.tenantId, [...granted.keys()])) {
      const grant = granted.get(row.id)!;
      const deleted = row.deleted_at != null;
      // 共享给我的, with the entry selected: at the top when it is the shared one, else in its folder.
      const target = deleted ? null : { kind: 'shared' as const, fileId: row.id, parentId: grant.rootId === row.id ? null : row.parent_id };
      out.set(row.id, { id: row.id, name: row.name, isDir: row.is_dir === 1, deleted, target });
    }
    return out;
  }

  async watchers(tenantId: string, fileIds: readonly string[]): Promise<Map<string, Set<string>>> {
    const out = new Map<string, Set<string>>();
    const chains = await this.grants.ancestors(tenantId, fileIds);
    const shares = await this.shares.inForceOn(tenantId, [...new Set([...chains.values()].flat())], Date.now());
    if (shares.length === 0) return out;
    for (const [id, chain] of chains) {
      const reaching = shares.filter((s) => chain.includes(s.file_id));
      if (reaching.length === 0) continue;
      const people = await this.lookup.reachedPeople(
        tenantId,
        reaching.map((s) => ({ type: s.recipient_type, id: s.recipient_id })),
      );
      out.set(id, new Set([...people, ...reaching.map((s) => s.owner_id)]));
    }
    return out;
  }
}
