import { describe, expect, it } from 'vitest';
import { clearLocked, idleExpired, lockedSince, markLocked, startState } from '../../../src/features/gesture-lock/lock-policy';
import { runsInstalled } from '../../../src/lib/installed-app';
import { createStorage, deobfuscate, memoryBackend, STORAGE_ROOT_KEY } from '../../../src/lib/storage';

describe('gesture lock policy', () => {
  it('runs installed in the standalone PWA window, on iOS home screens and in the desktop shell, not in a tab', () => {
    const media = (mode: string) => (q: string) => ({ matches: q === `(display-mode: ${mode})` });
    expect(runsInstalled({ matchMedia: media('standalone'), desktopShell: false })).toBe(true);
    expect(runsInstalled({ matchMedia: media('minimal-ui'), desktopShell: false })).toBe(true);
    expect(runsInstalled({ matchMedia: media('browser'), desktopShell: false })).toBe(false);
    expect(runsInstalled({ matchMedia: media('browser'), desktopShell: true })).toBe(true);
    expect(runsInstalled({ navigatorStandalone: true, desktopShell: false })).toBe(true);
    expect(runsInstalled({ desktopShell: false })).toBe(false);
  });

  it('asks at start when installed, not right after a login, not in a tab, never when not required', () => {
    const base = { installed: true, signedInHere: false, flagged: false };
    expect(startState({ ...base, required: true })).toBe('locked');
    expect(startState({ ...base, required: undefined })).toBe('checking');
    expect(startState({ ...base, required: false })).toBe('open');
    expect(startState({ ...base, signedInHere: true, required: true })).toBe('open');
    expect(startState({ ...base, installed: false, required: true })).toBe('open');
    // A tab of a profile whose installed app is locked shows the same lock.
    expect(startState({ ...base, installed: false, flagged: true, required: true })).toBe('locked');
    expect(startState({ ...base, installed: false, flagged: true, required: false })).toBe('open');
  });

  it('locks after the tenant time idle, not before', () => {
    expect(idleExpired(0, 4 * 60_000 + 59_999, 5)).toBe(false);
    expect(idleExpired(0, 5 * 60_000, 5)).toBe(true);
  });

  it('keeps only the account and the time it locked: no pattern', () => {
    const backend = memoryBackend();
    const storage = createStorage(backend);
    markLocked(storage, 't:u1', 1000);
    markLocked(storage, 't:u1', 2000);
    expect(lockedSince(storage, 't:u1')).toBe(1000);
    expect(lockedSince(storage, 't:u2')).toBeNull();
    expect(deobfuscate(backend.getItem(STORAGE_ROOT_KEY)!)).toEqual({ gestureLockedSince: { account: 't:u1', since: 1000 } });
    clearLocked(storage);
    expect(lockedSince(storage, 't:u1')).toBeNull();
  });
});
