/**
 * The signed-in user's details, for pages that need to know who is asking (lock holder, space
 * ownership): from the data layer, which keeps them in the signed-in account's cache partition only.
 */
import type { UserDetails } from '../../common/api/types';
import { useUserDetailsQuery } from './data/queries';

export function useCurrentUser(): UserDetails | null {
  return useUserDetailsQuery().data ?? null;
}
