/**
 * The name sort key's rank table (common/files/name-sort-key.ts) kept in DATA_DIR/cache between
 * starts: ranking every BMP character with the collator is ~15 % of a restart's CPU (the crash tests
 * restart servers 3–5 times each; a busy machine pays it many times over in wall time), reading the
 * 320 KiB table back ~1 ms.
 *
 * The file is named by the version the stored keys carry (SORT_KEY_VERSION and ICU, db/name-sort-keys.ts):
 * a Node upgrade with another ICU ranks afresh and writes a new file, and removes the old ones. A table
 * that is damaged or that this collator disagrees with is not used (the key module checks it), and is
 * written again. Nothing here is needed: without the directory, or with a read-only one, the server
 * ranks at every start as before.
 */
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { rankTableBytes, useRankTable } from '../../common/files/name-sort-key';
import { currentSortKeyVersion } from '../db/name-sort-keys';

const PREFIX = 'name-ranks-';

export const rankCacheDir = (dataDir: string): string => path.join(dataDir, 'cache');

/** The table's file for this key version, e.g. `name-ranks-1_78.2.bin`. */
export const rankCacheFile = (dataDir: string): string =>
  path.join(rankCacheDir(dataDir), `${PREFIX}${currentSortKeyVersion().replace(/[^0-9A-Za-z.]/g, '_')}.bin`);

/**
 * Makes the rank table ready before the server's first key: read from the cache when it holds this
 * version's table, ranked (and written for the next start) otherwise. Answers which it was.
 */
export async function loadNameRanks(dataDir: string): Promise<'read' | 'ranked'> {
  const file = rankCacheFile(dataDir);
  const kept = await fsp.readFile(file).catch(() => null);
  if (kept && useRankTable(kept)) return 'read';
  const table = rankTableBytes();
  try {
    await fsp.mkdir(path.dirname(file), { recursive: true });
    // A name of its own, then a rename: a process starting beside us reads a whole table or none.
    const temp = `${file}.${randomUUID()}.part`;
    await fsp.writeFile(temp, table);
    await fsp.rename(temp, file);
    for (const name of await fsp.readdir(path.dirname(file))) {
      if (name.startsWith(PREFIX) && name !== path.basename(file) && !name.endsWith('.part')) await fsp.rm(path.join(path.dirname(file), name), { force: true });
    }
  } catch {
    // Only a cost: the next start ranks again.
  }
  return 'ranked';
}
