import { ConfigProvider } from 'antd';
// The ES build of the locale (App.tsx says why).
import zhCN from 'antd/es/locale/zh_CN';
// antd's base rules; each component's own come with the chunk that renders it (vite.config.ts).
import 'antd/dist/antd.css';
import type { ReactNode } from 'react';
import { useMediaQuery } from '../lib/use-media-query';
import { usePhone } from '../lib/use-phone';
import { appTheme } from './antd-theme';

/** The app's antd theme and locale, for the link pages' parts that use antd (loaded when first needed). */
export function LinkAntdRoot({ children }: { children: ReactNode }) {
  const phone = usePhone();
  const still = useMediaQuery('(prefers-reduced-motion: reduce)', false);
  return (
    <ConfigProvider locale={zhCN} theme={appTheme(phone ? 'phone' : 'desktop', still)}>
      {children}
    </ConfigProvider>
  );
}
