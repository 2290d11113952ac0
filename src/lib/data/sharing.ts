/**
 * Sharing through the data layer (issue 15; payloads and rules in common/api/sharing.ts): the calls
 * of the share dialog, 我的分享 / 我的申请 / 审批, the link pages and the file security page, and the
 * reads they share (the validity choices, the tenant's switches, the caller's groups). Reads of the
 * signed-in account live in its partition; a link visit is never written to disk (`meta.persist`).
 */
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { DICTIONARIES } from '../../../common/api/endpoints/dictionaries';
import { EXCHANGE } from '../../../common/api/endpoints/exchange';
import { GROUPS } from '../../../common/api/endpoints/groups';
import { PRE_UPLOAD } from '../../../common/api/endpoints/pre-upload';
import { TENANT } from '../../../common/api/endpoints/tenant';
import type { InterceptedFile, ShareApplication, SwapCheckResponse } from '../../../common/api/sharing';
import { APPLICATIONS, type ApplicationApproveRequest, type ApplicationListRequest, type ApplicationSubmitRequest, type ApprovalCheckRequest } from '../../../common/api/endpoints/applications';
import { LINKS, type LinkCreateRequest, type LinkUpdateRequest } from '../../../common/api/endpoints/links';
import { SHARES, type FileSecurityUpdateRequest, type MySharesRequest, type ShareCreateRequest, type ShareUpdateRequest } from '../../../common/api/endpoints/shares';
import type { DictItem } from '../../../common/api/types';
import { HEADER_PLATFORM } from '../../../common/api/client-env';
import { api } from '../api';
import { currentPlatform } from '../client-env';
import type { RequestOptions } from '../api-client';

export const SHARING_KEYS = {
  all: ['account', 'sharing'] as const,
  mine: (kind: 'shares' | 'links', filter: MySharesRequest) => ['account', 'sharing', 'mine', kind, filter] as const,
  applications: (box: string, filter: ApplicationListRequest) => ['account', 'sharing', 'applications', box, filter] as const,
  application: (id: string) => ['account', 'sharing', 'application', id] as const,
  todoCount: ['account', 'sharing', 'todoCount'] as const,
  sharers: ['account', 'sharing', 'sharers'] as const,
  validity: ['account', 'staticData', 'validity'] as const,
  switches: ['account', 'tenantInfo'] as const,
  groups: ['account', 'sharing', 'groups'] as const,
  security: ['account', 'fileSecurity'] as const,
  contentScan: ['account', 'fileSecurity', 'contentScan'] as const,
  intercepted: ['account', 'sharing', 'intercepted'] as const,
  canOperate: (id: string) => ['account', 'sharing', 'canOperate', id] as const,
};

// ---- calls ----------------------------------------------------------------------------------------

type Quiet = Pick<RequestOptions, 'quietCodes' | 'onError'>;

export const createShares = (body: ShareCreateRequest, opts: Quiet = {}) => api.call(SHARES.create, body, opts);
export const updateShare = (body: ShareUpdateRequest, opts: Quiet = {}) => api.call(SHARES.update, body, opts);
export const revokeShares = (ids: string[]) => api.call(SHARES.revoke, { ids });
export const checkApproval = (body: ApprovalCheckRequest) => api.call(APPLICATIONS.check, body);
export const createLink = (body: LinkCreateRequest, opts: Quiet = {}) => api.call(LINKS.create, body, opts);
export const updateLink = (body: LinkUpdateRequest, opts: Quiet = {}) => api.call(LINKS.update, body, opts);
export const revokeLinks = (ids: string[]) => api.call(LINKS.revoke, { ids });
export const submitApplication = (body: ApplicationSubmitRequest) => api.call(APPLICATIONS.submit, body);
export const withdrawApplication = (id: string) => api.call(APPLICATIONS.withdraw, { id });
export const getApplication = (id: string, signal?: AbortSignal) => api.call(APPLICATIONS.get, { id }, { signal });
export const approveApplications = (body: ApplicationApproveRequest) => api.call(APPLICATIONS.approve, body);
export const rejectApplications = (ids: string[], comment: string) => api.call(APPLICATIONS.reject, { ids, comment });
export const updateFileSecurity = (body: FileSecurityUpdateRequest) => api.call(SHARES.fileSecurityUpdate, body);
export const canOperate = (id: string, signal?: AbortSignal) => api.call(SHARES.canOperation, { id }, { signal, onError: () => undefined });

/**
 * onlyoffice/canoperationforshare for a file reached through a share: whether the caller may edit it
 * online, and why not. Asked when the file's preview opens (the share's permission or a lock may
 * have changed since the list was read).
 */
export function useCanOperate(id: string | null) {
  return useQuery({ queryKey: SHARING_KEYS.canOperate(id ?? ''), queryFn: ({ signal }) => canOperate(id!, signal), enabled: id !== null, staleTime: 0 });
}
export const checkSwap = (ids: string[]) => api.call(EXCHANGE.checkSwap, { ids });
export const fileSafeCheck = (ids: string[]) => api.call(EXCHANGE.fileSafeCheck, { ids });
export const processIntercepted = (ids: string[], decision: 'dismiss' | 'delete') => api.call(EXCHANGE.processedList, { ids, decision });
/** keepOnDownload changes state: the platform header says it is the app asking (like keepOnUpload). */
export const confirmDownload = (id: string) => api.call(EXCHANGE.keepOnDownload, { id }, { headers: { [HEADER_PLATFORM]: currentPlatform() } });

// The link visitor's calls and reads: ./link-visit.ts (no account, nothing kept).

// ---- reads ----------------------------------------------------------------------------------------

/** The static data list `validity` (days; 0 = until revoked), in the tenant's order. */
export function useValidityChoices() {
  const query = useQuery({
    queryKey: SHARING_KEYS.validity,
    queryFn: ({ signal }) => api.call(DICTIONARIES.staticData, { names: ['validity'] }, { signal }),
    staleTime: 5 * 60_000,
  });
  const items: DictItem[] = useMemo(() => query.data?.validity ?? [], [query.data]);
  return { ...query, items };
}

/** The tenant's switches (keyCreate decides whether a link needs a code). */
export function useTenantSwitches() {
  return useQuery({ queryKey: SHARING_KEYS.switches, queryFn: ({ signal }) => api.call(TENANT.info, {}, { signal }), staleTime: 30_000, select: (t) => t.switches });
}

/** The caller's group spaces (share recipients). */
export function useMyGroups(enabled = true) {
  return useQuery({ queryKey: SHARING_KEYS.groups, queryFn: ({ signal }) => api.call(GROUPS.list, undefined, { signal }), enabled, staleTime: 30_000 });
}

/** Who shares with the caller, and how much (the 共享文件 sharer chips). */
export function useSharers(enabled = true) {
  return useQuery({
    queryKey: SHARING_KEYS.sharers,
    queryFn: ({ signal }) => api.call(SHARES.sharedList, { parentId: null, pageSize: 1 }, { signal }),
    select: (r) => r.sharers ?? [],
    enabled,
    staleTime: 0,
  });
}

interface Paged<T> {
  items: T[];
  nextCursor: string | null;
}

function usePaged<T>(queryKey: readonly unknown[], load: (cursor: string | null, signal: AbortSignal) => Promise<Paged<T>>) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => load(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: Paged<T>) => last.nextCursor,
    staleTime: 0,
  });
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  return {
    items,
    loading: query.isPending,
    error: query.isError,
    hasMore: query.hasNextPage,
    fetchingMore: query.isFetchingNextPage,
    loadMore: () => {
      if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
    },
    reload: () => void query.refetch(),
  };
}

export function useMyShares(filter: MySharesRequest) {
  return usePaged(SHARING_KEYS.mine('shares', filter), (cursor, signal) => api.call(SHARES.mine, { ...filter, cursor }, { signal }));
}

export function useMyLinks(filter: MySharesRequest) {
  return usePaged(SHARING_KEYS.mine('links', filter), (cursor, signal) => api.call(LINKS.mine, { ...filter, cursor }, { signal }));
}

/** 我的申请 (box 'mine'), or 审批 (box 'pending' | 'done'). */
export function useApplications(box: 'mine' | 'pending' | 'done', filter: ApplicationListRequest) {
  return usePaged(SHARING_KEYS.applications(box, filter), (cursor, signal) =>
    box === 'mine'
      ? api.call(APPLICATIONS.mine, { ...filter, cursor }, { signal })
      : api.call(APPLICATIONS.todo, { ...filter, box, cursor }, { signal }),
  );
}

/** One application (a message's link opens its drawer); kept current like the lists (SHARING_KEYS.all). */
export function useApplication(id: string | null, placeholder?: ShareApplication) {
  return useQuery({
    queryKey: SHARING_KEYS.application(id ?? ''),
    queryFn: ({ signal }) => getApplication(id!, signal),
    enabled: id !== null,
    placeholderData: placeholder,
    staleTime: 0,
    retry: false,
  });
}

/**
 * How many applications wait for the caller (the 审批 badge): asked again when an application
 * message arrives (NoticeStreamer) and after every decision (useSharingChanged); 0 while unknown.
 */
export function useApprovalTodoCount(enabled: boolean): number {
  const query = useQuery({
    queryKey: SHARING_KEYS.todoCount,
    queryFn: ({ signal }) => api.call(APPLICATIONS.todoCount, undefined, { signal, onError: () => undefined }),
    enabled,
    staleTime: 60_000,
  });
  return query.data?.count ?? 0;
}

export function useFileSecurity() {
  return useQuery({ queryKey: SHARING_KEYS.security, queryFn: ({ signal }) => api.call(SHARES.fileSecurityGet, undefined, { signal }) });
}

/**
 * The re-scan of file contents after a keyword change (文件安全): asked again every 2 s while it runs.
 * A query of its own, so the page's form (read once from useFileSecurity) is never reset by the polling.
 */
export function useContentScan() {
  return useQuery({
    queryKey: SHARING_KEYS.contentScan,
    queryFn: async ({ signal }) => (await api.call(SHARES.fileSecurityGet, undefined, { signal })).contentScan,
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 2000 : false),
  });
}

/** The caller's intercepted exchange-area files not dealt with yet. */
export function useIntercepted(enabled = true) {
  return useQuery({
    queryKey: SHARING_KEYS.intercepted,
    // scope=exchange answers the intercepted files (the call's other scope answers held uploads).
    queryFn: async ({ signal }) => (await api.call(PRE_UPLOAD.unProcessList, { scope: 'exchange' }, { signal })) as InterceptedFile[],
    enabled,
    staleTime: 0,
  });
}

/** checkSwap; then 拦截记录 (the intercepted list) is asked again, since the check may have added to it. */
export function useCheckSwap(): (ids: string[]) => Promise<SwapCheckResponse> {
  const client = useQueryClient();
  return async (ids) => {
    const answer = await checkSwap(ids);
    void client.invalidateQueries({ queryKey: SHARING_KEYS.intercepted });
    return answer;
  };
}

/** After any sharing change: every sharing list is asked again when next shown. */
export function useSharingChanged(): () => void {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: SHARING_KEYS.all });
}

