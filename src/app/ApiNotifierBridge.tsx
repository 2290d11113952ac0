import { App } from 'antd';
import { useLayoutEffect } from 'react';
import { setApiNotifier } from '../lib/api';

/** Connects the default API client's §8 toasts and '登出' box to antd's App context. */
export function ApiNotifierBridge() {
  const { message, modal } = App.useApp();
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
