import { Modal } from 'antd';
import type { HookAPI } from 'antd/es/modal/useModal';
import { useEffect } from 'react';

/** Renders antd's modal holder and hands its API over (loaded the first time a page asks for a box). */
export default function ModalHost({ onReady }: { onReady: (api: HookAPI) => void }) {
  const [api, holder] = Modal.useModal();
  useEffect(() => onReady(api), [api, onReady]);
  return holder;
}
