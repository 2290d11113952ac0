/**
 * The app-wide reads (spec §4 boot data): system config, menu, page permissions, the signed-in
 * user. Keys starting with 'public' are cached for everyone on this browser (shown before login);
 * all others belong to the signed-in account's partition.
 */
import { useQuery, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import { ACCOUNT } from '../../../common/api/endpoints/account';
import { CONFIG } from '../../../common/api/endpoints/config';
import type { MenuItem, PagePermission, SignedInDevice, SystemConfig, TenantConfig, UserDetails } from '../../../common/api/types';
import { api } from '../api';

export const QUERY_KEYS = {
  systemConfig: ['public', 'systemConfig'] as const,
  menu: ['account', 'menu'] as const,
  pagePermissions: ['account', 'pagePermissions'] as const,
  userDetails: ['account', 'userDetails'] as const,
  signedInDevices: ['account', 'signedInDevices'] as const,
  tenantConfig: ['account', 'tenantConfig'] as const,
};

/** Boot data never toasts: a page shows what it has, and the offline banner says why it is old. */
const quiet = { onError: () => undefined };

const systemConfigQuery = {
  queryKey: QUERY_KEYS.systemConfig,
  queryFn: ({ signal }: { signal: AbortSignal }) => api.call(CONFIG.systemConfig, undefined, { ...quiet, signal }),
};

export function useSystemConfigQuery(): UseQueryResult<SystemConfig> {
  return useQuery(systemConfigQuery);
}

/** At boot, before the cache is even loaded: every page waits for the config (spec §4). */
export function prefetchSystemConfig(client: QueryClient): void {
  void client.prefetchQuery(systemConfigQuery);
}

const menuQuery = { queryKey: QUERY_KEYS.menu, queryFn: ({ signal }: { signal: AbortSignal }) => api.call(CONFIG.menu, undefined, { signal }) };
const pagePermissionsQuery = {
  queryKey: QUERY_KEYS.pagePermissions,
  queryFn: ({ signal }: { signal: AbortSignal }) => api.call(CONFIG.pagePermissions, undefined, { signal }),
};

export function useMenuQuery(): UseQueryResult<MenuItem[]> {
  return useQuery(menuQuery);
}

export function usePagePermissionsQuery(): UseQueryResult<PagePermission[]> {
  return useQuery(pagePermissionsQuery);
}

/** The account's boot data, asked for as soon as the account is known (cached answers stay if fresh). */
export function prefetchAccountBootData(client: QueryClient): void {
  void client.prefetchQuery(menuQuery);
  void client.prefetchQuery(pagePermissionsQuery);
}

export function fetchUserDetailsQuery(signal?: AbortSignal): Promise<UserDetails> {
  return api.call(ACCOUNT.userDetails, undefined, { signal });
}

/** `revalidate`: ask the server again on mount even when the cached answer is recent (the user centre shows quota and phone). */
export function useUserDetailsQuery(opts: { revalidate?: boolean } = {}): UseQueryResult<UserDetails> {
  return useQuery({ queryKey: QUERY_KEYS.userDetails, queryFn: ({ signal }) => fetchUserDetailsQuery(signal), refetchOnMount: opts.revalidate ? 'always' : true });
}

/** 账号安全's signed-in devices (always asked again on mount: another device may have signed in). */
export function useSignedInDevicesQuery(): UseQueryResult<SignedInDevice[]> {
  return useQuery({
    queryKey: QUERY_KEYS.signedInDevices,
    queryFn: ({ signal }) => api.call(ACCOUNT.sessions, undefined, { signal }),
    refetchOnMount: 'always',
  });
}

/**
 * The tenant's config (`GET /api/v2/defaultConfig/tenant/get`: its name, the password's lifetime in
 * days), asked also during a forced password change, whose screen names both. Quiet: the screen
 * reads as well without them.
 */
export function useTenantConfigQuery(): UseQueryResult<TenantConfig> {
  return useQuery({ queryKey: QUERY_KEYS.tenantConfig, queryFn: ({ signal }) => api.call(CONFIG.tenantConfig, undefined, { ...quiet, signal }), staleTime: 60_000 });
}
