import { randomBytes } from 'node:crypto';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import { nameSortKey } from '../../../common/files/name-sort-key';

/**
 * Fills one folder with `count` entries (5 % folders, the rest files of varied size, name and
 * time) straight in the database, in one transaction: the API would take minutes for 100k.
 * Returns nothing; the folder must exist and belong to `ownerId`.
 */
export function fillFolder(db: SqliteDatabase, folder: { id: string; tenantId: string; ownerId: string; category: number }, count: number): void {
  const insert = db.prepare(
    `insert into files (id, tenant_id, owner_id, parent_id, category, name, name_key, sort_key, is_dir, size, blob_id, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, null, ?, ?)`,
  );
  const now = Date.now();
  const exts = ['docx', 'xlsx', 'pdf', 'txt', 'png', 'mp4', 'zip', 'bin'];
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const isDir = i % 20 === 0 ? 1 : 0;
      const name = isDir ? `目录-${i}` : `文件-${(i * 7919) % count}-${i}.${exts[i % exts.length]}`;
      const t = now - ((i * 104729) % (365 * 24 * 3600)) * 1000;
      insert.run(randomBytes(16).toString('base64url'), folder.tenantId, folder.ownerId, folder.id, folder.category, name, name.toLowerCase(), nameSortKey(name), isDir, isDir ? 0 : (i * 2654435761) % 50_000_000, t, t);
    }
  })();
  db.exec('analyze');
}
