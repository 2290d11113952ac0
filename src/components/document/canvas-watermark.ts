/**
 * The viewer's line (name, account, time) painted into a rendered page's own pixels, tiled and tilted
 * like the overlay (components/WatermarkOverlay.tsx) and the server's picture watermark: hiding or
 * deleting a DOM node does not take it off, since the page's canvas is the only thing showing the page.
 */
export function paintWatermark(canvas: HTMLCanvasElement, text: string): void {
  const ctx = canvas.getContext('2d');
  if (!ctx || !text) return;
  // The canvas's pixels per CSS pixel (pdf.js renders at the device's pixel ratio).
  const cssWidth = canvas.getBoundingClientRect().width || canvas.width;
  const ratio = canvas.width / cssWidth || 1;
  const fontPx = 15 * ratio;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.font = `${fontPx}px sans-serif`;
  ctx.fillStyle = 'rgba(128,128,128,0.38)';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const stepX = Math.max(220 * ratio, ctx.measureText(text).width + 60 * ratio);
  const stepY = stepX * 0.6;
  const angle = -Math.PI / 6;
  // Tiles over a square wide enough to cover the page once turned.
  const reach = Math.hypot(canvas.width, canvas.height);
  ctx.translate(canvas.width / 2, canvas.height / 2);
  ctx.rotate(angle);
  for (let y = -reach / 2; y <= reach / 2; y += stepY) {
    const shift = (Math.round(y / stepY) % 2) * (stepX / 2);
    for (let x = -reach / 2; x <= reach / 2; x += stepX) ctx.fillText(text, x + shift, y);
  }
  ctx.restore();
}
