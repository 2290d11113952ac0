import { Alert } from 'antd';
import { formatDateTime } from '../../common/format/date';
import { useLastConfirmedAt, useOnline } from '../lib/data/online';

/**
 * Shown while the browser is offline: what the pages show is the cached copy, and since when it has
 * not been confirmed by the server. Actions that need the server say so themselves.
 */
export function OfflineBanner() {
  return useOnline() ? null : <OfflineNotice />;
}

/**
 * Apart, so that only an offline page watches the whole query cache: while the shell's first render
 * is in progress, any answer arriving would change the watched value and make React throw that
 * render away and redo it in one blocking piece.
 */
function OfflineNotice() {
  const confirmedAt = useLastConfirmedAt();
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="offline-banner"
      title="当前处于离线状态"
      description={confirmedAt > 0 ? `显示的是 ${formatDateTime(confirmedAt)} 从服务器确认的数据；联网后自动更新。` : '本机暂无离线数据。'}
    />
  );
}
