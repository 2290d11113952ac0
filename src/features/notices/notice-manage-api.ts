/** 公告管理 (admins): the notices of the tenant (and the platform's, for a platform admin). */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { NOTICES, type ManagedNoticeListRequest, type NoticeSaveRequest } from '../../../common/api/endpoints/notices';
import type { ManagedNotice, ManagedNoticePage, NoticeReadersPage } from '../../../common/api/notices';
import { TENANT } from '../../../common/api/endpoints/tenant';
import { api } from '../../lib/api';
import { queryClient } from '../../lib/data/query-client';
import { NOTICE_KEYS } from '../../lib/notices/notice-data';

const MANAGE_KEYS = {
  all: ['account', 'notices', 'manage'] as const,
  list: (req: ManagedNoticeListRequest) => ['account', 'notices', 'manage', req] as const,
  platform: ['account', 'notices', 'platformAdmin'] as const,
};

export function useManagedNotices(req: ManagedNoticeListRequest) {
  return useInfiniteQuery({
    queryKey: MANAGE_KEYS.list(req),
    queryFn: ({ pageParam, signal }) => api.call(NOTICES.noticeManageList, { ...req, cursor: pageParam }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last: ManagedNoticePage) => last.nextCursor,
    staleTime: 0,
  });
}

/** 阅读情况 of one notice: its audience by account, all, or who has (not) read it, in keyset pages. */
export function useNoticeReaders(id: string | null, read: boolean | undefined) {
  return useInfiniteQuery({
    queryKey: [...MANAGE_KEYS.all, 'readers', id, read ?? 'all'] as const,
    enabled: id !== null,
    queryFn: ({ pageParam, signal }) => api.call(NOTICES.noticeManageReaders, { id: id!, ...(read === undefined ? {} : { read }), cursor: pageParam, pageSize: 100 }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last: NoticeReadersPage) => last.nextCursor,
    staleTime: 0,
  });
}

/** Whether the caller may write platform notices (for every tenant). */
export function usePlatformAdmin(): boolean {
  return (
    useQuery({
      queryKey: MANAGE_KEYS.platform,
      queryFn: ({ signal }) => api.call(TENANT.list, undefined, { signal, onError: () => undefined }),
      staleTime: 5 * 60_000,
    }).data?.platformAdmin ?? false
  );
}

/**
 * After any change the admin lists and the reader's own lists and counts are asked again (not the
 * login pop-up: the author is not interrupted by the notice just written; it pops up at login).
 */
const refreshAll = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: MANAGE_KEYS.all }),
    queryClient.invalidateQueries({ queryKey: NOTICE_KEYS.counts }),
    queryClient.invalidateQueries({ queryKey: NOTICE_KEYS.systems }),
  ]);

export async function saveNotice(req: NoticeSaveRequest): Promise<ManagedNotice> {
  const saved = await api.call(NOTICES.noticeManageSave, req);
  await refreshAll();
  return saved;
}

export async function pinNotice(id: string, pinned: boolean): Promise<void> {
  await api.call(NOTICES.noticeManagePin, { id, pinned });
  await refreshAll();
}

export async function withdrawNotice(id: string): Promise<void> {
  await api.call(NOTICES.noticeManageWithdraw, { id });
  await refreshAll();
}

export async function deleteNotice(id: string): Promise<void> {
  await api.call(NOTICES.noticeManageDelete, { id });
  await refreshAll();
}
