import { createContext, useContext, type ComponentType, type ReactNode } from 'react';

type Frame = ComponentType<{ children: ReactNode }>;

const Passthrough: Frame = ({ children }) => <>{children}</>;

/**
 * What antd's components of a page render inside. In the app: nothing more (App.tsx's ConfigProvider
 * is above everything). In the link pages' lean entry the code page is plain HTML, and antd — theme,
 * locale, stylesheet — comes only with what needs it (src/app/LinkApp.tsx provides that frame).
 */
export const AntdFrameContext = createContext<Frame>(Passthrough);

export function AntdFrame({ children }: { children: ReactNode }) {
  const Frame = useContext(AntdFrameContext);
  return <Frame>{children}</Frame>;
}
