/**
 * Roles (spec §6: "roles are set and read per user through set-roles and get-roles calls"): the
 * roles that can be given and a user's own, as `GET /api/v2/user/getRoles` answers them, read through
 * the data layer (the account's partition keeps the last answer for a page opened offline).
 */
import { useQuery } from '@tanstack/react-query';
import { ACCOUNT } from '../../../common/api/endpoints/account';
import type { UserRoles } from '../../../common/api/types';
import { api } from '../api';

export const ROLES_KEY = ['account', 'roles'] as const;

/** `userId` null: the roles that can be given (and the caller's own). */
export function useUserRoles(userId: string | null) {
  return useQuery<UserRoles>({
    queryKey: [...ROLES_KEY, userId ?? 'self'],
    queryFn: ({ signal }) => api.call(ACCOUNT.getRoles, userId ? { userId } : {}, { signal, onError: () => undefined }),
    staleTime: 60_000,
  });
}
