/**
 * Toasts and notifications whose antd part loads with the first one shown.
 *
 * antd's message and notification (their holders, @rc-component/notification, their motion) were ~12 kB
 * of the login page's compressed JavaScript, which shows no notice until something goes wrong. Here pages
 * get stand-ins at once: what they ask before the host (NoticeHost.tsx, its own chunk) has loaded waits,
 * in order, and is shown as soon as it has; `load` is asked for by every call that has to wait (the
 * provider loads the chunk once). A toast closed before it could be shown is never shown, and its promise
 * resolves as a closed toast's does.
 */
import type { ArgsProps as MessageArgs, MessageInstance, MessageType } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { messageInstance } from './timed-notices';

/** The APIs of antd's two holders, as NoticeHost hands them over. */
export interface NoticeApis {
  message: MessageInstance;
  notification: NotificationInstance;
}

export interface DeferredNotices {
  message: MessageInstance;
  notification: NotificationInstance;
  /** The host's APIs (again after they change: a phone's notifications stand higher); what waited is shown now. */
  ready(apis: NoticeApis): void;
}

export function deferredNotices(load: () => void): DeferredNotices {
  let apis: NoticeApis | null = null;
  const waiting: ((apis: NoticeApis) => void)[] = [];
  const whenReady = (show: (apis: NoticeApis) => void): void => {
    if (apis) return show(apis);
    waiting.push(show);
    load();
  };

  const open = (config: MessageArgs): MessageType => {
    if (apis) return apis.message.open(config);
    let shown: MessageType | null = null;
    let dropped = false;
    let settle!: (closed: boolean) => void;
    const closed = new Promise<boolean>((resolve) => (settle = resolve));
    whenReady((ready) => {
      if (dropped) return;
      shown = ready.message.open(config);
      void shown.then(settle);
    });
    const result = (() => {
      if (shown) return shown();
      dropped = true;
      settle(true);
    }) as MessageType;
    result.then = (onFulfilled, onRejected) => closed.then(onFulfilled, onRejected);
    return result;
  };
  // Nothing shown yet and nothing waiting: nothing to close (and no reason to load the host).
  const message = messageInstance(open, (key) => (apis || waiting.length ? whenReady((ready) => ready.message.destroy(key)) : undefined));

  const show =
    (kind: 'open' | 'info' | 'success' | 'warning' | 'error'): NotificationInstance['open'] =>
    (config) =>
      whenReady((ready) => ready.notification[kind](config));
  const notification: NotificationInstance = {
    open: show('open'),
    info: show('info'),
    success: show('success'),
    warning: show('warning'),
    error: show('error'),
    destroy: (key) => (apis || waiting.length ? whenReady((ready) => ready.notification.destroy(key)) : undefined),
  };

  return {
    message,
    notification,
    ready(next) {
      apis = next;
      for (const show of waiting.splice(0)) show(next);
    },
  };
}
