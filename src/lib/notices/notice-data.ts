/**
 * The notices through the data layer (src/lib/data: persisted per account, served offline): both
 * unread counts, file messages and system notices in keyset pages, the login pop-up. The stream
 * (notice-stream.ts, started by NoticeStreamer) keeps them current; pages never call fetch.
 */
import { useInfiniteQuery, useQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { NOTICES, type FileMessageListForm, type SystemNoticeListRequest } from '../../../common/api/endpoints/notices';
import type { FileMessagePage, NoticePopup, SystemNoticePage, UnreadCounts } from '../../../common/api/notices';
import { api } from '../api';

export const NOTICE_KEYS = {
  all: ['account', 'notices'] as const,
  counts: ['account', 'notices', 'counts'] as const,
  files: ['account', 'notices', 'file'] as const,
  fileList: (form: FileMessageListForm) => ['account', 'notices', 'file', form] as const,
  systems: ['account', 'notices', 'system'] as const,
  systemList: (req: SystemNoticeListRequest) => ['account', 'notices', 'system', req] as const,
  popup: ['account', 'notices', 'popup'] as const,
};

export const EMPTY_COUNTS: UnreadCounts = { file: 0, system: 0, systemParts: { tenantNotices: 0, platformNotices: 0 } };

/** Counts never toast: a badge shows what it last knew. Both in one call: the stream's catch-up after a gap. */
export function fetchCounts(signal?: AbortSignal): Promise<UnreadCounts> {
  return api.call(NOTICES.unreadCount, undefined, { signal, onError: () => undefined });
}

/**
 * The badge's counts as spec §3 and §7 put them: the file messages' own call and the system
 * messages' call, whose count is the sum of two counts (the tenant's notices and the platform's),
 * added here from its parts.
 */
export async function fetchBadgeCounts(signal?: AbortSignal): Promise<UnreadCounts> {
  const quiet = { signal, onError: () => undefined };
  const [file, system] = await Promise.all([api.call(NOTICES.fileMsgUnreadNum, undefined, quiet), api.call(NOTICES.sysMsgUnreadNum, undefined, quiet)]);
  return { file: file.count, system: system.tenantNotices + system.platformNotices, systemParts: { tenantNotices: system.tenantNotices, platformNotices: system.platformNotices } };
}

/**
 * Both unread counts (header and sidebar badges); the stream pushes changes into this query. Offline
 * the last answer stays (persisted with the account's data) and nothing waits on the network.
 */
export function useUnreadCounts(): UnreadCounts {
  return useQuery({ queryKey: NOTICE_KEYS.counts, queryFn: ({ signal }) => fetchBadgeCounts(signal), staleTime: 60_000 }).data ?? EMPTY_COUNTS;
}

export function setCounts(client: QueryClient, change: (c: UnreadCounts) => UnreadCounts): void {
  client.setQueryData<UnreadCounts>(NOTICE_KEYS.counts, (c) => change(c ?? EMPTY_COUNTS));
}

/** list (no keyword) or search (keyword): spec §7, form-encoded. */
function loadFilePage(form: FileMessageListForm, cursor: string | null, signal: AbortSignal): Promise<FileMessagePage> {
  // Empty fields are left out (the server reads an absent field as "any").
  const fields: FileMessageListForm = Object.fromEntries(Object.entries(form).filter(([, v]) => v !== undefined && v !== ''));
  if (cursor) fields.cursor = cursor;
  return api.call(form.keyword ? NOTICES.fileMsgSearch : NOTICES.fileMsgList, fields, { signal });
}

export function useFileMessages(form: FileMessageListForm) {
  return useInfiniteQuery({
    queryKey: NOTICE_KEYS.fileList(form),
    queryFn: ({ pageParam, signal }) => loadFilePage(form, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: FileMessagePage) => last.nextCursor,
    staleTime: 0,
  });
}

export function useSystemNotices(req: SystemNoticeListRequest) {
  return useInfiniteQuery({
    queryKey: NOTICE_KEYS.systemList(req),
    queryFn: ({ pageParam, signal }) => api.call(NOTICES.sysMsgList, { ...req, cursor: pageParam }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last: SystemNoticePage) => last.nextCursor,
    staleTime: 0,
  });
}

/**
 * Important notices not shown yet, asked when the account opens (a login, a start of the app). Only
 * an answer fetched now counts (`fresh`): a cached one may list notices shown on another device since.
 */
export function usePopupNotices(enabled: boolean): NoticePopup | null {
  const query = useQuery({
    queryKey: NOTICE_KEYS.popup,
    queryFn: ({ signal }) => api.call(NOTICES.sysMsgPopup, undefined, { signal, onError: () => undefined }),
    enabled,
    staleTime: Infinity,
    refetchOnMount: 'always',
    networkMode: 'online',
  });
  return query.isFetchedAfterMount && !query.isFetching ? (query.data ?? null) : null;
}

export type FilePages = InfiniteData<FileMessagePage, string | null>;
export type SystemPages = InfiniteData<SystemNoticePage, string | null>;

/** Applies a change to every cached page of every file-message list. */
export function editFileLists(client: QueryClient, edit: (page: FileMessagePage) => FileMessagePage): void {
  for (const q of client.getQueryCache().findAll({ queryKey: NOTICE_KEYS.files })) {
    client.setQueryData<FilePages>(q.queryKey, (data) => data && { ...data, pages: data.pages.map(edit) });
  }
}

export function editSystemLists(client: QueryClient, edit: (page: SystemNoticePage) => SystemNoticePage): void {
  for (const q of client.getQueryCache().findAll({ queryKey: NOTICE_KEYS.systems })) {
    client.setQueryData<SystemPages>(q.queryKey, (data) => data && { ...data, pages: data.pages.map(edit) });
  }
}
