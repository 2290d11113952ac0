import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiskThumbnailStore } from '../../server/storage/thumbnail-store';

/**
 * Thumbnails made under older rules are dropped at start (the rules changed: an SVG named .png was
 * rasterised before; its cached thumbnail must never be served again).
 */
describe('thumbnail store', () => {
  it('drops thumbnails of earlier rules at start and keeps its own', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-thumbs-'));
    const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-thumbs-tmp-'));
    await fsp.writeFile(path.join(dir, 'oldblob.webp'), 'rasterised svg');
    await fsp.mkdir(path.join(dir, 'v1'));
    await fsp.writeFile(path.join(dir, 'v1', 'x.webp'), 'old');
    const store = new DiskThumbnailStore(dir, tmp);
    await store.init();
    expect(await store.get('oldblob')).toBeNull();
    expect(await fsp.readdir(dir)).toEqual(['v2']);
    await store.put('blob1', Buffer.from('thumb'));
    const again = new DiskThumbnailStore(dir, tmp);
    await again.init();
    expect((await again.get('blob1'))?.toString()).toBe('thumb');
    await fsp.rm(dir, { recursive: true, force: true });
    await fsp.rm(tmp, { recursive: true, force: true });
  });
});
