/**
 * The document viewer's zoom: a fitted mode or a number (1 = the page's own size at 96 dpi, pdf.js's
 * CSS units), stepped through the same stops as Firefox's PDF viewer so + and − land on round figures.
 */
export type ZoomMode = 'page-width' | 'page-fit';
export type Zoom = ZoomMode | number;

export const MIN_SCALE = 0.25;
export const MAX_SCALE = 5;
const STOPS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5];

export function clampScale(scale: number): number {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
}

/** The next stop above `scale` (the current scale, whatever mode produced it). */
export function zoomIn(scale: number): number {
  return STOPS.find((s) => s > scale + 0.005) ?? MAX_SCALE;
}

/** The next stop below `scale`. */
export function zoomOut(scale: number): number {
  return [...STOPS].reverse().find((s) => s < scale - 0.005) ?? MIN_SCALE;
}

/** What the toolbar's percentage shows. */
export function percentOf(scale: number): string {
  return `${Math.round(scale * 100)}%`;
}

/** A pinch from `startDistance` to `distance` apart, applied to the scale the pinch began at. */
export function pinchScale(startScale: number, startDistance: number, distance: number): number {
  if (startDistance <= 0) return startScale;
  return clampScale(startScale * (distance / startDistance));
}
