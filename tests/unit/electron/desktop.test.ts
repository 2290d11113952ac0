import { describe, expect, it } from 'vitest';
import { shouldBlockKey } from '../../../electron/keys';
import { isSameOrigin, readDesktopConfig } from '../../../electron/config';

describe('desktop key blocking (spec §1)', () => {
  it('blocks F1 and F5, down and up', () => {
    expect(shouldBlockKey({ type: 'keyDown', key: 'F1' })).toBe(true);
    expect(shouldBlockKey({ type: 'keyUp', key: 'F5' })).toBe(true);
  });
  it('lets other keys through', () => {
    for (const key of ['F2', 'F12', 'a', 'Enter']) expect(shouldBlockKey({ type: 'keyDown', key })).toBe(false);
    expect(shouldBlockKey({ type: 'char', key: 'F5' })).toBe(false);
  });
});

describe('desktop config', () => {
  it('defaults to the internal build on localhost', () => {
    expect(readDesktopConfig({})).toEqual({ appUrl: 'http://localhost:8080/', networkEnv: 'internal' });
  });
  it('reads the public build and a server url', () => {
    expect(readDesktopConfig({ NETWORK_ENV: 'public', DRIVE_URL: 'https://pan.example.cn' })).toEqual({
      appUrl: 'https://pan.example.cn/',
      networkEnv: 'public',
    });
  });
  it('refuses a non-http url', () => {
    expect(() => readDesktopConfig({ DRIVE_URL: 'file:///etc/passwd' })).toThrow();
    expect(() => readDesktopConfig({ DRIVE_URL: 'not a url' })).toThrow();
  });
  it('keeps navigation on the server origin', () => {
    expect(isSameOrigin('https://pan.example.cn/main', 'https://pan.example.cn/')).toBe(true);
    expect(isSameOrigin('https://evil.example/', 'https://pan.example.cn/')).toBe(false);
    expect(isSameOrigin('garbage', 'https://pan.example.cn/')).toBe(false);
  });
});
