/**
 * A page load straight into /main (a reload, a bookmark, a deep link) would otherwise fetch in a
 * waterfall: the system config once the cache is loaded, then the shell's code, then who is signed
 * in, then the menu once the shell has rendered. What does not depend on the step before starts
 * here, at boot, so the steps overlap.
 */
import { openAccount } from '../lib/data/open-account';
import { prefetchSystemConfig } from '../lib/data/queries';
import { queryClient } from '../lib/data/query-client';
import { MainShellPage } from './main-shell-page';

let earlyAccountOpen: Promise<void> | null = null;

export function prefetchAtBoot(pathname: string): void {
  prefetchSystemConfig(queryClient);
  if (pathname !== '/main' && !pathname.startsWith('/main/')) return;
  // Loaded before the route renders, the shell renders at once instead of suspending (lazyPage).
  void MainShellPage.preload();
  const open = openAccount(queryClient);
  open.catch(() => undefined); // handled by AccountGate, which takes it
  earlyAccountOpen = open;
}

/** The account opening started at boot, once (a retry opens again). */
export function takeEarlyAccountOpen(): Promise<void> | null {
  const open = earlyAccountOpen;
  earlyAccountOpen = null;
  return open;
}
