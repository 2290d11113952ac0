/**
 * The organisation as every signed-in user sees it (spec §7 orgUser calls): the department tree and
 * people pages, through the persisted data layer (account partition), for the address list and the
 * people/department picker (src/components/OrgPicker.tsx).
 */
import { useInfiniteQuery, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { OrgTree, OrgUserPage } from '../../../common/api/org-types';
import { ORG } from '../../../common/api/endpoints/org';
import { indexDepartments, type DepartmentIndex } from '../../../common/org/tree';
import { api } from '../api';

export const ORG_KEYS = {
  tree: ['account', 'org', 'tree'] as const,
  people: (scope: Record<string, string>) => ['account', 'org', 'people', scope] as const,
  all: ['account', 'org'] as const,
};

export function useOrgTree(): UseQueryResult<OrgTree> & { index: DepartmentIndex | null } {
  const query = useQuery({ queryKey: ORG_KEYS.tree, queryFn: ({ signal }) => api.call(ORG.tree, undefined, { signal }), staleTime: 30_000 });
  const index = useMemo(() => (query.data ? indexDepartments(query.data.departments) : null), [query.data]);
  return Object.assign(query, { index });
}

/** Which people: a department (with sub-departments unless `direct`), a group, and/or a keyword. */
export interface PeopleScope {
  departmentId?: string;
  direct?: boolean;
  groupId?: string;
  keyword?: string;
}

export const PEOPLE_PAGE_SIZE = 100;

export function usePeople(scope: PeopleScope, enabled = true) {
  const params: Record<string, string> = {};
  if (scope.departmentId) params.departmentId = scope.departmentId;
  if (scope.groupId) params.groupId = scope.groupId;
  if (scope.keyword?.trim()) params.keyword = scope.keyword.trim();
  if (scope.direct) params.direct = '1';
  const query = useInfiniteQuery({
    queryKey: ORG_KEYS.people(params),
    enabled,
    initialPageParam: null as string | null,
    getNextPageParam: (last: OrgUserPage) => last.nextCursor,
    queryFn: ({ pageParam, signal }) => {
      const q = { cursor: pageParam ?? undefined, pageSize: PEOPLE_PAGE_SIZE };
      if (scope.groupId || (scope.departmentId && scope.direct && !params.keyword)) {
        return api.call(ORG.groupUserList, { ...q, groupId: scope.groupId, departmentId: scope.groupId ? undefined : scope.departmentId }, { signal });
      }
      return api.call(ORG.userList, { ...q, departmentId: scope.departmentId, includeSub: scope.direct ? '0' : undefined, keyword: params.keyword }, { signal });
    },
    staleTime: 0,
  });
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  return { ...query, items };
}
