import { describe, expect, it } from 'vitest';
import { mayTellOfflineReady } from '../../../src/features/pwa/offline-notice';

describe('where 已可离线使用 may show (issue 44)', () => {
  it('waits on the login screens and the password changes', () => {
    for (const path of ['/', '/login', '/login/', '/login/3', '/login?redirect=%2Fmain', '/initialPswChange', '/initialPswChange?type=1', '/passwordChage']) {
      expect(mayTellOfflineReady(path), path).toBe(false);
    }
  });

  it('shows inside the app', () => {
    for (const path of ['/main/file/personal', '/main/file/personal/12', '/openShareLink/abc', '/loginx', '/main/login']) {
      expect(mayTellOfflineReady(path), path).toBe(true);
    }
  });
});
