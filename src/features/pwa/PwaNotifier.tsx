import { App, Button } from 'antd';
import { useEffect } from 'react';
import { registerSW } from 'virtual:pwa-register';

let registered = false;

/**
 * Registers the service worker (vite.config.ts sets injectRegister false so the app does it here) and
 * tells the user when a new version is ready or the app works offline. Renders nothing.
 */
export function PwaNotifier() {
  const { notification } = App.useApp();

  useEffect(() => {
    if (registered) return;
    registered = true;
    const updateSW = registerSW({
      immediate: true,
      onNeedRefresh() {
        notification.info({
          key: 'pwa-update',
          placement: 'bottomLeft',
          title: '新版本已就绪',
          description: '刷新页面即可使用新版本。',
          duration: 0,
          actions: (
            <Button type="primary" size="small" onClick={() => void updateSW(true)}>
              刷新
            </Button>
          ),
        });
      },
      onOfflineReady() {
        notification.success({ key: 'pwa-offline', placement: 'bottomLeft', title: '已可离线使用', description: '应用已缓存：断网时也能打开，并显示您在本机浏览过的文件夹。', duration: 4.5 });
      },
      onRegisterError(error: unknown) {
        console.warn('service worker registration failed', error);
      },
    });
  }, [notification]);

  return null;
}
