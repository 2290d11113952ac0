import { describe, expect, it } from 'vitest';
import { failedModuleUrl, moduleInChunk, reimportFailedModule, retryModuleUrl, retryingImport } from '../../../src/lib/module-retry';

describe('importing a failed page chunk again', () => {
  it('finds the module URL in the failed import messages of Chromium and Firefox, without an earlier retry', () => {
    expect(failedModuleUrl(new TypeError('Failed to fetch dynamically imported module: http://drive.local/assets/MainShell-a1B2.js'))).toBe(
      'http://drive.local/assets/MainShell-a1B2.js',
    );
    expect(failedModuleUrl(new TypeError('error loading dynamically imported module: https://drive.local:8443/assets/auth-9.js?retry=2'))).toBe(
      'https://drive.local:8443/assets/auth-9.js',
    );
    expect(failedModuleUrl(new TypeError('Importing a module script failed.'))).toBeNull();
    expect(failedModuleUrl(undefined)).toBeNull();
  });

  it('adds or replaces the retry parameter, keeping other query parameters', () => {
    expect(retryModuleUrl('http://h/a.js', 1)).toBe('http://h/a.js?retry=1');
    expect(retryModuleUrl('http://h/a.js?v=3&retry=1', 2)).toBe('http://h/a.js?v=3&retry=2');
  });

  it('shares one re-import per failed URL, and makes a new one only after it failed too', async () => {
    const asked: string[] = [];
    let fail = true;
    const importModule = (url: string) => {
      asked.push(url);
      return fail ? Promise.reject(new TypeError(`Failed to fetch dynamically imported module: ${url}`)) : Promise.resolve({ url });
    };
    const url = 'http://h/assets/Shared-x.js';
    await expect(reimportFailedModule(url, importModule)).rejects.toThrow(TypeError);
    fail = false;
    const first = reimportFailedModule<{ url: string }>(url, importModule);
    const second = reimportFailedModule<{ url: string }>(url, importModule);
    expect(second).toBe(first);
    await expect(first).resolves.toEqual({ url: 'http://h/assets/Shared-x.js?retry=2' });
    expect(asked).toEqual(['http://h/assets/Shared-x.js?retry=1', 'http://h/assets/Shared-x.js?retry=2']);
  });
});

describe('the module asked for, out of a re-imported chunk', () => {
  const MainShell = () => null;
  const isShell = (m: { MainShell?: unknown }) => typeof m.MainShell === 'function';

  it('is the chunk itself when the chunk was made for that module', () => {
    const chunk = { MainShell };
    expect(moduleInChunk(chunk, isShell)).toBe(chunk);
  });

  it("is the namespace the chunk exports for it when the chunk holds several modules", () => {
    const shellModule = { MainShell };
    const chunk = { n: { AccountGate: () => null }, t: shellModule, r: () => null, x: 'text' };
    expect(moduleInChunk(chunk, isShell)).toBe(shellModule);
  });

  it('fails clearly when the chunk does not hold it', () => {
    expect(() => moduleInChunk({ n: { Other: () => null } }, isShell)).toThrow('does not hold the module');
  });
});


describe('a loader that retries a failed import', () => {
  it('imports as written first; after a failure, the chunk the failure named again, picking the module out', async () => {
    const url = 'http://127.0.0.1/assets/host-abc.js';
    let first = 0;
    const asked: string[] = [];
    const load = retryingImport<{ default: string }>(
      () => (first++ === 0 ? Promise.reject(new TypeError(`Failed to fetch dynamically imported module: ${url}`)) : Promise.resolve({ default: 'never' })),
      (m) => m.default === 'host',
      (retryUrl) => (asked.push(retryUrl), Promise.resolve({ other: { x: 1 }, host: { default: 'host' } })),
    );
    await expect(load()).rejects.toThrow(url);
    expect(await load()).toEqual({ default: 'host' });
    expect(asked).toEqual([retryModuleUrl(url, 1)]);
  });
});
