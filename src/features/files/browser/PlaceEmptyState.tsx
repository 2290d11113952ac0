import type { ReactNode } from 'react';

/**
 * An empty place that says what it is for and how to fill it (instead of a bare 暂无文件): shown at
 * the top of the page's own tree when nothing is there yet.
 */
export function PlaceEmptyState({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div data-testid="empty-state" style={{ maxWidth: 560, margin: '24px auto', textAlign: 'center', color: 'rgba(0,0,0,0.65)', lineHeight: 1.7, whiteSpace: 'normal' }}>
      <div style={{ fontSize: 36, color: 'rgba(0,0,0,0.3)' }} aria-hidden>
        {icon}
      </div>
      <div style={{ fontSize: 16, fontWeight: 500, margin: '8px 0', color: 'rgba(0,0,0,0.88)' }}>{title}</div>
      {children}
    </div>
  );
}
