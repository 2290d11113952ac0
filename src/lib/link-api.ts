/**
 * The API client of the pages an outsider opens from a share link (/shareLink, /downLoadM,
 * /downloadExceeded: src/link-main.tsx), used by the app's own link page too. Plain fetch and no
 * account: nothing of the internal app's boot (session, offline data layer, service worker) comes with
 * it. A failure's toast loads antd's message on first use; a 401 (the tenant wants a session) goes to
 * /login?redirect= as everywhere (spec §8).
 */
import { navigate } from 'wouter/use-browser-location';
import { createApiClient } from './api-client';
import { currentNetworkEnv, currentPlatform } from './client-env';

type Toast = 'error' | 'success';

/** A toast without the app's feedback provider (the link pages have none). */
export function linkToast(kind: Toast, text: string, seconds?: number): void {
  void import('antd/es/message').then((m) => void m.default[kind](text, seconds));
}

export const linkApi = createApiClient({
  fetch: (input, init) => fetch(input, init),
  navigate: (to) => navigate(to),
  notify: {
    error: (text, seconds) => linkToast('error', text, seconds),
    // A visitor's session ended elsewhere: nothing to confirm on a link page, go to log in again.
    logoutBox: ({ onOk }) => onOk(),
  },
  platform: currentPlatform(),
  networkEnv: currentNetworkEnv(),
  location: () => ({ pathname: window.location.pathname, search: window.location.search }),
});
