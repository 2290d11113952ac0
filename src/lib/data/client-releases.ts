/**
 * 客户端版本 (issue 38) through the data layer: the admin's list of both client types' releases (in
 * the account's partition, so 系统配置 offline shows the last answer), saving one, and the release
 * this web build's people download (获取桌面客户端).
 */
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { CLIENT_TYPE } from '../../../common/api/client-env';
import { CONFIG } from '../../../common/api/endpoints/config';
import { CLIENT_RELEASES, type ClientReleaseSaveRequest } from '../../../common/api/endpoints/client-releases';
import type { ClientRelease, ClientVersion } from '../../../common/api/types';
import { api } from '../api';
import { currentNetworkEnv } from '../client-env';

export const CLIENT_RELEASE_KEYS = {
  list: ['account', 'clientReleases'] as const,
  version: (clientType: 3 | 4) => ['account', 'clientVersion', clientType] as const,
};

/** Both client types' releases as 系统配置 shows them (admins). */
export function useClientReleases(): UseQueryResult<ClientRelease[]> {
  return useQuery({ queryKey: CLIENT_RELEASE_KEYS.list, queryFn: ({ signal }) => api.call(CLIENT_RELEASES.list, undefined, { signal }) });
}

/** Saves one client type's release; the list and the version check's answers are asked again. */
export function useSaveClientRelease() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (req: ClientReleaseSaveRequest) => api.call(CLIENT_RELEASES.save, req),
    onSuccess: (saved) => {
      client.setQueryData<ClientRelease[]>(CLIENT_RELEASE_KEYS.list, (list) => list?.map((r) => (r.clientType === saved.clientType ? saved : r)));
      void client.invalidateQueries({ queryKey: CLIENT_RELEASE_KEYS.list });
      void client.invalidateQueries({ queryKey: CLIENT_RELEASE_KEYS.version(saved.clientType) });
    },
  });
}

/** The release this build's people install: client type 3 for the internal build, 4 for the public one. */
export function useOwnClientVersion(enabled = true): { clientType: 3 | 4; version: ClientVersion | undefined; isPending: boolean } {
  const clientType = CLIENT_TYPE[currentNetworkEnv()];
  const query = useQuery({
    queryKey: CLIENT_RELEASE_KEYS.version(clientType),
    queryFn: ({ signal }) => api.call(CONFIG.clientVersion, { clientType }, { signal, onError: () => undefined }),
    enabled,
    staleTime: 60_000,
  });
  return { clientType, version: query.data, isPending: query.isPending };
}
