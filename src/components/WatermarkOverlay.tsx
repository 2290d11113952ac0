import type { ReactNode } from 'react';

const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A tile of the tilted watermark line as an SVG data URL (pictures from data: are allowed by the page's CSP). */
function tile(text: string): string {
  const width = Math.max(220, text.length * 9 + 40);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${Math.round(width * 0.6)}">` +
    `<text x="50%" y="50%" text-anchor="middle" transform="rotate(-30 ${width / 2} ${Math.round(width * 0.3)})" ` +
    `font-family="sans-serif" font-size="15" fill="rgba(128,128,128,0.38)">${escapeXml(text)}</text></svg>`;
  return `url("data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}")`;
}

/**
 * The viewer's line (name, account, time) drawn over a preview (documents, text) through a
 * preview-only share or link. Pictures get theirs burnt into the pixels by the server
 * (services/sharing/watermark.ts), documents painted into each page by the viewer
 * (components/document/canvas-watermark.ts): an overlay is only what this page draws, so it marks
 * what is looked at here and on screenshots of it, and one node removed takes it off.
 */
export function WatermarkOverlay({ text, children }: { text: string | null; children: ReactNode }) {
  if (!text) return <>{children}</>;
  return (
    <div style={{ position: 'relative', width: '100%' }} data-testid="watermark" data-watermark={text}>
      {children}
      <div aria-hidden data-watermark-layer style={{ position: 'absolute', inset: 0, pointerEvents: 'none', backgroundImage: tile(text), backgroundRepeat: 'repeat', zIndex: 2 }} />
    </div>
  );
}
