/**
 * The canonical text of a synced subtree, whose SHA-256 is its digest: a delete's precondition
 * (`POST /api/syn/remove` leaves an entry alone when its subtree no longer has the digest the client
 * computed from its listing). Both sides build the same text from the same fields; each hashes it
 * with its own SHA-256. (The listing's token is the server's own version of a subtree, opaque.)
 *
 * One line per live entry (the entry itself and everything under it), sorted by id:
 * `id|parentId|name|isDir|fingerprint|size|updatedAt|locked`.
 */
export interface DigestEntry {
  id: string;
  parentId: string | null;
  name: string;
  isDir: boolean;
  fingerprint: string | null;
  size: number;
  updatedAt: number;
  lockedByOther: boolean;
}

export function treeDigestInput(entries: readonly DigestEntry[]): string {
  const lines = entries.map(
    (e) => `${e.id}|${e.parentId ?? ''}|${e.name}|${e.isDir ? 1 : 0}|${e.fingerprint ?? ''}|${e.size}|${e.updatedAt}|${e.lockedByOther ? 1 : 0}`,
  );
  lines.sort();
  return lines.join('\n');
}

/** The entry and its descendants in a listing (by parent id). */
export function subtreeOf<T extends { id: string; parentId: string | null }>(rootId: string, entries: readonly T[]): T[] {
  const children = new Map<string, T[]>();
  let root: T | undefined;
  for (const e of entries) {
    if (e.id === rootId) root = e;
    if (e.parentId === null) continue;
    const list = children.get(e.parentId);
    if (list) list.push(e);
    else children.set(e.parentId, [e]);
  }
  const out: T[] = root ? [root] : [];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]!.id) ?? []));
  return out;
}
