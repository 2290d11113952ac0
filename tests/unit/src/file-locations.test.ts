import { describe, expect, it } from 'vitest';
import { categoryPage, locationOf } from '../../../src/features/files/file-locations';

describe('where an entry lives (打开所在位置)', () => {
  it('maps the §3 categories to their pages; any other value is synced files', () => {
    expect(categoryPage(1)).toBe('/main/file/personal');
    expect(categoryPage(2)).toBe('/main/file/share');
    expect(categoryPage(3)).toBe('/main/file/other');
    expect(categoryPage(4)).toBe('/main/file/backups');
    expect(categoryPage(9)).toBe('/main/file/backups');
  });

  it('opens the containing folder, or the folder itself with inside', () => {
    const file = { id: 'f', parentId: 'p', category: 1, spaceId: null, isDir: false };
    expect(locationOf(file, null)).toBe('/main/file/personal?dir=p');
    expect(locationOf({ ...file, parentId: null }, null)).toBe('/main/file/personal');
    expect(locationOf({ ...file, isDir: true }, null, true)).toBe('/main/file/personal?dir=f');
    // a file is never opened "inside"
    expect(locationOf(file, null, true)).toBe('/main/file/personal?dir=p');
  });

  it('sends space entries to the public space page or their group', () => {
    const entry = { id: 'f', parentId: 'root', category: 0, spaceId: 'pub', isDir: false };
    expect(locationOf(entry, 'pub')).toBe('/main/file/publicSpace?dir=root');
    expect(locationOf({ ...entry, spaceId: 'g1' }, 'pub')).toBe('/main/group?space=g1&dir=root');
  });
});
