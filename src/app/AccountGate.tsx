import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { PageLoading } from '../components/PageLoading';
import { ApiCallError } from '../lib/api-client';
import { savedAccount, sameAccount } from '../lib/data/account';
import { fetchUserDetailsQuery, QUERY_KEYS, useUserDetailsQuery } from '../lib/data/queries';
import { cachePersistence, confirmAccount } from '../lib/data/session';
import { startOutbox } from '../lib/outbox/outbox';
import { StatusResult } from '../components/StatusResult';

type State = 'loading' | 'ready' | 'offline';

/**
 * Everything under /main reads the signed-in account's cache partition. With a saved account (this
 * browser's last confirmed one) its partition is loaded at once, so the app opens offline; without
 * one, the server is asked who is signed in first. Whenever the server names another account than
 * the one shown, the shown partition is dropped and the right one loaded.
 */
export function AccountGate({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const [state, setState] = useState<State>('loading');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let alive = true;
    const saved = savedAccount();
    const open = saved
      ? cachePersistence.useAccount(saved)
      : fetchUserDetailsQuery().then(async (user) => {
          await confirmAccount({ tenantId: user.tenantId, userId: user.id });
          client.setQueryData(QUERY_KEYS.userDetails, user);
        });
    open.then(
      () => alive && setState('ready'),
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
      <OutboxReplayer />
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
