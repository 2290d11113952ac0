/**
 * The app-wide reads (spec §4 boot data): system config, menu, page permissions, the signed-in
 * user. Keys starting with 'public' are cached for everyone on this browser (shown before login);
 * all others belong to the signed-in account's partition.
 */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { API } from '../../../common/api/paths';
import type { MenuItem, PagePermission, SystemConfig, UserDetails } from '../../../common/api/types';
import { api } from '../api';

export const QUERY_KEYS = {
  systemConfig: ['public', 'systemConfig'] as const,
  menu: ['account', 'menu'] as const,
  pagePermissions: ['account', 'pagePermissions'] as const,
  userDetails: ['account', 'userDetails'] as const,
};

/** Boot data never toasts: a page shows what it has, and the offline banner says why it is old. */
const quiet = { onError: () => undefined };

export function useSystemConfigQuery(): UseQueryResult<SystemConfig> {
  return useQuery({ queryKey: QUERY_KEYS.systemConfig, queryFn: ({ signal }) => api.get<SystemConfig>(API.systemConfig, { ...quiet, signal }) });
}

export function useMenuQuery(): UseQueryResult<MenuItem[]> {
  return useQuery({ queryKey: QUERY_KEYS.menu, queryFn: ({ signal }) => api.get<MenuItem[]>(API.menu, { signal }) });
}

export function usePagePermissionsQuery(): UseQueryResult<PagePermission[]> {
  return useQuery({ queryKey: QUERY_KEYS.pagePermissions, queryFn: ({ signal }) => api.get<PagePermission[]>(API.pagePermissions, { signal }) });
}

export function fetchUserDetailsQuery(signal?: AbortSignal): Promise<UserDetails> {
  return api.post<UserDetails>(API.userDetails, {}, { signal });
}

/** `revalidate`: ask the server again on mount even when the cached answer is recent (the user centre shows quota and phone). */
export function useUserDetailsQuery(opts: { revalidate?: boolean } = {}): UseQueryResult<UserDetails> {
  return useQuery({ queryKey: QUERY_KEYS.userDetails, queryFn: ({ signal }) => fetchUserDetailsQuery(signal), refetchOnMount: opts.revalidate ? 'always' : true });
}
