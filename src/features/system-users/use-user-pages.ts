import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { UserListRequest } from '../../../common/api/endpoints/user-admin';
import type { UserListResponse } from '../../../common/api/types';
import { listUsers } from './users-api';

export const USERS_KEY = ['account', 'system-users'] as const;

/** 用户管理's filtered list in keyset pages of 100, through the data layer (account partition). */
export function useUserPages(filter: Omit<UserListRequest, 'cursor' | 'pageSize'>) {
  const query = useInfiniteQuery({
    queryKey: [...USERS_KEY, filter],
    initialPageParam: null as string | null,
    getNextPageParam: (last: UserListResponse) => last.nextCursor,
    queryFn: ({ pageParam, signal }) => listUsers({ ...filter, cursor: pageParam, pageSize: 100 }, signal),
    staleTime: 0,
  });
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  return { ...query, items };
}
