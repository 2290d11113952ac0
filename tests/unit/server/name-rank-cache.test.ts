import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The name sort key's rank table kept in DATA_DIR/cache (server/storage/name-rank-cache.ts): a start
 * that reads it back keys every name exactly as one that ranked afresh; a damaged table, or one this
 * collator disagrees with, is not used. Each start is a fresh module (the table is module state).
 */
const NAMES = ['文件10', '文件2', '阿里', '报告', '张三', 'abc', 'ABC', 'Äbc', 'ａｂｃ', '², x', '٣ files', '😀 emoji', '𠀀 rare', '', ' ', 'résumé.txt', 'Ω'];

async function freshStart() {
  vi.resetModules();
  const keys = await import('../../../common/files/name-sort-key');
  const cache = await import('../../../server/storage/name-rank-cache');
  return { keys, cache };
}

let dataDir: string;
/** The table and the keys of a start that ranked (once for the file: ranking takes ~1 s on a busy machine). */
let good: Buffer;
let ranked: string[];
beforeAll(async () => {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'name-ranks-'));
  const first = await freshStart();
  expect(await first.cache.loadNameRanks(dir)).toBe('ranked');
  ranked = NAMES.map((n) => first.keys.nameSortKey(n));
  expect(await fsp.readdir(first.cache.rankCacheDir(dir))).toEqual([path.basename(first.cache.rankCacheFile(dir))]);
  good = await fsp.readFile(first.cache.rankCacheFile(dir));
  await fsp.rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'name-ranks-'));
});
afterEach(async () => {
  await fsp.rm(dataDir, { recursive: true, force: true });
});

async function keep(table: Uint8Array): Promise<string> {
  const { cache } = await freshStart();
  const file = cache.rankCacheFile(dataDir);
  await fsp.mkdir(path.dirname(file), { recursive: true });
  await fsp.writeFile(file, table);
  return file;
}

describe('the rank table kept between starts', () => {
  it('written by a start that ranked, is read by the next, which keys names the same', async () => {
    await keep(good);
    const next = await freshStart();
    expect(await next.cache.loadNameRanks(dataDir)).toBe('read');
    expect(NAMES.map((n) => next.keys.nameSortKey(n))).toEqual(ranked);
  });

  it('a damaged table is ranked again and written whole', async () => {
    const file = await keep(good.subarray(0, 1000));
    const start = await freshStart();
    expect(await start.cache.loadNameRanks(dataDir)).toBe('ranked');
    expect(NAMES.map((n) => start.keys.nameSortKey(n))).toEqual(ranked);
    expect((await fsp.readFile(file)).equals(good)).toBe(true);
    const flipped = Buffer.from(good);
    flipped.writeUInt8(flipped.readUInt8(4 * 0x4e2d) ^ 1, 4 * 0x4e2d); // 中's rank
    expect((await freshStart()).keys.useRankTable(flipped)).toBe(false);
  });

  it('a table this collator disagrees with (its checksum made to match) is not used', async () => {
    const swapped = Buffer.from(good);
    const a = swapped.readUInt32LE(4 * 0x61);
    swapped.writeUInt32LE(swapped.readUInt32LE(4 * 0x62), 4 * 0x61);
    swapped.writeUInt32LE(a, 4 * 0x62);
    swapped.writeUInt32LE(fnv1a(swapped.subarray(0, swapped.length - 4)), swapped.length - 4);
    expect((await freshStart()).keys.useRankTable(swapped)).toBe(false);
  });

  it('the tables of other versions are removed', async () => {
    const { cache } = await freshStart();
    const dir = cache.rankCacheDir(dataDir);
    await fsp.mkdir(dir, { recursive: true });
    await fsp.writeFile(path.join(dir, 'name-ranks-0_70.1.bin'), 'old');
    expect(await cache.loadNameRanks(dataDir)).toBe('ranked');
    expect(await fsp.readdir(dir)).toEqual([path.basename(cache.rankCacheFile(dataDir))]);
  });

  it('where nothing can be written, a start only ranks', async () => {
    const nowhere = path.join(dataDir, 'a-file');
    await fsp.writeFile(nowhere, '');
    const start = await freshStart();
    expect(await start.cache.loadNameRanks(nowhere)).toBe('ranked');
    expect(NAMES.map((n) => start.keys.nameSortKey(n))).toEqual(ranked);
  });
});

function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}
