/**
 * A page load straight into /main (a reload, a bookmark, a deep link) would otherwise fetch in a
 * waterfall: the system config once the cache is loaded, then the shell's code, then who is signed
 * in, then the menu once the shell has rendered, then the page's listing once the page has. What
 * does not depend on the step before starts here, at boot, so the steps overlap.
 */
import { FILES } from '../../common/api/endpoints/files';
import { folderListRequest } from '../../common/api/file-list';
import { CONFIG } from '../../common/api/endpoints/config';
import { FILE_PAGE_CATEGORY } from '../../common/api/types';
import { DEFAULT_SORT } from '../features/files/listing/sort-state';
import { api } from '../lib/api';
import { savedAccount } from '../lib/data/account';
import { openAccount } from '../lib/data/open-account';
import { categoryPage, DIR_QUERY_PARAM } from '../lib/file-urls';
import { prefetchSystemConfig } from '../lib/data/queries';
import { queryClient } from '../lib/data/query-client';
import { MainShellPage } from './main-shell-page';

let earlyAccountOpen: Promise<void> | null = null;

export function prefetchAtBoot(pathname: string, search: string): void {
  prefetchSystemConfig(queryClient);
  if (pathname !== '/main' && !pathname.startsWith('/main/')) return;
  // Loaded before the route renders, the shell renders at once instead of suspending (lazyPage).
  void MainShellPage.preload();
  // A browser without this account's cache asks who is signed in first, and the menu and permissions
  // only once that has answered (openAccount): asked now, their answers wait for those requests.
  if (!savedAccount()) for (const entry of [CONFIG.menu, CONFIG.pagePermissions]) api.prefetch(entry.path, { method: entry.method });
  const open = openAccount(queryClient);
  open.catch(() => undefined); // handled by AccountGate, which takes it
  earlyAccountOpen = open;
  // 个人文件, the home page: its listing would otherwise be asked only once the account is open and the
  // shell and the page have rendered — the last step of the waterfall, and what the page waits for.
  if (pathname === categoryPage(FILE_PAGE_CATEGORY.personal)) {
    const dir = new URLSearchParams(search).get(DIR_QUERY_PARAM) || null;
    const personal = { category: FILE_PAGE_CATEGORY.personal, spaceId: null };
    api.prefetchCall(FILES.list, folderListRequest(personal, dir, DEFAULT_SORT, null));
  }
}

/** The account opening started at boot, once (a retry opens again). */
export function takeEarlyAccountOpen(): Promise<void> | null {
  const open = earlyAccountOpen;
  earlyAccountOpen = null;
  return open;
}
