import type { UserDetails } from '../../../common/api/types';
import { useUserDetailsQuery } from '../../lib/data/queries';

/** The caller's details from the data layer (cached offline); `reload` asks the server again (after binding a phone). */
export function useUserDetails(): { user: UserDetails | null; failed: boolean; reload: () => void } {
  const query = useUserDetailsQuery({ revalidate: true });
  return { user: query.data ?? null, failed: query.isError && !query.data, reload: () => void query.refetch() };
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
