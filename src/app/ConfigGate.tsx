import { Button, Result } from 'antd';
import { useSetAtom } from 'jotai';
import { useEffect, useState, type ReactNode } from 'react';
import { API } from '../../common/api/paths';
import type { SystemConfig } from '../../common/api/types';
import { PageLoading } from '../components/PageLoading';
import { api } from '../lib/api';
import { systemConfigAtom } from '../lib/system-config';

/** Spec §4: nothing is shown until the system config (brand name, logo) is loaded. */
export function ConfigGate({ children }: { children: ReactNode }) {
  const setConfig = useSetAtom(systemConfigAtom);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let alive = true;
    api.get<SystemConfig>(API.systemConfig, { onError: () => undefined }).then(
      (config) => {
        if (!alive) return;
        setConfig(config);
        if (config.brandName) document.title = config.brandName;
        setState('ready');
      },
      () => alive && setState('failed'),
    );
    return () => {
      alive = false;
    };
  }, [attempt, setConfig]);

  if (state === 'ready') return <>{children}</>;
  if (state === 'failed') {
    return (
      <Result
        status="warning"
        title="无法连接服务器"
        subTitle="系统配置加载失败，请检查网络后重试。"
        extra={
          <Button type="primary" onClick={() => (setState('loading'), setAttempt((n) => n + 1))}>
            重试
          </Button>
        }
      />
    );
  }
  return <PageLoading />;
}
