/**
 * The app's default API client: real fetch, wouter's browser navigation, and notices that the app
 * layer connects to antd's App context (see `setApiNotifier`, called by src/app).
 */
import { navigate } from 'wouter/use-browser-location';
import { createApiClient, type ApiNotifier } from './api-client';
import { currentNetworkEnv, currentPlatform } from './client-env';
import { reachabilityFetch } from './data/reachability';
import { endAccountSession } from './data/session';
import { gestureLockedByServer } from './gesture-lock-signal';

let notifier: ApiNotifier = {
  error: (text) => console.error(text),
  logoutBox: ({ content, onOk }) => {
    console.warn(content);
    onOk();
  },
};

/** Connects the default client's toasts and boxes to the UI (antd). */
export function setApiNotifier(next: ApiNotifier): void {
  notifier = next;
}

export const api = createApiClient({
  // Every answer, or its absence, tells the data layer whether the server can be reached.
  fetch: reachabilityFetch,
  navigate: (to) => navigate(to),
  notify: {
    error: (text, seconds) => notifier.error(text, seconds),
    logoutBox: (options) => notifier.logoutBox(options),
  },
  platform: currentPlatform(),
  networkEnv: currentNetworkEnv(),
  location: () => ({ pathname: window.location.pathname, search: window.location.search }),
  onSessionEnded: () => void endAccountSession(),
  onGestureLocked: gestureLockedByServer,
});
