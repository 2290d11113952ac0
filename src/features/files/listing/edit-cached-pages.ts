import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import type { FileEntry } from '../../../../common/api/types';

export interface EntryPage<T extends FileEntry> {
  items: T[];
  nextCursor: string | null;
}

export type Pages<T extends FileEntry> = InfiniteData<EntryPage<T>, string | null>;

/**
 * Applies a change the server has just confirmed (rows dropped after a delete or 取消收藏, rows
 * patched after a lock) to the cached pages of one listing.
 *
 * A fetch of that listing already under way was asked before the change: its answer would put the
 * old rows back, and nothing would ask again (seen: a row 取消收藏 on 我的收藏 came back and stayed).
 * So that fetch is cancelled, the change applied, and the listing asked again. Resolves once the
 * change is in the cache (not when the new answer arrives).
 */
export async function editCachedPages<T extends FileEntry>(client: QueryClient, key: QueryKey, change: (items: T[]) => T[]): Promise<void> {
  const apply = () =>
    client.setQueryData<Pages<T>>(key, (data) => data && { ...data, pages: data.pages.map((p) => ({ ...p, items: change(p.items) })) });
  if (client.isFetching({ queryKey: key, exact: true }) === 0) {
    apply();
    return;
  }
  await client.cancelQueries({ queryKey: key, exact: true });
  apply();
  void client.refetchQueries({ queryKey: key, exact: true });
}

/**
 * Asks a listing again from its first page (as a fresh visit would: refetching every loaded page of
 * a deep scroll through a 100k-entry folder would cost one request per page), after a change the
 * server has confirmed. A fetch still under way was asked before that change, so it is cancelled
 * first (as in editCachedPages): a refetch would only join it while the listing has no rows yet
 * (TanStack Query cancels a running fetch for a refetch only once the query has data), and a folder
 * made during a page's first load stayed missing from it. The pages are cut after the cancel, which
 * puts back the data the cancelled fetch started from.
 */
export async function reloadCachedPages<T extends FileEntry>(client: QueryClient, key: QueryKey): Promise<void> {
  await client.cancelQueries({ queryKey: key, exact: true });
  // One page (most folders): nothing to cut, and a new data object would render the list for nothing.
  if ((client.getQueryData<Pages<T>>(key)?.pages.length ?? 0) > 1) {
    client.setQueryData<Pages<T>>(key, (data) => data && { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) });
  }
  await client.refetchQueries({ queryKey: key, exact: true });
}
