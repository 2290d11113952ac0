/**
 * Toasts and notifications that close on one timer instead of a frame loop.
 *
 * antd times a notice's auto-close with a requestAnimationFrame loop that sets React state on every
 * frame for the notice's whole life (@rc-component/notification, useNoticeTimer → setPercent), whether
 * or not a progress bar is shown: a React commit 60 times a second for the 3 s of every toast (4.5 s of
 * every notification). Every upload pick shows one (已加入传输列表), so the page committed ~180 times
 * while the upload ran, and the first load's 已可离线使用 kept the main thread busy for 4.5 s.
 *
 * Here a notice that should close by itself is opened with antd's timer off (duration 0, which runs no
 * loop) and closed by one setTimeout. Hovering it pauses that timer, as antd's own did; closing it by
 * hand (a notification's ×) or opening it again under the same key (an update) ends the old timer.
 * The message promise resolves when the notice closes, either way.
 */
import type { ArgsProps as MessageArgs, JointContent, MessageInstance, MessageType, NoticeType } from 'antd/es/message/interface';
import type { ArgsProps as NotificationArgs, NotificationInstance } from 'antd/es/notification/interface';
import type { Key } from 'react';

/** antd's defaults: a toast (message) shows 3 s, a notification 4.5 s. */
export const MESSAGE_SECONDS = 3;
export const NOTIFICATION_SECONDS = 4.5;

/** What both kinds of notice share here: a key, a lifetime, a close callback and hover handlers. */
interface NoticeConfig {
  key?: Key;
  onClose?: () => void;
  onMouseEnter?: (event: never) => void;
  onMouseLeave?: (event: never) => void;
}

/** A closing timer that can pause (while hovered) and be cancelled. */
interface CloseTimer {
  pause(): void;
  resume(): void;
  cancel(): void;
}

function closeTimer(ms: number, close: () => void): CloseTimer {
  let left = ms;
  let startedAt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const resume = () => {
    if (timer !== null || left <= 0) return;
    startedAt = Date.now();
    timer = setTimeout(() => {
      timer = null;
      left = 0;
      close();
    }, left);
  };
  const stop = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  resume();
  return {
    resume,
    pause() {
      if (timer === null) return;
      stop();
      left = Math.max(0, left - (Date.now() - startedAt));
    },
    cancel() {
      stop();
      left = 0;
    },
  };
}

/**
 * The timers of one notice holder, by key. `open` shows `config` through `show` with antd's timer off
 * and closes it after `seconds` through `close`; resolves `closed` when it has closed (by the timer, by
 * hand, or by a later `open` of the same key that replaced it).
 */
function noticeTimers(prefix: string) {
  const timers = new Map<Key, { timer: CloseTimer; finish: () => void; closeNow: () => void }>();
  let next = 0;
  return {
    open<C extends NoticeConfig>(config: C, seconds: number, show: (config: C) => void, close: (key: Key) => void): { key: Key; closed: Promise<void> } {
      const key = config.key ?? `${prefix}-${++next}`;
      timers.get(key)?.finish();
      let resolve!: () => void;
      const closed = new Promise<void>((r) => (resolve = r));
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        timer.cancel();
        if (timers.get(key)?.finish === finish) timers.delete(key);
        resolve();
      };
      const closeNow = () => {
        finish();
        close(key);
        config.onClose?.();
      };
      const timer = closeTimer(seconds * 1000, closeNow);
      timers.set(key, { timer, finish, closeNow });
      show({
        ...config,
        key,
        duration: 0,
        onClose: () => {
          // Closed by hand (antd calls this only for its own closing, never for close(key)).
          finish();
          config.onClose?.();
        },
        onMouseEnter: (event: never) => {
          timer.pause();
          config.onMouseEnter?.(event);
        },
        onMouseLeave: (event: never) => {
          timer.resume();
          config.onMouseLeave?.(event);
        },
      } as C);
      return { key, closed };
    },
    /** A notice closed from outside (destroy): its timer ends; no key: every notice's. */
    forget(key?: Key): void {
      if (key !== undefined) return timers.get(key)?.finish();
      for (const { finish } of [...timers.values()]) finish();
    },
    /** Every notice still timed closes now, as its timer would have closed it. */
    closeAll(): void {
      for (const { closeNow } of [...timers.values()]) closeNow();
    },
  };
}

/** The number of seconds a notice should stay, or null when it stays until closed (0, false, negative). */
function lifetime(duration: number | false | null | undefined, fallback: number): number | null {
  const seconds = duration === undefined || duration === null ? fallback : duration;
  return typeof seconds === 'number' && seconds > 0 ? seconds : null;
}

/** A MessageType (callable to close, thenable on close) for a notice that closes on `closed`. */
function messageType(close: () => void, closed: Promise<void>): MessageType {
  const result = (() => close()) as MessageType;
  result.then = (onFulfilled, onRejected) => closed.then(() => true).then(onFulfilled, onRejected);
  return result;
}

/** antd's reading of `message.success(content, duration?, onClose?)` (a config object, or content). */
export function messageArgs(type: NoticeType, content: JointContent, duration?: number | VoidFunction, onClose?: VoidFunction): MessageArgs {
  const config: MessageArgs = content !== null && typeof content === 'object' && !Array.isArray(content) && 'content' in content ? (content as MessageArgs) : { content };
  const timing = typeof duration === 'function' ? { onClose: duration } : { duration, onClose };
  return { ...timing, ...config, type };
}

/** A message API built from its `open` and `destroy`: the typed shorthands are antd's readings of `open`. */
export function messageInstance(open: MessageInstance['open'], destroy: MessageInstance['destroy']): MessageInstance {
  const typed = (type: NoticeType): MessageInstance['info'] => (content, duration, onClose) => open(messageArgs(type, content, duration, onClose));
  return { open, info: typed('info'), success: typed('success'), warning: typed('warning'), error: typed('error'), loading: typed('loading'), destroy };
}

/** `api` (message.useMessage()'s) with every auto-closing toast on one timer instead of a frame loop. */
export function timedMessages(api: MessageInstance): MessageInstance {
  const timers = noticeTimers('timed-message');
  const open = (config: MessageArgs): MessageType => {
    const seconds = lifetime(config.duration, MESSAGE_SECONDS);
    if (seconds === null) return api.open(config);
    let closeNow: () => void = () => undefined;
    const { key, closed } = timers.open(config, seconds, (shown) => (closeNow = api.open(shown)), (k) => api.destroy(k));
    // Closed through the returned function (as antd's: no onClose): its timer ends with it.
    return messageType(() => {
      timers.forget(key);
      closeNow();
    }, closed);
  };
  return messageInstance(open, (key?: Key) => {
    timers.forget(key);
    api.destroy(key);
  });
}

/** A notification API whose auto-closing notifications can also be closed all at once. */
export interface TimedNotifications extends NotificationInstance {
  /** Closes every notification that would close by itself; those that wait for the user stay. */
  closeTimed(): void;
}

/** `api` (notification.useNotification()'s) with every auto-closing notification on one timer. */
export function timedNotifications(api: NotificationInstance): TimedNotifications {
  const timers = noticeTimers('timed-notification');
  const show = (kind: 'open' | 'info' | 'success' | 'warning' | 'error') => (config: NotificationArgs) => {
    const seconds = lifetime(config.duration, NOTIFICATION_SECONDS);
    if (seconds === null) return api[kind](config);
    timers.open(config, seconds, (shown) => api[kind](shown), (key) => api.destroy(key));
  };
  return {
    open: show('open'),
    info: show('info'),
    success: show('success'),
    warning: show('warning'),
    error: show('error'),
    destroy(key?: Key) {
      timers.forget(key);
      api.destroy(key);
    },
    closeTimed: () => timers.closeAll(),
  };
}
