import { useEffect, useState } from 'react';

/** Runs `load` once on mount; the value is null until it resolves (failures are shown by the API client). */
export function useLoadOnce<T>(load: () => Promise<T>): T | null {
  const [value, setValue] = useState<T | null>(null);
  useEffect(() => {
    let alive = true;
    load().then(
      (v) => alive && setValue(v),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [load]);
  return value;
}
