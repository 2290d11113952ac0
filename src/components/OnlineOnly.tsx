import { Tooltip } from 'antd';
import { cloneElement, isValidElement, type ReactElement } from 'react';
import { useOnline } from '../lib/data/online';

export const OFFLINE_REASON = '离线时不可用，联网后再试';

/**
 * A control that needs the server (an admin's write): while offline it is shown disabled with the
 * reason, instead of failing after a click. Wraps one element that takes `disabled`.
 */
export function OnlineOnly({ children }: { children: ReactElement<{ disabled?: boolean }> }) {
  const online = useOnline();
  if (online || !isValidElement(children)) return children;
  return (
    <Tooltip title={OFFLINE_REASON}>
      <span>{cloneElement(children, { disabled: true })}</span>
    </Tooltip>
  );
}
