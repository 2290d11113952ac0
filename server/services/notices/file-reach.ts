import type { FileMessageTarget } from '../../../common/api/notices';
import type { EntryWithSpace, NoticeFileRepository } from '../../repositories/notice-file-repository';
import type { Caller } from '../caller';

/** An entry as a message's reader may reach it now. */
export interface ReachedFile {
  id: string;
  name: string;
  isDir: boolean;
  /** In the recycle bin: the name may be shown, there is nowhere to open. */
  deleted: boolean;
  target: FileMessageTarget | null;
}

/**
 * Who may see which entry, for the notices. Two questions:
 * - `resolve`: may this reader still reach the entries their messages name? A message whose entry
 *   is out of reach (unknown, another tenant's, no longer shared with them, their group left, purged)
 *   shows neither the name nor a link. An entry in the recycle bin is reachable while its place is.
 * - `watchers`: who should hear about a change to these entries: the owner, every member of the
 *   group space holding it, and whoever follows it or a folder above it (我的收藏) and may see it.
 *
 * The sharing work widens both (entries shared with a reader are reachable; the people an entry is
 * shared with and its sharer are watchers): wrap this with `extendFileReach` in app.ts.
 */
/** What reach asks of a reader: a request's caller, or a connected user of the notice stream. */
export type FileReader = Pick<Caller, 'tenantId' | 'userId' | 'role'>;

export interface FileReach {
  resolve(reader: FileReader, fileIds: readonly string[]): Promise<Map<string, ReachedFile>>;
  watchers(tenantId: string, fileIds: readonly string[]): Promise<Map<string, Set<string>>>;
}

function targetOf(row: EntryWithSpace): FileMessageTarget | null {
  if (row.deleted_at != null) return null;
  return {
    kind: 'file',
    fileId: row.id,
    parentId: row.parent_id,
    isDir: row.is_dir === 1,
    category: row.category,
    spaceId: row.space_id ?? null,
    spaceKind: row.space_kind,
  };
}

export function reachedOf(row: EntryWithSpace): ReachedFile {
  return { id: row.id, name: row.name, isDir: row.is_dir === 1, deleted: row.deleted_at != null, target: targetOf(row) };
}

/** The reach of the spaces alone (personal files, group spaces, the public space). */
export class SpaceFileReach implements FileReach {
  constructor(private readonly repo: NoticeFileRepository) {}

  async resolve(reader: FileReader, fileIds: readonly string[]): Promise<Map<string, ReachedFile>> {
    const out = new Map<string, ReachedFile>();
    const rows = await this.repo.entries(reader.tenantId, [...new Set(fileIds)]);
    const groupSpaces = [...new Set(rows.filter((r) => r.space_kind === 'group').map((r) => r.space_id!))];
    // Admins may see every group space of their tenant (space-access.ts), never others' personal files.
    const member = reader.role === 'admin' ? new Set(groupSpaces) : await this.repo.memberOf(reader.userId, groupSpaces);
    for (const row of rows) {
      const ok = !row.space_id ? row.owner_id === reader.userId : row.space_kind === 'public' || member.has(row.space_id);
      if (ok) out.set(row.id, reachedOf(row));
    }
    return out;
  }

  async watchers(tenantId: string, fileIds: readonly string[]): Promise<Map<string, Set<string>>> {
    const out = new Map<string, Set<string>>();
    const rows = await this.repo.entries(tenantId, [...new Set(fileIds)]);
    const groupSpaces = [...new Set(rows.filter((r) => r.space_kind === 'group').map((r) => r.space_id!))];
    const members = await this.repo.spaceMembers(groupSpaces);
    const followers = await this.repo.followers(tenantId, rows.map((r) => r.id));
    const people = await this.repo.liveUsers(tenantId, [...followers.values()].flat());
    for (const row of rows) {
      const set = new Set<string>([row.owner_id]);
      const inGroup = new Set(row.space_kind === 'group' ? (members.get(row.space_id!) ?? []) : []);
      for (const m of inGroup) set.add(m);
      for (const f of followers.get(row.id) ?? []) {
        // A follower who can no longer see it (left the group) hears nothing.
        const mayFollow = !row.space_id ? f === row.owner_id : row.space_kind === 'public' || inGroup.has(f) || people.get(f)?.role === 'admin';
        if (mayFollow) set.add(f);
      }
      out.set(row.id, set);
    }
    return out;
  }
}

/**
 * A reach widened by another source (sharing): an entry is reachable when either says so, and the
 * watchers of an entry are both sets together.
 */
export function extendFileReach(base: FileReach, extra: FileReach): FileReach {
  return {
    async resolve(reader, fileIds) {
      const a = await base.resolve(reader, fileIds);
      const missing = fileIds.filter((id) => !a.has(id));
      if (missing.length === 0) return a;
      const b = await extra.resolve(reader, missing);
      for (const [id, f] of b) a.set(id, f);
      return a;
    },
    async watchers(tenantId, fileIds) {
      const a = await base.watchers(tenantId, fileIds);
      const b = await extra.watchers(tenantId, fileIds);
      for (const [id, set] of b) a.set(id, new Set([...(a.get(id) ?? []), ...set]));
      return a;
    },
  };
}
