/** The spaces the file pages list and open, through the data layer (cached per account, offline too). */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { SpaceInfo } from '../../../common/api/types';
import { listGroups, publicSpace } from './files-api';

export const SPACE_KEYS = { publicSpace: ['files', 'publicSpace'] as const, groups: ['files', 'groups'] as const };

export function usePublicSpace(enabled = true): UseQueryResult<SpaceInfo> {
  return useQuery({ queryKey: SPACE_KEYS.publicSpace, queryFn: ({ signal }) => publicSpace(signal), enabled, staleTime: 10 * 60_000 });
}

export function useGroups(enabled = true): UseQueryResult<SpaceInfo[]> {
  return useQuery({ queryKey: SPACE_KEYS.groups, queryFn: ({ signal }) => listGroups(signal), enabled });
}
