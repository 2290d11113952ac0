/**
 * Toasts, notifications and confirmation boxes for every page: what antd's <App> gives through
 * App.useApp(), except that antd's parts load the first time they are asked for: the toasts and
 * notifications (NoticeHost, deferred-notices.ts) with the first notice, the modal part (Modal, Dialog,
 * Skeleton…) with the first box. The login page asks for neither until something goes wrong, and its
 * first load is lighter by both; the file pages load Modal for their own dialogs anyway, so a
 * confirmation there opens at once.
 */
import { theme } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { ModalFuncProps } from 'antd';
import type { HookAPI as ModalApi } from 'antd/es/modal/useModal';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { retryingImport } from '../module-retry';
import { deferredNotices } from './deferred-notices';
import type NoticeHostComponent from './NoticeHost';
import { timedMessages, timedNotifications } from './timed-notices';
import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { PHONE_NOTICE_BOTTOM_PX, usePhone } from '../use-phone';

type NoticeHostModule = { default: typeof NoticeHostComponent };
/** The notices chunk; once its import failed, the next notice imports it again (module-retry.ts). */
const loadNoticeHost = retryingImport<NoticeHostModule>(() => import('./NoticeHost'), (m) => typeof m.default === 'function');

const ModalHost = lazy(() => import('./ModalHost'));

/** The boxes pages use; each returns nothing (the box may still be loading when the call returns). */
export interface LazyModal {
  confirm(props: ModalFuncProps): void;
  warning(props: ModalFuncProps): void;
  info(props: ModalFuncProps): void;
  error(props: ModalFuncProps): void;
}

export interface Feedback {
  message: MessageInstance;
  notification: NotificationInstance;
  modal: LazyModal;
}

const FeedbackContext = createContext<Feedback | null>(null);

export function useFeedback(): Feedback {
  const feedback = useContext(FeedbackContext);
  if (!feedback) throw new Error('useFeedback outside <FeedbackProvider>');
  return feedback;
}

export function FeedbackProvider({ children }: { children: ReactNode }) {
  // On a phone, notices stand above the floating transfer button, never over it (use-phone.ts).
  const phone = usePhone();
  const [NoticeHost, setNoticeHost] = useState<NoticeHostModule['default'] | null>(null);
  // Loaded when the first notice has to wait for it; a failed load is tried again by the next notice.
  const [notices] = useState(() => {
    let loading = false;
    return deferredNotices(() => {
      if (loading) return;
      loading = true;
      loadNoticeHost().then(
        ({ default: Host }) => setNoticeHost(() => Host),
        (error: unknown) => {
          loading = false;
          console.warn('the notices chunk failed to load', error);
        },
      );
    });
  });
  const messages = useMemo(() => timedMessages(notices.message), [notices]);
  const notifications = useMemo(() => timedNotifications(notices.notification), [notices]);
  const api = useRef<ModalApi | null>(null);
  // Boxes asked for before the host has loaded, in order.
  const waiting = useRef<((api: ModalApi) => void)[]>([]);
  const [hostWanted, setHostWanted] = useState(false);

  const withModal = useCallback((show: (api: ModalApi) => void) => {
    if (api.current) return show(api.current);
    waiting.current.push(show);
    setHostWanted(true);
  }, []);
  const onHostReady = useCallback((ready: ModalApi) => {
    api.current = ready;
    for (const show of waiting.current.splice(0)) show(ready);
  }, []);

  const value = useMemo<Feedback>(
    () => ({
      // One timer per notice instead of antd's frame loop (timed-notices.ts).
      message: messages,
      notification: notifications,
      modal: {
        confirm: (props) => withModal((m) => void m.confirm(props)),
        warning: (props) => withModal((m) => void m.warning(props)),
        info: (props) => withModal((m) => void m.info(props)),
        error: (props) => withModal((m) => void m.error(props)),
      },
    }),
    [messages, notifications, withModal],
  );

  // On a phone a notice that closes by itself also closes at the user's next touch anywhere but its
  // own buttons: it told its news, and the page is theirs again (a notice on a narrow screen always
  // lies over something they may want to reach). Those that wait for an answer (刷新) stay.
  useEffect(() => {
    if (!phone) return;
    const onPointerDown = (event: PointerEvent): void => {
      if (event.target instanceof Element && event.target.closest('.ant-notification-notice :is(button, a)')) return;
      notifications.closeTimed();
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => document.removeEventListener('pointerdown', onPointerDown, true);
  }, [phone, notifications]);

  // The base text style antd's <App> gives the page (its .ant-app class).
  const { token } = theme.useToken();
  return (
    <FeedbackContext.Provider value={value}>
      <div style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}>{children}</div>
      {NoticeHost && <NoticeHost bottom={phone ? PHONE_NOTICE_BOTTOM_PX : undefined} onReady={notices.ready} />}
      {hostWanted && (
        <Suspense fallback={null}>
          <ModalHost onReady={onHostReady} />
        </Suspense>
      )}
    </FeedbackContext.Provider>
  );
}
