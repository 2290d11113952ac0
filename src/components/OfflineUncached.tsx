import { DisconnectOutlined } from '@ant-design/icons';
import type { CSSProperties } from 'react';

export const OFFLINE_UNCACHED_TITLE = '离线中，此页面尚未缓存';

/**
 * Offline, on a page (or folder) this device has never shown: nothing to show, and saying so — an
 * empty list here would claim the folder is empty. Queries resume by themselves once the network is
 * back, so the page fills without the user doing anything.
 */
export function OfflineUncached({ style }: { style?: CSSProperties }) {
  return (
    <div role="status" data-testid="offline-uncached" style={{ textAlign: 'center', padding: '32px 16px', color: 'rgba(0,0,0,0.65)', ...style }}>
      <DisconnectOutlined style={{ fontSize: 32, color: 'rgba(0,0,0,0.35)' }} aria-hidden />
      <div style={{ fontSize: 16, fontWeight: 500, margin: '12px 0 6px', color: 'rgba(0,0,0,0.88)' }}>{OFFLINE_UNCACHED_TITLE}</div>
      <div>本机还没有打开过这里，离线时无法显示其内容（这不表示它是空的）。</div>
      <div>请联网，页面会自动加载；之后离线时也能查看打开过的页面和文件夹。</div>
    </div>
  );
}
