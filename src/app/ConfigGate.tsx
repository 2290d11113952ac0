import { Button } from 'antd';
import { useSetAtom } from 'jotai';
import { useEffect, type ReactNode } from 'react';
import { PageLoading } from '../components/PageLoading';
import { useOnline } from '../lib/data/online';
import { useSystemConfigQuery } from '../lib/data/queries';
import { systemConfigAtom } from '../lib/system-config';
import { StatusResult } from '../components/StatusResult';

/**
 * Spec §4: nothing is shown until the system config (brand name, logo) is known — from the server,
 * or offline from the cache of an earlier visit.
 */
export function ConfigGate({ children }: { children: ReactNode }) {
  const setConfig = useSetAtom(systemConfigAtom);
  const online = useOnline();
  const config = useSystemConfigQuery();

  useEffect(() => {
    if (!config.data) return;
    setConfig(config.data);
    if (config.data.brandName) document.title = config.data.brandName;
  }, [config.data, setConfig]);

  if (config.data) return <>{children}</>;
  // Paused: offline with nothing cached yet (the first visit must reach the server once).
  if (config.isError || config.fetchStatus === 'paused') {
    return (
      <StatusResult
        status="warning"
        title="无法连接服务器"
        subTitle={online ? '系统配置加载失败，请检查网络后重试。' : '当前处于离线状态，且本机还没有可用的离线数据。请联网后打开一次。'}
        extra={
          <Button type="primary" onClick={() => void config.refetch()}>
            重试
          </Button>
        }
      />
    );
  }
  return <PageLoading />;
}
