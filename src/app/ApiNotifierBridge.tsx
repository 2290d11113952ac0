import { useLayoutEffect } from 'react';
import { setApiNotifier } from '../lib/api';
import { useFeedback } from '../lib/feedback/feedback';

/** Connects the default API client's §8 toasts and '登出' box to antd's App context. */
export function ApiNotifierBridge() {
  const { message, modal } = useFeedback();
  useLayoutEffect(() => {
    setApiNotifier({
      error: (text, seconds) => void message.error(text, seconds),
      logoutBox: ({ title, content, okText, onOk }) => {
        modal.warning({ title, content, okText, onOk, keyboard: false, maskClosable: false, closable: false });
      },
    });
  }, [message, modal]);
  return null;
}
