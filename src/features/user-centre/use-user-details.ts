import { useCallback, useEffect, useState } from 'react';
import type { UserDetails } from '../../../common/api/types';
import { fetchUserDetails } from '../../lib/account-api';

/** The caller's details, null while loading; `reload` fetches them again (after binding a phone). */
export function useUserDetails(): { user: UserDetails | null; failed: boolean; reload: () => void } {
  const [user, setUser] = useState<UserDetails | null>(null);
  const [failed, setFailed] = useState(false);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let alive = true;
    fetchUserDetails().then(
      (u) => {
        if (!alive) return;
        setUser(u);
        setFailed(false);
      },
      () => alive && setFailed(true),
    );
    return () => {
      alive = false;
    };
  }, [generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { user, failed, reload };
}

/** '138****8000': enough to recognise one's own number on a shared screen. */
export function maskPhone(phone: string): string {
  return phone.length === 11 ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}

/** Used share of the quota in percent, 0-100 with one decimal; 0 when there is no quota. */
export function quotaPercent(usedSize: number, quota: number): number {
  if (!(quota > 0) || !(usedSize > 0)) return 0;
  return Math.min(100, Math.round((usedSize / quota) * 1000) / 10);
}
