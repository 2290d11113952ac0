/**
 * The shell's frame on a wide screen (header, side menu, content), shared by MainLayout and by the
 * frame the build draws into personal.html (src/app/personal-frame.tsx): the HTML a cold 个人文件
 * paints before any script must sit exactly where the shell then draws itself.
 */
import type { CSSProperties } from 'react';

export const HEADER_HEIGHT = 56;
export const SIDER_WIDTH = 208;

export const headerStyle = (phone: boolean): CSSProperties => ({
  height: HEADER_HEIGHT,
  lineHeight: `${HEADER_HEIGHT}px`,
  padding: phone ? '0 8px' : '0 24px',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: 8,
  background: '#fff',
  borderBottom: '1px solid #f0f0f0',
});

export const SIDER_STYLE: CSSProperties = { borderInlineEnd: '1px solid #f0f0f0', overflow: 'auto' };

export const contentStyle = (phone: boolean, phoneClearance: string | undefined): CSSProperties => ({
  minWidth: 0,
  overflow: 'auto',
  padding: phone ? 8 : 16,
  paddingBottom: phoneClearance,
  display: 'flex',
  flexDirection: 'column',
});
