import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { createStore, Provider as JotaiProvider } from 'jotai';
import { PwaNotifier } from '../features/pwa';
import { ApiNotifierBridge } from './ApiNotifierBridge';
import { AppRoutes } from './AppRoutes';
import { BeianFooter } from './BeianFooter';
import { CacheGate } from './CacheGate';
import { ConfigGate } from './ConfigGate';

const store = createStore();

export function App() {
  return (
    <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: '#1677ff' } }}>
      <AntApp>
        <JotaiProvider store={store}>
          <ApiNotifierBridge />
          <PwaNotifier />
          <CacheGate>
            <ConfigGate>
              <AppRoutes />
              <BeianFooter />
            </ConfigGate>
          </CacheGate>
        </JotaiProvider>
      </AntApp>
    </ConfigProvider>
  );
}
