import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { AfterCommits } from '../components/AfterCommits';
import { PageLoading } from '../components/PageLoading';
import { ApiCallError } from '../lib/api-client';
import { savedAccount, sameAccount } from '../lib/data/account';
import { openAccount } from '../lib/data/open-account';
import { useUserDetailsQuery } from '../lib/data/queries';
import { confirmAccount } from '../lib/data/session';
import { startOutbox } from '../lib/outbox/outbox';
import { NoticeStreamer } from '../lib/notices/NoticeStreamer';
import { NoticePopupGate } from './NoticePopupGate';
import { StatusResult } from '../components/StatusResult';
import { takeEarlyAccountOpen } from './boot-prefetch';

type State = 'loading' | 'ready' | 'offline';

/**
 * Everything under /main reads the signed-in account's cache partition (opened by openAccount, at
 * boot for a page loaded straight into /main). Whenever the server names another account than the
 * one shown, the shown partition is dropped and the right one loaded.
 */
export function AccountGate({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const [state, setState] = useState<State>('loading');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let alive = true;
    const open = takeEarlyAccountOpen() ?? openAccount(client);
    open.then(
      () => {
        if (!alive) return;
        // The shell is the largest render of the app: as a transition React renders it in slices
        // and the page stays responsive (Lighthouse: total blocking time).
        startTransition(() => setState('ready'));
      },
      // A refusal (401) already sent the user to /login; no answer at all means no network.
      (e: unknown) => alive && !(e instanceof ApiCallError) && setState('offline'),
    );
    return () => {
      alive = false;
    };
  }, [client, attempt]);

  if (state === 'offline') {
    return (
      <StatusResult
        status="warning"
        title="无法连接服务器"
        subTitle="当前处于离线状态，本机没有该账号的离线数据。请联网后重试。"
        extra={
          <Button type="primary" onClick={() => (setState('loading'), setAttempt((n) => n + 1))}>
            重试
          </Button>
        }
      />
    );
  }
  if (state === 'loading') return <PageLoading />;
  return (
    <>
      <AccountCheck />
      {/* Background work starts once the shell's stages have committed (see MainLayout). */}
      <AfterCommits stage={3}>
        <OutboxReplayer />
        <NoticeStreamer />
        <NoticePopupGate />
      </AfterCommits>
      {children}
    </>
  );
}

/** Takes part in electing the tab that replays offline changes (one per origin) while an account is open. */
function OutboxReplayer() {
  useEffect(() => startOutbox(), []);
  return null;
}

/** When fresh user details name another account than the partition shown, switch partitions. */
function AccountCheck() {
  const user = useUserDetailsQuery().data;
  useEffect(() => {
    if (!user) return;
    const account = { tenantId: user.tenantId, userId: user.id };
    if (!sameAccount(savedAccount(), account)) void confirmAccount(account);
  }, [user]);
  return null;
}
