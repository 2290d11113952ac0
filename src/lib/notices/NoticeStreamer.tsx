/**
 * Keeps the notices of the signed-in account current while it is open (mounted by AccountGate):
 * joins the origin's one notice stream (notice-stream.ts), writes what it says into the data layer
 * (counts into their query, lists refreshed, and the caches of what a new message talks about:
 * message-caches.ts), shows a desktop notification for new file messages in
 * the desktop shell, and stops at logout or when the server ends the session (spec §8).
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { ERRORS } from '../../../common/api/errors';
import { NOTICES } from '../../../common/api/endpoints/notices';
import { NOTICE_POLL_MS, type FileMessageEvent, type UnreadCounts } from '../../../common/api/notices';
import { API } from '../../../common/api/paths';
import { describeFileMessage } from '../../../common/notices/describe';
import { api } from '../api';
import { ApiCallError } from '../api-client';
import { partitionOf, savedAccount } from '../data/account';
import { SHARING_KEYS } from '../data/sharing';
import { onAccountSessionEnd } from '../data/session';
import { cachesAbout } from './message-caches';
import { targetUrl } from './message-links';
import { applyLocalChange, registerNoticeOutboxExecutors, setLocalBroadcast, type LocalNoticeChange } from './notice-actions';
import { fetchCounts, NOTICE_KEYS } from './notice-data';
import { startNoticeStream, type EventSourceLike } from './notice-stream';

registerNoticeOutboxExecutors();

/** The newest messages, to word a notification (the event names at most the entry; the list has the whole message). */
async function notifyDesktop(event: FileMessageEvent): Promise<void> {
  const desktop = typeof window !== 'undefined' ? window.desktop : undefined;
  if (!desktop?.notify) return;
  const page = await api.call(NOTICES.fileMsgList, { pageSize: '10' }, { onError: () => undefined });
  const message = page.items.find((m) => m.id === event.id);
  if (!message || message.read) return;
  await desktop.notify({
    title: '新的文件消息',
    body: describeFileMessage(message).slice(0, 300),
    url: targetUrl(message.target) ?? '/main/notice/fileNotice',
  });
}

function startFor(client: QueryClient, account: string): () => void {
  const refresh = (key: readonly unknown[]) => void client.invalidateQueries({ queryKey: key });
  // Set once the stream exists (its handlers may run before startNoticeStream returns).
  let polling = (): boolean => false;
  const stream = startNoticeStream(
    {
      url: API.noticeStream,
      createEventSource: (url) => new EventSource(url, { withCredentials: true }) as unknown as EventSourceLike,
      fetchCounts: (signal) => fetchCounts(signal),
      // The API client has shown the '登出' box (400sec-core-301) or gone to /login (401) already.
      pollFailure: (e) => (e instanceof ApiCallError && (e.failure.kind === 'sessionTerminated' || e.failure.kind === 'unauthorized') ? 'stop' : 'retry'),
      lockName: `drive-notice-stream:${account}`,
      pollMs: NOTICE_POLL_MS,
    },
    {
      counts: (counts) => {
        // Polling (no stream): a count that grew is the only sign of new messages — whatever they
        // are about may have changed (applications, shares), so those lists are asked again too.
        const before = client.getQueryData<UnreadCounts>(NOTICE_KEYS.counts);
        client.setQueryData(NOTICE_KEYS.counts, counts);
        if (polling() && before && counts.file > before.file) refresh(SHARING_KEYS.all);
      },
      file: (event, leader) => {
        refresh(NOTICE_KEYS.files);
        for (const key of cachesAbout(event.type)) refresh(key);
        if (leader) void notifyDesktop(event).catch(() => undefined);
      },
      fileChanged: () => refresh(NOTICE_KEYS.files),
      // An important notice pops up at the reader's next login (spec: once, at login), not in the middle of work.
      system: () => refresh(NOTICE_KEYS.systems),
      // Counts come with the event that follows; the login pop-up is asked at login only.
      resync: () => {
        refresh(NOTICE_KEYS.files);
        refresh(NOTICE_KEYS.systems);
        refresh(SHARING_KEYS.all);
      },
      ended: (event) => {
        // Ask once more: the API client then reacts as spec §8 says (the '登出' box, or /login).
        if (event?.errorCode === ERRORS.SESSION_TERMINATED.code || event?.errorCode === ERRORS.UNAUTHORIZED.code) void fetchCountsLoud();
      },
      local: (data) => applyLocalChange(data as LocalNoticeChange, client),
    },
  );
  polling = () => stream.mode === 'polling';
  setLocalBroadcast((change) => stream.broadcast(change));
  const unlisten = onAccountSessionEnd(() => stream.stop());
  return () => {
    unlisten();
    setLocalBroadcast(() => undefined);
    stream.stop();
  };
}

/** The counts call with the default reaction of the API client (no quiet handler). */
function fetchCountsLoud(): Promise<unknown> {
  return api.call(NOTICES.unreadCount).catch(() => undefined);
}

export function NoticeStreamer() {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  useEffect(() => {
    const account = savedAccount();
    if (!account) return;
    return startFor(client, partitionOf(account));
  }, [client]);
  // A click on a desktop notification opens the message's file (or the messages page).
  useEffect(() => window.desktop?.onNotificationClick?.((url) => navigate(url)), [navigate]);
  return null;
}
