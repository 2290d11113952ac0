import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { registerSW } from 'virtual:pwa-register';
import { useLocation } from 'wouter';
import { useFeedback } from '../../lib/feedback/feedback';
import { claimIfUncontrolled } from './claim-uncontrolled-page';
import { mayTellOfflineReady } from './offline-notice';

let registered = false;

/**
 * Registers the service worker (vite.config.ts sets injectRegister false so the app does it here) and
 * tells the user when a new deployment is waiting (it takes over only when the user presses 刷新, so
 * a page never mixes old and new chunks) or the app can open offline (not on the way in:
 * offline-notice.ts). Renders nothing.
 */
export function PwaNotifier() {
  const { notification } = useFeedback();
  const [location] = useLocation();
  const [offlineReady, setOfflineReady] = useState<OfflineReady>('no');

  useEffect(() => {
    if (registered) return;
    registered = true;
    // Not during the load: installing the worker fetches and stores every asset of the build (its
    // precache: ~1 s of CPU on its own thread in a trace of a cold 个人文件), which on a machine of two
    // cores took that time from the page's own tasks, and sent its requests beside the page's on the
    // same six connections. Once the page has loaded and settled is early enough for the next visit,
    // or for going offline.
    afterPageSettles(() => register(notification, setOfflineReady));
  }, [notification]);

  useEffect(() => {
    if (offlineReady !== 'waiting' || !mayTellOfflineReady(location)) return;
    setOfflineReady('told');
    notification.success({ key: 'pwa-offline', placement: 'bottomLeft', title: '已可离线使用', description: '应用已缓存：断网时也能打开，并显示您在本机浏览过的文件夹。', duration: 4.5 });
  }, [offlineReady, location, notification]);

  return null;
}

/** Idle periods in a row, each the longest the browser gives (nothing else waiting), that mean settled. */
const SETTLED_IDLE_PERIODS = 10;
/** The latest moment after the load event (ms): a page that keeps busy (an animation) registers then. */
const SETTLE_LIMIT_MS = 10_000;

/**
 * Runs `fn` once the window's load event has passed and the main thread has had nothing to do for
 * SETTLED_IDLE_PERIODS idle periods in a row (~0.5 s: the shell's staged mount and its first answers
 * are done), or SETTLE_LIMIT_MS after the load event at the latest.
 */
function afterPageSettles(fn: () => void): void {
  const start = () => {
    if (typeof window.requestIdleCallback !== 'function') return void window.setTimeout(fn, 2000);
    const requestIdle = (cb: IdleRequestCallback, options?: IdleRequestOptions) => window.requestIdleCallback(cb, options);
    const limit = performance.now() + SETTLE_LIMIT_MS;
    let quiet = 0;
    const step = (deadline: IdleDeadline) => {
      quiet = deadline.timeRemaining() >= 45 ? quiet + 1 : 0;
      if (quiet >= SETTLED_IDLE_PERIODS || performance.now() >= limit) fn();
      else requestIdle(step, { timeout: Math.max(1, limit - performance.now()) });
    };
    requestIdle(step);
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

type OfflineReady = 'no' | 'waiting' | 'told';

function register(notification: ReturnType<typeof useFeedback>['notification'], setOfflineReady: (update: (was: OfflineReady) => OfflineReady) => void): void {
  const updateSW = registerSW({
    immediate: true,
    onRegisteredSW(_url, registration) {
      if (navigator.serviceWorker) claimIfUncontrolled(navigator.serviceWorker, registration);
    },
    onNeedRefresh() {
      notification.info({
        key: 'pwa-update',
        placement: 'bottomLeft',
        title: '发现新版本',
        description: '刷新后即可使用新版本；未完成的传输会在刷新后继续。',
        duration: 0,
        actions: (
          <Button type="primary" size="small" onClick={() => takeUpdate(updateSW)} data-testid="pwa-refresh">
            刷新
          </Button>
        ),
      });
    },
    onOfflineReady() {
      setOfflineReady((was) => (was === 'no' ? 'waiting' : was));
    },
    onRegisterError(error: unknown) {
      console.warn('service worker registration failed', error);
    },
  });
}

/**
 * The user pressed 刷新: the waiting worker takes over, and the page reloads once it controls it —
 * on the controllerchange itself, which every browser fires (workbox-window's own reload waits for a
 * signal that does not come when the new worker claims the page as it activates).
 */
function takeUpdate(updateSW: (reload?: boolean) => Promise<void>): void {
  navigator.serviceWorker?.addEventListener('controllerchange', () => window.location.reload(), { once: true });
  void updateSW(true);
}
