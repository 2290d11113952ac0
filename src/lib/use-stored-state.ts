/**
 * A piece of UI state this browser remembers (the app's one storage root, lib/storage.ts): the
 * transfer panel open or closed, a list or grid view, the agreement accepted. Read once at mount;
 * each change is written at once. `accept` rejects a stored value of the wrong shape (an older
 * version's, or a hand-edited one), which then counts as absent.
 */
import { useCallback, useState } from 'react';
import { getAppStorage } from './storage';

export function readStored<T>(key: string, fallback: T, accept: (v: unknown) => v is T): T {
  const stored = getAppStorage().get<unknown>(key);
  return accept(stored) ? stored : fallback;
}

export function writeStored(key: string, value: unknown): void {
  getAppStorage().set(key, value);
}

/** `key` may change (a per-user key once the user is known): the value is then read again. */
export function useStoredState<T>(key: string, fallback: T, accept: (v: unknown) => v is T): [T, (next: T | ((prev: T) => T)) => void] {
  const [state, setState] = useState(() => ({ key, value: readStored(key, fallback, accept) }));
  const current = state.key === key ? state.value : readStored(key, fallback, accept);
  if (state.key !== key) setState({ key, value: current });
  const set = useCallback(
    (next: T | ((prev: T) => T)) =>
      setState((prev) => {
        const base = prev.key === key ? prev.value : readStored(key, fallback, accept);
        const value = typeof next === 'function' ? (next as (p: T) => T)(base) : next;
        if (value !== base) writeStored(key, value);
        return { key, value };
      }),
    // fallback and accept are constants at every call site
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key],
  );
  return [current, set];
}

export const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
