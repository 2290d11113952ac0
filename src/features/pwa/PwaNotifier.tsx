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
  const [offlineReady, setOfflineReady] = useState<'no' | 'waiting' | 'told'>('no');

  useEffect(() => {
    if (registered) return;
    registered = true;
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
  }, [notification]);

  useEffect(() => {
    if (offlineReady !== 'waiting' || !mayTellOfflineReady(location)) return;
    setOfflineReady('told');
    notification.success({ key: 'pwa-offline', placement: 'bottomLeft', title: '已可离线使用', description: '应用已缓存：断网时也能打开，并显示您在本机浏览过的文件夹。', duration: 4.5 });
  }, [offlineReady, location, notification]);

  return null;
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
