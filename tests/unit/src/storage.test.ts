import { describe, expect, it } from 'vitest';
import { createStorage, deobfuscate, memoryBackend, obfuscate, STORAGE_ROOT_KEY } from '../../../src/lib/storage';
import { menuRoutesOf } from '../../../src/lib/menu-routes';

describe('obfuscated local storage (spec §4/§9)', () => {
  it('round-trips values, including Chinese text', () => {
    const backend = memoryBackend();
    const storage = createStorage(backend);
    storage.set('menuRoutes', ['/main/file/personal', '/main/safe']);
    storage.set('名字', { a: '个人文件', n: 3 });
    const again = createStorage(backend);
    expect(again.get('menuRoutes')).toEqual(['/main/file/personal', '/main/safe']);
    expect(again.get('名字')).toEqual({ a: '个人文件', n: 3 });
    again.remove('名字');
    expect(createStorage(backend).get('名字')).toBeUndefined();
  });

  it('keeps everything under one root key, not readable as plain JSON', () => {
    const backend = memoryBackend();
    createStorage(backend).set('menuRoutes', ['/main/file/personal']);
    const raw = backend.getItem(STORAGE_ROOT_KEY)!;
    expect(raw).toBeTruthy();
    expect(raw).not.toContain('menuRoutes');
    expect(() => JSON.parse(raw) as unknown).toThrow();
    expect(deobfuscate(raw)).toEqual({ menuRoutes: ['/main/file/personal'] });
    expect(deobfuscate(obfuscate({ x: '中文' }))).toEqual({ x: '中文' });
  });

  it('clears the storage when the root entry is missing', () => {
    const backend = memoryBackend();
    backend.setItem('stale', 'left from an old version');
    const storage = createStorage(backend);
    expect(backend.getItem('stale')).toBeNull();
    expect(backend.getItem(STORAGE_ROOT_KEY)).not.toBeNull();
    expect(storage.get('anything')).toBeUndefined();
  });

  it('clears the storage when the root entry is removed later', () => {
    const backend = memoryBackend();
    const storage = createStorage(backend);
    storage.set('menuRoutes', ['/a']);
    backend.clear(); // e.g. the user cleared site data, another tab then wrote a key
    backend.setItem('other', '1');
    expect(storage.get('menuRoutes')).toBeUndefined();
    expect(backend.getItem('other')).toBeNull();
  });

  it('clears the storage when the root entry is corrupt', () => {
    const backend = memoryBackend();
    backend.setItem(STORAGE_ROOT_KEY, 'not-base64-@@@');
    backend.setItem('other', '1');
    const storage = createStorage(backend);
    expect(backend.getItem('other')).toBeNull();
    storage.set('k', 1);
    expect(storage.get('k')).toBe(1);
  });
});

describe('menu route list', () => {
  it('collects every url of the menu tree once', () => {
    expect(
      menuRoutesOf([
        { code: 'file', name: '文件', url: '/main/file/personal', children: [{ code: 'p', name: '个人文件', url: '/main/file/personal' }, { code: 'r', name: '回收站', url: '/main/file/recycle' }] },
        { code: 'g', name: '群组', url: '/main/group' },
      ]),
    ).toEqual(['/main/file/personal', '/main/file/recycle', '/main/group']);
  });
});
