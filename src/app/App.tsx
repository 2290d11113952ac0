import { SearchOutlined } from '@ant-design/icons';
import { ConfigProvider } from 'antd';
// The ES build of the locale: 'antd/locale/zh_CN' is CommonJS and brings CJS twins of the pickers' locales.
import zhCN from 'antd/es/locale/zh_CN';
// antd's prebuilt styles (zero-runtime mode): generating them in the browser at first render cost
// ~300 ms of main thread on 个人文件. The theme below still applies through CSS variables. A build cuts
// this stylesheet by component (vite.config.ts, antdStylesByComponent): here it keeps what no one
// component owns, and each component's rules load with the chunk that renders it.
import 'antd/dist/antd.css';
import { createStore, Provider as JotaiProvider } from 'jotai';
import { PwaNotifier } from '../features/pwa';
import { FeedbackProvider } from '../lib/feedback/feedback';
import { useMediaQuery } from '../lib/use-media-query';
import { usePhone } from '../lib/use-phone';
import { appTheme } from './antd-theme';
import { ApiNotifierBridge } from './ApiNotifierBridge';
import { AppRoutes } from './AppRoutes';
import { BeianFooter } from './BeianFooter';
import { CacheGate } from './CacheGate';
import { ConfigGate } from './ConfigGate';
import { RoutePatterns } from './route-patterns';

const store = createStore();

/**
 * Every search box's button is only a magnifier: its name (the icon's label, which antd sets to the
 * English "search") and its tooltip say 搜索.
 */
const SEARCH_ICON = <SearchOutlined aria-label="搜索" title="搜索" />;

export function App() {
  const phone = usePhone();
  const still = useMediaQuery('(prefers-reduced-motion: reduce)', false);
  return (
    <ConfigProvider locale={zhCN} theme={appTheme(phone ? 'phone' : 'desktop', still)} inputSearch={{ searchIcon: SEARCH_ICON }}>
      <FeedbackProvider>
        <JotaiProvider store={store}>
          <ApiNotifierBridge />
          <PwaNotifier />
          <CacheGate>
            <ConfigGate>
              <RoutePatterns>
                <AppRoutes />
                <BeianFooter />
              </RoutePatterns>
            </ConfigGate>
          </CacheGate>
        </JotaiProvider>
      </FeedbackProvider>
    </ConfigProvider>
  );
}
