import { ConfigProvider } from 'antd';
// The ES build of the locale: 'antd/locale/zh_CN' is CommonJS and brings CJS twins of the pickers' locales.
import zhCN from 'antd/es/locale/zh_CN';
// antd's styles as one prebuilt stylesheet (zero-runtime mode): generating them in the browser at
// first render cost ~300 ms of main thread on 个人文件. The theme below still applies through CSS variables.
import 'antd/dist/antd.css';
import { createStore, Provider as JotaiProvider } from 'jotai';
import { PwaNotifier } from '../features/pwa';
import { FeedbackProvider } from '../lib/feedback/feedback';
import { useMediaQuery } from '../lib/use-media-query';
import { TOUCH_TARGET_PX, usePhone } from '../lib/use-phone';
import { ApiNotifierBridge } from './ApiNotifierBridge';
import { AppRoutes } from './AppRoutes';
import { BeianFooter } from './BeianFooter';
import { CacheGate } from './CacheGate';
import { ConfigGate } from './ConfigGate';

const store = createStore();

/**
 * Colours that read: antd's default blue (#1677ff) and its lightest greys fall short of the 4.5:1
 * contrast WCAG asks of text (Lighthouse accessibility). Blue 7 and greys of at least 56 % black hold it.
 */
const THEME = {
  zeroRuntime: true,
  token: {
    colorPrimary: '#0958d9',
    colorLink: '#0958d9',
    colorTextSecondary: 'rgba(0, 0, 0, 0.62)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.58)',
    colorTextQuaternary: 'rgba(0, 0, 0, 0.56)',
    colorTextDescription: 'rgba(0, 0, 0, 0.58)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
  },
};

/** On a phone every control is a touch target of at least 44 px (WCAG 2.5.5). */
const PHONE_THEME = { zeroRuntime: true, token: { ...THEME.token, controlHeight: TOUCH_TARGET_PX, controlHeightSM: 36 } };

/**
 * A user who asked the system for less motion (prefers-reduced-motion) gets menus, dialogs and
 * drawers that appear at once, without antd's zoom and slide animations.
 */
const withoutMotion = (theme: typeof THEME) => ({ ...theme, token: { ...theme.token, motion: false } });
const STILL = withoutMotion(THEME);
const PHONE_STILL = withoutMotion(PHONE_THEME);

export function App() {
  const phone = usePhone();
  const still = useMediaQuery('(prefers-reduced-motion: reduce)', false);
  const theme = phone ? (still ? PHONE_STILL : PHONE_THEME) : still ? STILL : THEME;
  return (
    <ConfigProvider locale={zhCN} theme={theme}>
      <FeedbackProvider>
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
      </FeedbackProvider>
    </ConfigProvider>
  );
}
