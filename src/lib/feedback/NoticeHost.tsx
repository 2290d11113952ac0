import { CloseOutlined } from '@ant-design/icons';
import { message, notification } from 'antd';
import { useEffect, useMemo } from 'react';
import type { NoticeApis } from './deferred-notices';
import './feedback.css';

/** The toasts' holder: no enter or leave motion (feedback.css says why). */
const TOAST_CONFIG = { transitionName: '' };
/** A notification's ✕ says what it does on hover, like every icon-only button of the app (issue 44 item 10). */
const CLOSE_ICON = <CloseOutlined className="ant-notification-notice-close-icon" title="关闭" />;

/**
 * Renders antd's toast and notification holders and hands their APIs over (deferred-notices.ts: loaded
 * with the first notice a page shows). `bottom`: where a phone's notifications stand (use-phone.ts).
 */
export default function NoticeHost({ bottom, onReady }: { bottom?: number; onReady: (apis: NoticeApis) => void }) {
  // No motion name: a toast appears and goes at once.
  const [messageApi, messageHolder] = message.useMessage(TOAST_CONFIG);
  const [notificationApi, notificationHolder] = notification.useNotification(bottom === undefined ? { closeIcon: CLOSE_ICON } : { bottom, closeIcon: CLOSE_ICON });
  const apis = useMemo(() => ({ message: messageApi, notification: notificationApi }), [messageApi, notificationApi]);
  // An effect: the holders have mounted by then (antd's APIs show nothing before).
  useEffect(() => onReady(apis), [apis, onReady]);
  return (
    <>
      {messageHolder}
      {notificationHolder}
    </>
  );
}
