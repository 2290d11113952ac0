import { Button, Modal, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SystemNotice } from '../../../common/api/notices';
import { NOTICES } from '../../../common/api/endpoints/notices';
import { formatDateTime } from '../../../common/format/date';
import { api } from '../../lib/api';
import { NOTICE_KEYS, setCounts } from '../../lib/notices/notice-data';
import { NoticeContent } from './NoticeContent';
import { NoticeTags } from './SystemNoticePage';
import './notices.css';

/**
 * Important notices the user has not been shown: one after the other when the account opens (a login, a
 * start of the app), each once — 我知道了 tells the server it was shown (and read), so it never pops up again, on any
 * device.
 */
export function NoticePopup({ items }: { items: SystemNotice[] }) {
  const client = useQueryClient();
  const [index, setIndex] = useState(0);
  const [closing, setClosing] = useState(false);
  const current = items[index];
  if (!current) return null;

  const acknowledge = async () => {
    setClosing(true);
    try {
      await api.call(NOTICES.sysMsgPopupAck, { ids: [current.id] }, { onError: () => undefined });
      if (!current.read) setCounts(client, (c) => ({ ...c, system: Math.max(0, c.system - 1) }));
    } catch {
      // Offline or refused: it shows again next time, which is better than never.
    } finally {
      setClosing(false);
      if (index + 1 < items.length) setIndex(index + 1);
      else {
        client.setQueryData(NOTICE_KEYS.popup, { items: [] });
        void client.invalidateQueries({ queryKey: NOTICE_KEYS.systems });
      }
    }
  };

  return (
    <Modal
      open
      title={current.title}
      closable={false}
      maskClosable={false}
      keyboard={false}
      width={640}
      data-testid="notice-popup"
      footer={
        <Button type="primary" loading={closing} onClick={() => void acknowledge()} data-testid="notice-popup-ok">
          我知道了{items.length > 1 ? `（${index + 1}/${items.length}）` : ''}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        <NoticeTags notice={current} />
        {current.author.nickName} 发布于 {formatDateTime(current.publishedAt)}
      </Typography.Paragraph>
      <NoticeContent html={current.content} />
    </Modal>
  );
}
